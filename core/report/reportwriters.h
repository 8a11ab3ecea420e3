#pragma once

#include <string>
#include <vector>

namespace fusiondiff {

struct FusionReport;

// The report as JSON (docs/report-format.md): the seed's four top-level keys with its field names,
// plus the traces, classifier, options, correlation groups and kernels.
std::string reportToJson(const FusionReport& report);

struct CsvTable
{
    std::string name; // file name without ".csv"
    std::string text;
};

// One CSV table per report table (report/reporttables.h), in the order of kReportTableIds:
// traces, global_counts, fusion_opportunities, fusion_mappings, op_findings, op_summary,
// extra_kernels, collectives, graph_kinds, graph_pairs, graph_coverage, matched_groups, kernels,
// matched_kernels, time_gap, where_to_look_first, collective_calls. The GUI exports these same bytes.
std::vector<CsvTable> reportToCsv(const FusionReport& report);

std::string reportToMarkdown(const FusionReport& report);

// A plain-text summary for a terminal: the traces side by side, the findings, and what to look at.
std::string reportSummary(const FusionReport& report);

} // namespace fusiondiff
