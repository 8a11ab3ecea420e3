#include "report/graphtables.h"

#include "model/fusionreport.h"
#include "report/jsonwriter.h"
#include "report/tablejson.h"
#include "util/phaseorder.h"
#include "util/plural.h"
#include "util/textformat.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace fusiondiff {

namespace {

void writeKindFields(JsonWriter& json, const FusionReport& report, const GraphKind& kind)
{
    json.field("kind", kind.number);
    json.field("launches", kind.launches);
    json.field("launches_per_step", kind.launchesPerIteration);
    json.field("kernels", kind.kernels);
    json.key("time_us");
    writeSpreadJson(json, kind.timeUs);
    json.field("first_correlation", kind.firstCorrelation);
    json.field("launch_recorded", kind.launchRecorded);
    json.field("captured", kind.captured);
    json.field("types", graphKindTypes(report, kind, 1000000));
    json.field("phases", kind.phases);
}

void writePairFields(JsonWriter& json, const GraphComparison& graphs, const GraphKindPair& pair)
{
    const auto index = uint32_t(&pair - graphs.pairs.data());
    json.field("trace1_kind", graphs.kinds[0][pair.kind[0]].number);
    json.field("trace2_kind", graphs.kinds[1][pair.kind[1]].number);
    json.field("trace1_kernels", graphs.kinds[0][pair.kind[0]].kernels);
    json.field("trace2_kernels", graphs.kinds[1][pair.kind[1]].kernels);
    json.field("compared_launches", pair.comparedLaunches);
    json.field("type_agreement", pair.typeAgreement);
    json.key("trace1_time_us");
    writeSpreadJson(json, pair.timeUs[0]);
    json.key("trace2_time_us");
    writeSpreadJson(json, pair.timeUs[1]);
    json.field("matched_by", pair.matchedBy);
    json.field("finding", pair.finding);
    std::vector<const GraphPairPhase*> phases;
    for (const GraphPairPhase& phase : graphs.pairPhases) {
        if (phase.pair == index)
            phases.push_back(&phase);
    }
    json.key("phases");
    writeObjectArray(json, phases, [](JsonWriter& out, const GraphPairPhase* phase) {
        out.field("phase", phase->phase);
        out.field("trace1_launches", phase->launches[0]);
        out.field("trace2_launches", phase->launches[1]);
        out.field("compared_launches", phase->comparedLaunches);
        out.key("trace1_time_us");
        writeSpreadJson(out, phase->timeUs[0]);
        out.key("trace2_time_us");
        writeSpreadJson(out, phase->timeUs[1]);
    });
}

void writeCoverageFields(JsonWriter& json, const GraphCoverage& coverage)
{
    const size_t own = sideIndex(coverage.coveringSide);
    const size_t other = 1 - own;
    json.field("covering_trace", sideKey(coverage.coveringSide));
    json.field("launch", coverage.launch);
    json.field("kind", coverage.kind);
    json.field("kernels", coverage.kernels);
    json.field("time_us", coverage.timeUs);
    json.field("correlation", coverage.correlation);
    json.key("parts");
    writeObjectArray(json, coverage.parts, [own, other](JsonWriter& out, const GraphCoveragePart& part) {
        out.field("covered_launch", part.otherLaunch);
        out.field("covered_kind", part.otherKind);
        out.field("covered_correlation", part.otherCorrelation);
        out.field("covered_kernels", part.kernels[other]);
        out.field("covered_time_us", part.timeUs[other]);
        out.field("first_kernel", part.firstKernel);
        out.field("last_kernel", part.lastKernel);
        out.field("kernels", part.kernels[own]);
        out.field("time_us", part.timeUs[own]);
        out.field("matched_kernels", part.matchedKernels);
        out.field("differences", part.differences);
        out.field("partial", part.partial);
    });
    json.key("uncovered_launches");
    writeValueArray(json, coverage.uncovered);
    json.field("unrecorded_us", coverage.unrecordedUs);
    json.field("wait_call", coverage.waitCall);
    json.key("unrecorded_launches");
    writeValueArray(json, coverage.unrecordedParts);
    json.field("unrecorded_covered_time_us", coverage.unrecordedOtherUs);
    json.field("unrecorded_estimate_us", coverage.unrecordedEstimateUs);
    json.field("statement", coverage.statement);
}

const char* trueOrFalse(bool flag)
{
    return flag ? "true" : "false";
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

std::string repeatsSentence(const FusionReport& report, const CoverageRun& run)
{
    const size_t own = sideIndex(run.first->coveringSide);
    std::vector<uint32_t> launches;
    for (const GraphCoverage* coverage : run.repeats)
        launches.push_back(coverage->launch);
    return "Likewise " + report.sideNames[own] + "'s graph launches " + numberRanges(launches) + " each cover "
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
        json.field(prefix + "unrecorded_us", graphs.unrecordedUs[side]);
    }
    for (size_t side = 0; side < 2; ++side) {
        json.key(side == 0 ? "trace1_kinds" : "trace2_kinds");
        writeObjectArray(json, graphs.kinds[side],
            [&report](JsonWriter& out, const GraphKind& kind) { writeKindFields(out, report, kind); });
    }
    json.key("kind_pairs");
    writeObjectArray(json, graphs.pairs,
        [&graphs](JsonWriter& out, const GraphKindPair& pair) { writePairFields(out, graphs, pair); });
    json.key("coverage");
    writeObjectArray(json, graphs.coverage, writeCoverageFields);
    json.key("notes");
    writeValueArray(json, graphs.notes);
    json.endObject();
}

ReportTable graphKindsTable(const FusionReport& report)
{
    struct KindRow
    {
        Side side;
        const GraphKind* kind;
    };
    std::vector<KindRow> rows;
    for (const Side side : { Side::Trace1, Side::Trace2 }) {
        for (const GraphKind& kind : report.graphComparison.kinds[sideIndex(side)])
            rows.push_back({ side, &kind });
    }
    ReportTable table { .id = ReportTableId::GraphKinds, .rows = rows.size(), .columns = {} };
    const auto at = rowsOfTable(std::move(rows));
    const auto kind = [at](size_t row) -> const GraphKind& { return *at(row).kind; };
    table.columns = {
        { .key = "trace",
            .header = "Trace",
            .unit = Unit::SideName,
            .value = [at](size_t row) { return std::string(sideKey(at(row).side)); } },
        { .key = "kind",
            .header = "Kind",
            .toolTip = "The kind's number in its trace, in the order of its first launch",
            .unit = Unit::Identifier,
            .value = [kind](size_t row) { return uint64_t(kind(row).number); } },
        { .key = "launches",
            .header = "Launches",
            .unit = Unit::Count,
            .largestFirst = true,
            .value = [kind](size_t row) { return kind(row).launches; } },
        { .key = "launches_per_step",
            .header = "Per step",
            .toolTip = "Launches per profiler step (0 without steps)",
            .unit = Unit::Decimal,
            .decimals = 1,
            .value = [kind](size_t row) { return kind(row).launchesPerIteration; } },
        { .key = "kernels",
            .header = "Kernels",
            .toolTip = "Kernels per launch",
            .unit = Unit::Count,
            .largestFirst = true,
            .value = [kind](size_t row) { return uint64_t(kind(row).kernels); } },
        { .key = "median_us",
            .header = "Time per launch",
            .toolTip = "GPU kernel time per launch: median (first to third quartile)",
            .unit = Unit::Microseconds,
            .largestFirst = true,
            .value = [kind](size_t row) { return kind(row).timeUs.median; },
            .shown = [kind](size_t row) { return kind(row).timeUs; } },
        { .key = "q1_us", .value = [kind](size_t row) { return kind(row).timeUs.q1; } },
        { .key = "q3_us", .value = [kind](size_t row) { return kind(row).timeUs.q3; } },
        { .key = "total_us",
            .header = "Total time",
            .toolTip = "GPU kernel time of all its launches",
            .unit = Unit::Microseconds,
            .largestFirst = true,
            .value = [kind](size_t row) { return kind(row).timeUs.total; } },
        { .key = "first_correlation",
            .header = "First correlation",
            .toolTip = "The correlation id of its first launch",
            .unit = Unit::Identifier,
            .value = [kind](size_t row) { return kind(row).firstCorrelation; } },
        { .key = "launch_recorded",
            .header = "Launch recorded",
            .toolTip = "false: its kernels share a correlation id whose launch is not in the trace",
            .value = [kind](size_t row) { return std::string(trueOrFalse(kind(row).launchRecorded)); } },
        { .key = "captured",
            .header = "Captured graph",
            .toolTip = "The graph of the capture trace it maps to",
            .value = [kind](size_t row) { return kind(row).captured; } },
        { .key = "types",
            .header = "Kernel types",
            .toolTip = "The kernel types of one launch, in order, repeats folded",
            .value = [kind, &report](size_t row) { return graphKindTypes(report, kind(row), 1000000); } },
        { .key = "phases",
            .header = "Phases",
            .toolTip = "Its launches in each compared phase (as the step times name them)",
            .value = [kind](size_t row) { return kind(row).phases; } },
    };
    return table;
}

namespace {

// A pair's rows phase by phase; a report made without phases (graphs.pairPhases empty) has a row
// per pair, its phase empty.
std::vector<GraphPairPhase> graphPairRowsByPhase(const GraphComparison& graphs)
{
    if (!graphs.pairPhases.empty() || graphs.pairs.empty())
        return graphs.pairPhases;
    std::vector<GraphPairPhase> rows;
    for (size_t p = 0; p < graphs.pairs.size(); ++p) {
        const GraphKindPair& pair = graphs.pairs[p];
        rows.push_back({ .pair = uint32_t(p),
            .phase = {},
            .launches = { graphs.kinds[0][pair.kind[0]].launches, graphs.kinds[1][pair.kind[1]].launches },
            .comparedLaunches = pair.comparedLaunches,
            .timeUs = pair.timeUs });
    }
    return rows;
}

// Where pairs ran in several compared phases: per phase, in how many pairs each side's launches take
// longer (by the median), and the time over the phase's compared launches. A graph slower in prefill
// can be faster in decode; a verdict over both misleads.
std::vector<std::string> graphPhaseNotes(const GraphComparison& graphs)
{
    std::vector<std::string> phases;
    for (const GraphPairPhase& row : graphs.pairPhases) {
        if (row.phase != "whole trace" && std::find(phases.begin(), phases.end(), row.phase) == phases.end())
            phases.push_back(row.phase);
    }
    std::vector<std::string> notes;
    if (phases.size() < 2)
        return notes;
    for (const std::string& phase : phases) {
        std::array<size_t, 2> longer {};
        size_t pairs = 0;
        double differenceUs = 0;
        for (const GraphPairPhase& row : graphs.pairPhases) {
            if (row.phase != phase || row.comparedLaunches == 0)
                continue;
            ++pairs;
            if (row.timeUs[0].median != row.timeUs[1].median)
                ++longer[row.timeUs[1].median > row.timeUs[0].median ? 1 : 0];
            differenceUs += row.timeUs[1].total - row.timeUs[0].total;
        }
        std::string text
            = "Graph kind pairs in " + phase + ": " + countedNoun(pairs, "pair", "pairs") + " with launches compared";
        if (pairs > 0) {
            text += "; B's launches take longer in " + std::to_string(longer[1]) + ", A's in "
                + std::to_string(longer[0]);
            text += differenceUs == 0 ? "; the same time over the compared launches"
                                      : "; over the compared launches " + std::string(differenceUs < 0 ? "A +" : "B +")
                    + formatDuration(std::fabs(differenceUs));
        }
        notes.push_back(text + ".");
    }
    return notes;
}

} // namespace

ReportTable graphPairsTable(const FusionReport& report)
{
    const GraphComparison& graphs = report.graphComparison;
    std::vector<GraphPairPhase> rows = graphPairRowsByPhase(graphs);
    ReportTable table { .id = ReportTableId::GraphPairs, .rows = rows.size(), .columns = {} };
    const auto phaseAt = rowsOfTable(std::move(rows));
    const auto at = [&graphs, phaseAt](size_t row) -> const GraphKindPair& { return graphs.pairs[phaseAt(row).pair]; };
    const auto kind
        = [&graphs, at](size_t row, size_t side) -> const GraphKind& { return graphs.kinds[side][at(row).kind[side]]; };
    for (size_t side = 0; side < 2; ++side) {
        table.columns.push_back({ .key = side == 0 ? "trace1_kind" : "trace2_kind",
            .header = side == 0 ? "A kind" : "B kind",
            .unit = Unit::Identifier,
            .value = [kind, side](size_t row) { return uint64_t(kind(row, side).number); } });
    }
    for (size_t side = 0; side < 2; ++side) {
        table.columns.push_back({ .key = side == 0 ? "trace1_kernels" : "trace2_kernels",
            .header = side == 0 ? "A kernels" : "B kernels",
            .toolTip = "Kernels per launch",
            .unit = Unit::Count,
            .largestFirst = true,
            .value = [kind, side](size_t row) { return uint64_t(kind(row, side).kernels); } });
    }
    table.columns.push_back({ .key = "compared_launches",
        .header = "Launches compared",
        .toolTip = "Launch pairs in the phase: its i-th launch of one kind with the i-th of the other",
        .unit = Unit::Count,
        .largestFirst = true,
        .value = [phaseAt](size_t row) { return phaseAt(row).comparedLaunches; } });
    table.columns.push_back({ .key = "type_agreement",
        .header = "Same type",
        .toolTip = "Kernels paired with one of the same type, over the longer side",
        .unit = Unit::Decimal,
        .value = [at](size_t row) { return at(row).typeAgreement; } });
    for (size_t side = 0; side < 2; ++side) {
        const std::string prefix = side == 0 ? "trace1_" : "trace2_";
        table.columns.push_back({ .key = prefix + "median_us",
            .header = side == 0 ? "A per launch" : "B per launch",
            .toolTip = "GPU time per compared launch in the phase: median (first to third quartile)",
            .unit = Unit::Microseconds,
            .largestFirst = true,
            .value = [phaseAt, side](size_t row) { return phaseAt(row).timeUs[side].median; },
            .shown = [phaseAt, side](size_t row) { return phaseAt(row).timeUs[side]; } });
        table.columns.push_back({ .key = prefix + "total_us",
            .header = side == 0 ? "A time" : "B time",
            .toolTip = "GPU time of the compared launches in the phase",
            .unit = Unit::Microseconds,
            .largestFirst = true,
            .value = [phaseAt, side](size_t row) { return phaseAt(row).timeUs[side].total; } });
    }
    table.columns.push_back(
        { .key = "matched_by", .header = "Matched by", .value = [at](size_t row) { return at(row).matchedBy; } });
    table.columns.push_back({ .key = "finding", .header = "Finding", .unit = Unit::SideText, .value = [at](size_t row) {
                                 return at(row).finding;
                             } });
    table.columns.push_back({ .key = "phase",
        .header = "Phase",
        .toolTip = "The compared phase the launches ran in, as the step times name it",
        .value = [phaseAt](size_t row) { return phaseAt(row).phase; },
        .sortKey = [phaseAt](size_t row) -> CellValue { return phaseOrder(phaseAt(row).phase); } });
    return table;
}

ReportTable graphCoverageTable(const FusionReport& report)
{
    struct PartRow
    {
        const GraphCoverage* coverage;
        const GraphCoveragePart* part;
        size_t own; // the covering side's index
    };
    std::vector<PartRow> rows;
    for (const GraphCoverage& coverage : report.graphComparison.coverage) {
        for (const GraphCoveragePart& part : coverage.parts)
            rows.push_back({ &coverage, &part, sideIndex(coverage.coveringSide) });
    }
    ReportTable table { .id = ReportTableId::GraphCoverage, .rows = rows.size(), .columns = {} };
    const auto at = rowsOfTable(std::move(rows));
    const auto part = [at](size_t row) -> const GraphCoveragePart& { return *at(row).part; };
    const auto kernelsOf
        = [at](size_t row, bool own) { return at(row).part->kernels[own ? at(row).own : 1 - at(row).own]; };
    const auto timeOf
        = [at](size_t row, bool own) { return at(row).part->timeUs[own ? at(row).own : 1 - at(row).own]; };
    table.columns = {
        { .key = "covering_trace",
            .header = "Covering trace",
            .unit = Unit::SideName,
            .value = [at](size_t row) { return std::string(sideKey(at(row).coverage->coveringSide)); } },
        { .key = "launch",
            .header = "Launch",
            .toolTip = "The covering launch's position among its trace's graph launches",
            .unit = Unit::Identifier,
            .value = [at](size_t row) { return uint64_t(at(row).coverage->launch); } },
        { .key = "kind",
            .header = "Kind",
            .unit = Unit::Identifier,
            .value = [at](size_t row) { return uint64_t(at(row).coverage->kind); } },
        { .key = "covered_launch",
            .header = "Covered launch",
            .toolTip = "The covered launch's position among the other trace's graph launches",
            .unit = Unit::Identifier,
            .value = [part](size_t row) { return uint64_t(part(row).otherLaunch); } },
        { .key = "covered_kind",
            .header = "Covered kind",
            .unit = Unit::Identifier,
            .value = [part](size_t row) { return uint64_t(part(row).otherKind); } },
        { .key = "first_kernel",
            .header = "First kernel",
            .toolTip = "The part's first kernel in the covering launch",
            .unit = Unit::Identifier,
            .value = [part](size_t row) { return uint64_t(part(row).firstKernel); } },
        { .key = "last_kernel",
            .header = "Last kernel",
            .toolTip = "The part's last kernel in the covering launch",
            .unit = Unit::Identifier,
            .value = [part](size_t row) { return uint64_t(part(row).lastKernel); } },
        { .key = "kernels",
            .header = "Kernels",
            .toolTip = "Kernels of the part of the covering launch",
            .unit = Unit::Count,
            .largestFirst = true,
            .value = [kernelsOf](size_t row) { return kernelsOf(row, true); } },
        { .key = "time_us",
            .header = "Time",
            .toolTip = "Their GPU time",
            .unit = Unit::Microseconds,
            .largestFirst = true,
            .value = [timeOf](size_t row) { return timeOf(row, true); } },
        { .key = "covered_kernels",
            .header = "Covered kernels",
            .toolTip = "Kernels of the covered launch",
            .unit = Unit::Count,
            .largestFirst = true,
            .value = [kernelsOf](size_t row) { return kernelsOf(row, false); } },
        { .key = "covered_time_us",
            .header = "Covered time",
            .toolTip = "Their GPU time",
            .unit = Unit::Microseconds,
            .largestFirst = true,
            .value = [timeOf](size_t row) { return timeOf(row, false); } },
        { .key = "matched_kernels",
            .header = "Same type",
            .toolTip = "Kernels of the two that line up by type",
            .unit = Unit::Count,
            .value = [part](size_t row) { return part(row).matchedKernels; } },
        { .key = "partial",
            .header = "Partial",
            .toolTip = "true: the covering launch holds only part of this work (its trace starts or ends inside it)",
            .value = [part](size_t row) { return std::string(trueOrFalse(part(row).partial)); } },
        { .key = "differences",
            .header = "Differences",
            .value = [part](size_t row) { return part(row).differences; } },
    };
    return table;
}

std::string graphComparisonMarkdown(const FusionReport& report)
{
    const GraphComparison& graphs = report.graphComparison;
    if (graphs.launches[0] + graphs.launches[1] == 0)
        return "";
    std::string out = "\n## Graphs\n\n";
    for (const std::string& note : graphComparisonNotes(report))
        out += "- " + markdownCell(note) + "\n";
    const std::vector<GraphPairPhase> rows = graphPairRowsByPhase(graphs);
    const bool phased = std::any_of(rows.begin(), rows.end(),
        [](const GraphPairPhase& row) { return !row.phase.empty() && row.phase != "whole trace"; });
    if (!rows.empty()) {
        out += std::string("\n| ") + (phased ? "Phase | " : "")
            + "A kind | B kind | A kernels | B kernels | Launches compared | Same type | A per launch (median) | "
              "B per launch (median) | Matched by |\n";
        out += std::string("| ") + (phased ? "--- | " : "")
            + "--- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n";
        for (const GraphPairPhase& row : rows) {
            const GraphKindPair& pair = graphs.pairs[row.pair];
            out += "| " + (phased ? markdownCell(row.phase) + " | " : std::string())
                + markdownCell(kindName(report, 0, pair.kind[0])) + " | "
                + markdownCell(kindName(report, 1, pair.kind[1])) + " | "
                + countWithThousands(graphs.kinds[0][pair.kind[0]].kernels) + " | "
                + countWithThousands(graphs.kinds[1][pair.kind[1]].kernels) + " | "
                + countWithThousands(row.comparedLaunches) + " | " + fixed(pair.typeAgreement * 100, 0) + "% | "
                + formatDuration(row.timeUs[0].median) + " | " + formatDuration(row.timeUs[1].median) + " | "
                + pair.matchedBy + " |\n";
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
                + countWithThousands(part.kernels[1 - own]) + " | " + formatDuration(part.timeUs[1 - own]) + " | "
                + std::to_string(part.firstKernel) + "–" + std::to_string(part.lastKernel) + " ("
                + countWithThousands(part.kernels[own]) + ") | " + formatDuration(part.timeUs[own]) + " | "
                + countWithThousands(part.matchedKernels) + " | " + (part.partial ? "only part of it; " : "")
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
        text += std::string(side == 0 ? "A" : "; B");
        if (graphs.launches[side] == 0) {
            text += " launches no graphs";
            continue;
        }
        text += " launches " + countedNoun(graphs.launches[side], "graph", "graphs") + " of "
            + countedNoun(graphs.kinds[side].size(), "kind", "kinds") + " ("
            + countedNoun(graphs.kernels[side], "kernel", "kernels") + ", " + formatDuration(graphs.timeUs[side]) + ")";
    }
    if (graphs.launches[0] > 0 && graphs.launches[1] > 0) {
        text += "; " + countWithThousands(graphs.pairs.size())
            + (graphs.pairs.size() == 1 ? " kind pair" : " kind pairs")
            + " matched and compared kernel by kernel, whatever their size";
        if (!graphs.coverage.empty())
            text += ", and " + countWithThousands(graphs.coverage.size())
                + (graphs.coverage.size() == 1 ? " graph launch that does" : " graph launches that do")
                + " the work of several of the other trace's compared part by part";
        if (graphs.alignedLaunches[0] > 0)
            text += " (found by aligning the kernels of the first " + countWithThousands(graphs.alignedLaunches[0])
                + " and " + countedNoun(graphs.alignedLaunches[1], "launch", "launches") + ")";
    }
    notes.push_back(text + ".");
    for (std::string& note : graphPhaseNotes(graphs))
        notes.push_back(std::move(note));
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
