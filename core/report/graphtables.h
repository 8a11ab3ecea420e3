#pragma once

#include <string>
#include <vector>

namespace fusiondiff {

class JsonWriter;
struct FusionReport;
struct GraphKind;

// The graph comparison (FusionReport::graphComparison) in each output format; reportjson.cpp,
// reportcsv.cpp, reportmarkdown.cpp, reportsummary.cpp and reportnotes.cpp call these.
void writeGraphComparisonJson(JsonWriter& json, const FusionReport& report);
std::string graphKindsCsv(const FusionReport& report);
std::string graphPairsCsv(const FusionReport& report);
std::string graphCoverageCsv(const FusionReport& report);
std::string graphComparisonMarkdown(const FusionReport& report);
// One line per fact for the notes: launches and kinds per side, matched kinds, coverage.
std::vector<std::string> graphComparisonNotes(const FusionReport& report);
// "GEMM x3, Attention, Norm x2" for a kind's kernel types, repeats folded, at most `maxParts` parts.
std::string graphKindTypes(const FusionReport& report, const GraphKind& kind, size_t maxParts = 8);

} // namespace fusiondiff
