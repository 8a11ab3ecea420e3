#pragma once

#include "report/reporttables.h"

namespace fusiondiff {

struct FusionReport;

// The per-operation tables, for reportTable(): the operation findings, the operation summary, the
// extra kernels and the collectives.
ReportTable opFindingsTable(const FusionReport& r);
ReportTable opSummaryTable(const FusionReport& r);
ReportTable extraKernelsTable(const FusionReport& r);
ReportTable collectivesTable(const FusionReport& r);

} // namespace fusiondiff
