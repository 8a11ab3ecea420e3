#pragma once

#include "report/reporttables.h"

namespace fusiondiff {

struct FusionReport;

// The fusion tables of the reference analysis, for reportTable(): the traces, the global kernel counts,
// the fusion opportunities and the fusion mappings.
ReportTable tracesTable(const FusionReport& r);
ReportTable globalCountsTable(const FusionReport& r);
ReportTable opportunitiesTable(const FusionReport& r);
ReportTable mappingsTable(const FusionReport& r);

} // namespace fusiondiff
