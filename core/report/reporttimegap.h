#pragma once

#include "report/reporttables.h"

#include <string>
#include <string_view>

namespace fusiondiff {

class JsonWriter;
struct LookFirstEntry;
struct FusionReport;

// The time gap, where to look first and the collective calls in each report format; the writers
// (reportjson.cpp, reporttables.cpp, reportmarkdown.cpp, reportsummary.cpp) call these.

void writeTimeGapJson(JsonWriter& json, const FusionReport& report); // the value of "time_gap"
void writeWhereToLookFirstJson(JsonWriter& json, const FusionReport& report);
void writeCollectiveCallsJson(JsonWriter& json, const FusionReport& report);

// The tables time_gap (a row per part, of the GPU kernel time and then of the GPU wall time),
// where_to_look_first and collective_calls, for reportTable().
ReportTable timeGapTable(const FusionReport& report);
ReportTable whereToLookFirstTable(const FusionReport& report);
// The group a where_to_look_first entry ranks in: "explains_gap", then "against_gap" (its slower side
// is the faster side overall), then "within_noise" (its stake is within run-to-run noise).
const char* lookFirstGroupKey(const LookFirstEntry& entry);
ReportTable collectiveCallsTable(const FusionReport& report);

// Markdown sections; `cell` escapes text for a table cell.
using MarkdownCell = std::string (*)(std::string_view);
std::string timeGapMarkdown(const FusionReport& report, MarkdownCell cell);
std::string collectiveCallsMarkdown(const FusionReport& report, MarkdownCell cell);

// A difference of times with its sign: "+1.2 ms", "-853 us", "0 us" (under 0.05 us).
std::string signedDuration(double us);

// The verdict and the parts, for the terminal summary.
std::string timeGapText(const FusionReport& report);

} // namespace fusiondiff
