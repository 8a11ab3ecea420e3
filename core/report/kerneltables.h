#pragma once

#include "report/reporttables.h"

namespace fusiondiff {

struct FusionReport;

// The kernel-level tables, for reportTable(): matched and unmatched groups, every kernel, the layer
// times and the matched kernels.
ReportTable matchedGroupsTable(const FusionReport& r);
ReportTable kernelsTable(const FusionReport& r);
ReportTable layerTimesTable(const FusionReport& r);
ReportTable matchedKernelsTable(const FusionReport& r);

} // namespace fusiondiff
