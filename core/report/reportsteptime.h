#pragma once

#include "report/reporttables.h"
#include "report/reporttimegap.h"

#include <string>

namespace fusiondiff {

class JsonWriter;
struct FusionReport;

// The step time (model/steptime.h) in each report format.

// The value of "step_time": the notes, phases, each side's steps and the idle causes paired by name.
void writeStepTimeJson(JsonWriter& json, const FusionReport& report);

// The tables step_times (a row per compared phase, then all steps) and host_time (a row per host
// code), for reportTable().
ReportTable stepTimesTable(const FusionReport& report);
ReportTable hostTimeTable(const FusionReport& report);

// The Markdown section "Step time" (empty when no steps were measured).
std::string stepTimeMarkdown(const FusionReport& report, MarkdownCell cell);

// The step-time lines of the terminal summary (empty when no steps were measured).
std::string stepTimeText(const FusionReport& report);

} // namespace fusiondiff
