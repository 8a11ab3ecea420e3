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

} // namespace fusiondiff
