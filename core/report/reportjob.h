#pragma once

#include "report/reporttables.h"

#include <string>

namespace fusiondiff {

class JsonWriter;
struct FusionReport;

// The job comparison of two multi-rank runs (model/jobreport.h) in every format; each writes
// nothing when FusionReport::job is null, so a single trace's report is unchanged.
ReportTable rankTimesTable(const FusionReport& report);
ReportTable rankCollectivesTable(const FusionReport& report);
ReportTable jobStepsTable(const FusionReport& report);
void writeJobJson(JsonWriter& json, const FusionReport& report); // the top-level "job" object
std::string jobMarkdown(const FusionReport& report); // the "## Jobs" section
std::string jobSummaryText(const FusionReport& report); // the summary's lines
// "B's job is slower by 890 us (4.3%) over 1 step; its largest part: collective_wait +828 us; the
// first straggler: rank 2 of B (828 us at stake)"; "" without a job.
std::string jobVerdict(const FusionReport& report);

} // namespace fusiondiff
