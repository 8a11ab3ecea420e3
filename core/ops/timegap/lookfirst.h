#pragma once

#include "model/timegap.h"

#include <vector>

namespace fusiondiff {

struct FusionReport;
struct TimeGapAccounting;

// Every difference worth a look, whatever its kind, ranked by the time at stake (|A - B| over the
// calls or kernels involved), largest first: operations that run a different number of kernels
// (the op findings), operations that run the same kernels at a different speed, collectives, and
// operations only one side runs; kernel types when the operations cannot be compared. At most
// `limit` entries.
std::vector<LookFirstEntry> rankWhereToLookFirst(
    const FusionReport& report, const TimeGapAccounting& accounting, size_t limit = 25);

} // namespace fusiondiff
