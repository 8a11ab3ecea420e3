#include "report/graphtables.h"

#include "model/fusionreport.h"
#include "report/csvwriter.h"
#include "report/jsonwriter.h"
#include "util/textformat.h"

namespace fusiondiff {

namespace {

void writeSpread(JsonWriter& json, const Spread& spread)
{
    json.beginObject();
    json.field("count", spread.count);
    json.field("total", spread.total);
    json.field("median", spread.median);
    json.field("q1", spread.q1);
    json.field("q3", spread.q3);
    json.endObject();
}

void writeKind(JsonWriter& json, const FusionReport& report, const GraphKind& kind)
{
    json.beginObject();
    json.field("kind", kind.number);
    json.field("launches", kind.launches);
    json.field("launches_per_step", kind.launchesPerIteration);
    json.field("kernels", kind.kernels);
    json.key("time_us");
    writeSpread(json, kind.timeUs);
    json.field("first_correlation", kind.firstCorrelation);
    json.field("launch_recorded", kind.launchRecorded);
    json.field("captured", kind.captured);
    json.field("types", graphKindTypes(report, kind, 1000000));
    json.endObject();
}

std::string count(uint64_t value)
{
    return withThousands(int64_t(value));
}

std::string markdownCell(const std::string& text)
{
    std::string out;
    for (const char c : text) {
        if (c == '|' || c == '\\' || c == '`' || c == '*' || c == '_' || c == '<' || c == '>')
            out.push_back('\\');
        out.push_back(c == '\n' ? ' ' : c);
    }
    return out;
}

std::string kindName(const FusionReport& report, size_t side, uint32_t index)
{
    const GraphKind& kind = report.graphComparison.kinds[side][index];
    return std::string(side == 0 ? "A" : "B") + " kind " + std::to_string(kind.number)
        + (kind.captured.empty() ? "" : " (" + kind.captured + ")");
}

// Coverings that repeat one pattern (the same covering kind and the same covered kinds, e.g. a
// full graph per step against the pieces of each step): the first of each run and the rest.
struct CoverageRun
{
    const GraphCoverage* first = nullptr;
    std::vector<const GraphCoverage*> repeats;
};

std::string patternOf(const GraphCoverage& coverage)
{
    std::string key = std::to_string(sideIndex(coverage.coveringSide)) + ":" + std::to_string(coverage.kind) + ":";
    for (const GraphCoveragePart& part : coverage.parts)
        key += std::to_string(part.otherKind) + (part.partial ? "p," : ",");
    return key;
}

std::vector<CoverageRun> coverageRuns(const GraphComparison& graphs)
{
    std::vector<CoverageRun> runs;
    std::string previous;
    for (const GraphCoverage& coverage : graphs.coverage) {
        const std::string key = patternOf(coverage);
        if (!runs.empty() && key == previous)
            runs.back().repeats.push_back(&coverage);
        else
            runs.push_back({ &coverage, {} });
        previous = key;
    }
    return runs;
}

std::string launchList(const std::vector<uint32_t>& launches)
{
    std::string text;
    for (size_t i = 0; i < launches.size();) {
        size_t j = i;
        while (j + 1 < launches.size() && launches[j + 1] == launches[j] + 1)
            ++j;
        text += (text.empty() ? "" : ", ") + std::to_string(launches[i])
            + (j > i ? "\xE2\x80\x93" + std::to_string(launches[j]) : "");
        i = j + 1;
    }
    return text;
}

std::string repeatsSentence(const FusionReport& report, const CoverageRun& run)
{
    const size_t own = sideIndex(run.first->coveringSide);
    std::vector<uint32_t> launches;
    for (const GraphCoverage* coverage : run.repeats)
        launches.push_back(coverage->launch);
    return "Likewise " + report.sideNames[own] + "'s graph launches " + launchList(launches) + " each cover "
        + std::to_string(run.first->parts.size()) + " of " + report.sideNames[1 - own]
        + "'s graph launches of the same kinds, in order, up to launch "
        + std::to_string(run.repeats.back()->parts.back().otherLaunch)
        + " (every part is in the JSON and CSV reports).";
}

} // namespace

std::string graphKindTypes(const FusionReport& report, const GraphKind& kind, size_t maxParts)
{
    std::string text;
    size_t parts = 0;
    for (size_t i = 0; i < kind.types.size();) {
        if (parts++ == maxParts) {
            text += ", ...";
            break;
        }
        size_t same = i;
        while (same < kind.types.size() && kind.types[same] == kind.types[i])
            ++same;
        text += (text.empty() ? "" : ", ") + report.typeName(kind.types[i]);
        if (same - i > 1)
            text += " x" + std::to_string(same - i);
        i = same;
    }
    return text;
}

void writeGraphComparisonJson(JsonWriter& json, const FusionReport& report)
{
    const GraphComparison& graphs = report.graphComparison;
    json.beginObject();
    for (size_t side = 0; side < 2; ++side) {
        const std::string prefix = side == 0 ? "trace1_" : "trace2_";
        json.field(prefix + "launches", graphs.launches[side]);
        json.field(prefix + "kernels", graphs.kernels[side]);
        json.field(prefix + "time_us", graphs.timeUs[side]);
        json.field(prefix + "aligned_launches", graphs.alignedLaunches[side]);
        json.field(prefix + "capture", graphs.captureFiles[side]);
        json.field(prefix + "captured_kinds", graphs.capturedKinds[side]);
    }
    for (size_t side = 0; side < 2; ++side) {
        json.key(side == 0 ? "trace1_kinds" : "trace2_kinds");
        json.beginArray();
        for (const GraphKind& kind : graphs.kinds[side])
            writeKind(json, report, kind);
        json.endArray();
    }
    json.key("kind_pairs");
    json.beginArray();
    for (const GraphKindPair& pair : graphs.pairs) {
        json.beginObject();
        json.field("trace1_kind", graphs.kinds[0][pair.kind[0]].number);
        json.field("trace2_kind", graphs.kinds[1][pair.kind[1]].number);
        json.field("trace1_kernels", graphs.kinds[0][pair.kind[0]].kernels);
        json.field("trace2_kernels", graphs.kinds[1][pair.kind[1]].kernels);
        json.field("compared_launches", pair.comparedLaunches);
        json.field("type_agreement", pair.typeAgreement);
        json.key("trace1_time_us");
        writeSpread(json, pair.timeUs[0]);
        json.key("trace2_time_us");
        writeSpread(json, pair.timeUs[1]);
        json.field("matched_by", pair.matchedBy);
        json.field("finding", pair.finding);
        json.endObject();
    }
    json.endArray();
    json.key("coverage");
    json.beginArray();
    for (const GraphCoverage& coverage : graphs.coverage) {
        const size_t own = sideIndex(coverage.coveringSide);
        const size_t other = 1 - own;
        json.beginObject();
        json.field("covering_trace", sideKey(coverage.coveringSide));
        json.field("launch", coverage.launch);
        json.field("kind", coverage.kind);
        json.field("kernels", coverage.kernels);
        json.field("time_us", coverage.timeUs);
        json.key("parts");
        json.beginArray();
        for (const GraphCoveragePart& part : coverage.parts) {
            json.beginObject();
            json.field("covered_launch", part.otherLaunch);
            json.field("covered_kind", part.otherKind);
            json.field("covered_kernels", part.kernels[other]);
            json.field("covered_time_us", part.timeUs[other]);
            json.field("first_kernel", part.firstKernel);
            json.field("last_kernel", part.lastKernel);
            json.field("kernels", part.kernels[own]);
            json.field("time_us", part.timeUs[own]);
            json.field("matched_kernels", part.matchedKernels);
            json.field("differences", part.differences);
            json.field("partial", part.partial);
            json.endObject();
        }
        json.endArray();
        json.key("uncovered_launches");
        json.beginArray();
        for (const uint32_t launch : coverage.uncovered)
            json.value(launch);
        json.endArray();
        json.field("statement", coverage.statement);
        json.endObject();
    }
    json.endArray();
    json.key("notes");
    json.beginArray();
    for (const std::string& note : graphs.notes)
        json.value(note);
    json.endArray();
    json.endObject();
}

std::string graphKindsCsv(const FusionReport& report)
{
    CsvWriter csv;
    for (const char* column : { "trace", "kind", "launches", "launches_per_step", "kernels", "median_us", "q1_us",
             "q3_us", "total_us", "first_correlation", "launch_recorded", "captured", "types" })
        csv.field(column);
    csv.endRecord();
    for (const Side side : { Side::Trace1, Side::Trace2 }) {
        for (const GraphKind& kind : report.graphComparison.kinds[sideIndex(side)]) {
            csv.field(sideKey(side))
                .field(kind.number)
                .field(kind.launches)
                .field(kind.launchesPerIteration)
                .field(kind.kernels)
                .field(kind.timeUs.median)
                .field(kind.timeUs.q1)
                .field(kind.timeUs.q3)
                .field(kind.timeUs.total)
                .field(kind.firstCorrelation)
                .field(kind.launchRecorded ? "true" : "false")
                .field(kind.captured)
                .field(graphKindTypes(report, kind, 1000000))
                .endRecord();
        }
    }
    return csv.text();
}

std::string graphPairsCsv(const FusionReport& report)
{
    const GraphComparison& graphs = report.graphComparison;
    CsvWriter csv;
    for (const char* column :
        { "trace1_kind", "trace2_kind", "trace1_kernels", "trace2_kernels", "compared_launches", "type_agreement",
            "trace1_median_us", "trace1_total_us", "trace2_median_us", "trace2_total_us", "matched_by", "finding" })
        csv.field(column);
    csv.endRecord();
    for (const GraphKindPair& pair : graphs.pairs) {
        csv.field(graphs.kinds[0][pair.kind[0]].number)
            .field(graphs.kinds[1][pair.kind[1]].number)
            .field(graphs.kinds[0][pair.kind[0]].kernels)
            .field(graphs.kinds[1][pair.kind[1]].kernels)
            .field(pair.comparedLaunches)
            .field(pair.typeAgreement)
            .field(pair.timeUs[0].median)
            .field(pair.timeUs[0].total)
            .field(pair.timeUs[1].median)
            .field(pair.timeUs[1].total)
            .field(pair.matchedBy)
            .field(pair.finding)
            .endRecord();
    }
    return csv.text();
}

std::string graphCoverageCsv(const FusionReport& report)
{
    CsvWriter csv;
    for (const char* column :
        { "covering_trace", "launch", "kind", "covered_launch", "covered_kind", "first_kernel", "last_kernel",
            "kernels", "time_us", "covered_kernels", "covered_time_us", "matched_kernels", "partial", "differences" })
        csv.field(column);
    csv.endRecord();
    for (const GraphCoverage& coverage : report.graphComparison.coverage) {
        const size_t own = sideIndex(coverage.coveringSide);
        for (const GraphCoveragePart& part : coverage.parts) {
            csv.field(sideKey(coverage.coveringSide))
                .field(coverage.launch)
                .field(coverage.kind)
                .field(part.otherLaunch)
                .field(part.otherKind)
                .field(part.firstKernel)
                .field(part.lastKernel)
                .field(part.kernels[own])
                .field(part.timeUs[own])
                .field(part.kernels[1 - own])
                .field(part.timeUs[1 - own])
                .field(part.matchedKernels)
                .field(part.partial ? "true" : "false")
                .field(part.differences)
                .endRecord();
        }
    }
    return csv.text();
}

std::string graphComparisonMarkdown(const FusionReport& report)
{
    const GraphComparison& graphs = report.graphComparison;
    if (graphs.launches[0] + graphs.launches[1] == 0)
        return "";
    std::string out = "\n## Graphs\n\n";
    for (const std::string& note : graphComparisonNotes(report))
        out += "- " + markdownCell(note) + "\n";
    if (!graphs.pairs.empty()) {
        out += "\n| A kind | B kind | A kernels | B kernels | Launches compared | Same type | A per launch (median) | "
               "B per "
               "launch (median) | Matched by |\n";
        out += "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n";
        for (const GraphKindPair& pair : graphs.pairs) {
            out += "| " + markdownCell(kindName(report, 0, pair.kind[0])) + " | "
                + markdownCell(kindName(report, 1, pair.kind[1])) + " | " + count(graphs.kinds[0][pair.kind[0]].kernels)
                + " | " + count(graphs.kinds[1][pair.kind[1]].kernels) + " | " + count(pair.comparedLaunches) + " | "
                + fixed(pair.typeAgreement * 100, 0) + "% | " + formatDuration(pair.timeUs[0].median) + " | "
                + formatDuration(pair.timeUs[1].median) + " | " + pair.matchedBy + " |\n";
        }
    }
    for (const CoverageRun& run : coverageRuns(graphs)) {
        const GraphCoverage& coverage = *run.first;
        const size_t own = sideIndex(coverage.coveringSide);
        out += "\n" + markdownCell(coverage.statement) + "\n\n";
        if (!run.repeats.empty())
            out += markdownCell(repeatsSentence(report, run)) + "\n\n";
        out += "| Covered launch | Kind | Its kernels | Its time | Kernels of the covering launch | Their time | Same "
               "type | Differences |\n";
        out += "| ---: | ---: | ---: | ---: | --- | ---: | ---: | --- |\n";
        for (const GraphCoveragePart& part : coverage.parts) {
            out += "| " + std::to_string(part.otherLaunch) + " | " + std::to_string(part.otherKind) + " | "
                + count(part.kernels[1 - own]) + " | " + formatDuration(part.timeUs[1 - own]) + " | "
                + std::to_string(part.firstKernel) + "–" + std::to_string(part.lastKernel) + " ("
                + count(part.kernels[own]) + ") | " + formatDuration(part.timeUs[own]) + " | "
                + count(part.matchedKernels) + " | " + (part.partial ? "only part of it; " : "")
                + markdownCell(part.differences) + " |\n";
        }
    }
    return out;
}

std::vector<std::string> graphComparisonNotes(const FusionReport& report)
{
    const GraphComparison& graphs = report.graphComparison;
    std::vector<std::string> notes;
    if (graphs.launches[0] + graphs.launches[1] == 0)
        return notes;
    std::string text = "Graphs: ";
    for (size_t side = 0; side < 2; ++side) {
        text += std::string(side == 0 ? "A" : "; B") + " launches " + count(graphs.launches[side])
            + (graphs.launches[side] == 1 ? " graph" : " graphs") + " of " + count(graphs.kinds[side].size())
            + (graphs.kinds[side].size() == 1 ? " kind" : " kinds") + " (" + count(graphs.kernels[side]) + " kernels, "
            + formatDuration(graphs.timeUs[side]) + ")";
    }
    if (graphs.launches[0] > 0 && graphs.launches[1] > 0) {
        text += "; " + count(graphs.pairs.size()) + (graphs.pairs.size() == 1 ? " kind pair" : " kind pairs")
            + " matched and compared kernel by kernel, whatever their size";
        if (!graphs.coverage.empty())
            text += ", and " + count(graphs.coverage.size())
                + (graphs.coverage.size() == 1 ? " graph launch that does" : " graph launches that do")
                + " the work of several of the other trace's compared part by part";
        if (graphs.alignedLaunches[0] > 0)
            text += " (found by aligning the kernels of the first " + count(graphs.alignedLaunches[0]) + " and "
                + count(graphs.alignedLaunches[1]) + " launches)";
    }
    notes.push_back(text + ".");
    for (const CoverageRun& run : coverageRuns(graphs)) {
        notes.push_back(run.first->statement);
        if (!run.repeats.empty())
            notes.push_back(repeatsSentence(report, run));
    }
    for (const std::string& note : graphs.notes)
        notes.push_back(note);
    return notes;
}

} // namespace fusiondiff
