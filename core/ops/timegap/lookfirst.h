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

// An entry whose slower side is the faster side overall works against the headline's gap
// (`againstGap`): its first detail says so, so that a reader does not add it to the gap. Marks it
// again from scratch, for an entry whose times changed.
void markEntryAgainstTheGap(const FusionReport& report, LookFirstEntry& entry);

// The order of "where to look first": the entries that explain the gap, then those that work
// against it, then those within run-to-run noise (the JSON's `group`), each group by stake, largest
// first. Stable, so that equal stakes keep their order. Whatever adds entries later (a job's
// stragglers, its collectives read against the ranks' waits) orders them again with this.
void orderWhereToLookFirst(std::vector<LookFirstEntry>& entries);

} // namespace fusiondiff
