#pragma once

#include "report/reporttables.h"

#include <string>
#include <vector>

namespace fusiondiff {

class JsonWriter;
struct FusionReport;
struct GraphKind;

// The graph comparison (FusionReport::graphComparison) in each output format; reportjson.cpp,
// reporttables.cpp, reportmarkdown.cpp, reportsummary.cpp and reportnotes.cpp call these.
void writeGraphComparisonJson(JsonWriter& json, const FusionReport& report);
// The tables graph_kinds (every kind of both traces, A's first), graph_pairs and graph_coverage (a
// row per part of each covering launch), for reportTable().
ReportTable graphKindsTable(const FusionReport& report);
ReportTable graphPairsTable(const FusionReport& report);
ReportTable graphCoverageTable(const FusionReport& report);
std::string graphComparisonMarkdown(const FusionReport& report);
// One line per fact for the notes: launches and kinds per side, matched kinds, coverage.
std::vector<std::string> graphComparisonNotes(const FusionReport& report);
// "GEMM x3, Attention, Norm x2" for a kind's kernel types, repeats folded, at most `maxParts` parts.
std::string graphKindTypes(const FusionReport& report, const GraphKind& kind, size_t maxParts = 8);

} // namespace fusiondiff
