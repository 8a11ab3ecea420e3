#pragma once

#include "report/reporttables.h"

#include <string>
#include <string_view>

namespace fusiondiff {

class JsonWriter;
struct FusionReport;

// The `efficiency` table (docs/report-format.md): one row per operator, shape and data type.
ReportTable efficiencyTable(const FusionReport& report);
// The JSON's "efficiency" object: the peaks used, each side's GPU, the coverage and the rows.
void writeEfficiencyJson(JsonWriter& json, const FusionReport& report);
// The Markdown report's section: the peaks, the GPUs and the rows with the most time at stake.
std::string efficiencyMarkdown(const FusionReport& report, std::string (*cell)(std::string_view));

} // namespace fusiondiff
