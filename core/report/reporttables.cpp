#include "report/reporttables.h"

#include "model/fusionreport.h"
#include "report/collectiveopportunity.h"
#include "report/graphtables.h"
#include "report/reportefficiency.h"
#include "report/reportjob.h"
#include "report/reportsteptime.h"
#include "report/reporttimegap.h"
#include "util/textformat.h"

#include <cmath>
#include <limits>

namespace fusiondiff {

namespace {

// The app's "Fused by" cell: the fused side's key, or, where that side runs none of the kernels,
// "only " and the other side's key (the app shows "only B runs it": nothing was fused).
std::string sideNameShown(Side fused, size_t fusedKernels)
{
    return fusedKernels > 0 ? std::string(sideKey(fused)) : "only " + std::string(sideKey(otherSide(fused)));
}

std::string joinTypes(const FusionReport& report, const std::vector<CategoryId>& types, const char* separator)
{
    std::string text;
    for (const CategoryId type : types)
        text += (text.empty() ? "" : separator) + report.typeName(type);
    return text;
}

std::string joinKernelTypes(
    const FusionReport& report, const std::vector<FindingKernel>& kernels, const char* separator)
{
    std::string text;
    for (const FindingKernel& kernel : kernels)
        text += (text.empty() ? "" : separator) + report.typeName(kernel.type);
    return text;
}

// A side that has no kernels of a row has no time, not a time of zero: the app leaves it empty.
CellFunction timeIfAny(std::function<uint64_t(size_t)> count, std::function<double(size_t)> time)
{
    return [count = std::move(count), time = std::move(time)](size_t row) -> CellValue {
        if (count(row) == 0)
            return std::monostate {};
        return time(row);
    };
}

// The app's "B \u2212 A" columns: how many more kernels and how much more time B has than A, signed.
void addDifferenceColumns(ReportTable& table, const std::string& countWord, std::string countToolTip,
    std::string timeToolTip, const std::function<std::array<uint64_t, 2>(size_t)>& count,
    const std::function<std::array<double, 2>(size_t)>& timeUs)
{
    table.columns.push_back({ .key = "count_difference",
        .header = "B \u2212 A " + countWord,
        .toolTip = std::move(countToolTip),
        .unit = Unit::SignedCount,
        .inCsv = false,
        .largestFirst = true,
        .value = [=](size_t row) {
            const std::array<uint64_t, 2> counts = count(row);
            return static_cast<int64_t>(counts[1]) - static_cast<int64_t>(counts[0]);
        } });
    table.columns.push_back({ .key = "time_difference_us",
        .header = "B \u2212 A time",
        .toolTip = std::move(timeToolTip),
        .unit = Unit::SignedMicroseconds,
        .inCsv = false,
        .largestFirst = true,
        .value = [=](size_t row) {
            const std::array<double, 2> times = timeUs(row);
            return times[1] - times[0];
        } });
}

ReportTable tracesTable(const FusionReport& r)
{
    ReportTable table { .id = ReportTableId::Traces, .rows = 2, .columns = {} };
    const auto trace = [&r](size_t row) -> const TraceSummary& { return r.traces[row]; };
    const auto add = [&table](const char* key, CellFunction value) {
        table.columns.push_back({ .key = key, .value = std::move(value) });
    };
    add("trace", [](size_t row) { return std::string(sideKey(row == 0 ? Side::Trace1 : Side::Trace2)); });
    add("label", [=](size_t row) { return trace(row).label; });
    add("name_in_findings", [&r](size_t row) { return r.sideNames[row]; });
    add("path", [=](size_t row) { return trace(row).path; });
    add("platform", [=](size_t row) { return std::string(platformName(trace(row).platform)); });
    add("gpu", [=](size_t row) { return trace(row).gpuName; });
    add("kernels", [=](size_t row) { return trace(row).kernels; });
    add("kernel_time_us", [=](size_t row) { return trace(row).kernelTimeUs; });
    add("distinct_kernel_names", [=](size_t row) { return trace(row).distinctKernelNames; });
    add("kernels_without_correlation", [=](size_t row) { return trace(row).kernelsWithoutCorrelation; });
    add("correlation_groups", [=](size_t row) { return trace(row).correlationGroups; });
    add("large_correlation_groups", [=](size_t row) { return trace(row).largeGroups; });
    add("kernels_in_large_groups", [=](size_t row) { return trace(row).kernelsInLargeGroups; });
    add("matched_groups", [&r](size_t) { return static_cast<uint64_t>(r.groupPairs.size()); });
    add("runtime_calls", [=](size_t row) { return trace(row).runtimeCalls; });
    add("graph_launches", [=](size_t row) { return trace(row).graphLaunches; });
    add("cpu_ops", [=](size_t row) { return trace(row).cpuOps; });
    add("file_bytes", [=](size_t row) { return trace(row).statistics.fileBytes; });
    add("data_bytes", [=](size_t row) { return trace(row).statistics.dataBytes; });
    add("events", [=](size_t row) { return trace(row).statistics.events; });
    add("events_skipped", [=](size_t row) {
        const LoadStatistics& load = trace(row).statistics;
        return load.nonObjectEvents + load.eventsMissingFields;
    });
    add("fields_coerced", [=](size_t row) { return trace(row).statistics.coercedFields; });
    add("fields_ignored", [=](size_t row) { return trace(row).statistics.ignoredFields; });
    return table;
}

ReportTable globalCountsTable(const FusionReport& r)
{
    const auto at = [&r](size_t row) -> const TypeCount& { return r.globalCounts[row]; };
    ReportTable table { .id = ReportTableId::GlobalCounts, .rows = r.globalCounts.size(), .columns = {} };
    table.columns = {
        { .key = "kernel_type",
            .header = "Kernel type",
            .value = [=, &r](size_t row) { return r.typeName(at(row).type); } },
        { .key = "trace1_count",
            .header = "A kernels",
            .toolTip = "Kernels of this type in A (trace1)",
            .unit = Unit::Count,
            .largestFirst = true,
            .value = [=](size_t row) { return at(row).count[0]; } },
        { .key = "trace2_count",
            .header = "B kernels",
            .toolTip = "Kernels of this type in B (trace2)",
            .unit = Unit::Count,
            .largestFirst = true,
            .value = [=](size_t row) { return at(row).count[1]; } },
        { .key = "ratio",
            .header = "A/B",
            .toolTip = "A's kernels divided by B's",
            .unit = Unit::Ratio,
            .largestFirst = true,
            .value = [=](size_t row) { return at(row).ratio(); } },
    };
    for (size_t side = 0; side < 2; ++side) {
        table.columns.push_back({ .key = side == 0 ? "trace1_time_us" : "trace2_time_us",
            .header = side == 0 ? "A time" : "B time",
            .toolTip = side == 0 ? "GPU time of these kernels in A" : "GPU time of these kernels in B",
            .unit = Unit::Microseconds,
            .largestFirst = true,
            .value = [=](size_t row) { return at(row).timeUs[side]; },
            .shown = timeIfAny(
                [=](size_t row) { return at(row).count[side]; }, [=](size_t row) { return at(row).timeUs[side]; }) });
    }
    addDifferenceColumns(
        table, "kernels", "How many more kernels of this type B runs than A (negative: fewer)",
        "How much longer B's kernels of this type take than A's (negative: shorter)",
        [=](size_t row) { return at(row).count; }, [=](size_t row) { return at(row).timeUs; });
    table.kernelType = [=](size_t row) { return std::optional(at(row).type); };
    return table;
}

ReportTable opportunitiesTable(const FusionReport& r)
{
    const auto at = [&r](size_t row) -> const FusionOpportunity& { return r.opportunities[row]; };
    ReportTable table { .id = ReportTableId::FusionOpportunities, .rows = r.opportunities.size(), .columns = {} };
    table.columns = {
        { .key = "kernel_type",
            .header = "Kernel type",
            .value = [=, &r](size_t row) { return r.typeName(at(row).kernelType); } },
        { .key = "trace1_total",
            .header = "A kernels",
            .toolTip = "Kernels of this type in A (trace1)",
            .unit = Unit::Count,
            .largestFirst = true,
            .value = [=](size_t row) { return at(row).total[0]; } },
        { .key = "trace2_total",
            .header = "B kernels",
            .toolTip = "Kernels of this type in B (trace2)",
            .unit = Unit::Count,
            .largestFirst = true,
            .value = [=](size_t row) { return at(row).total[1]; } },
        { .key = "trace1_avg_per_group",
            .header = "A avg/group",
            .toolTip = "Average kernels of this type per matched group in A",
            .unit = Unit::Decimal,
            .largestFirst = true,
            .decimals = 1,
            .value = [=](size_t row) { return at(row).avgPerGroup[0]; } },
        { .key = "trace2_avg_per_group",
            .header = "B avg/group",
            .toolTip = "Average kernels of this type per matched group in B",
            .unit = Unit::Decimal,
            .largestFirst = true,
            .decimals = 1,
            .value = [=](size_t row) { return at(row).avgPerGroup[1]; } },
        { .key = "trace1_time_ms",
            .header = "A time",
            .toolTip = "GPU time of these kernels in A",
            .unit = Unit::Milliseconds,
            .largestFirst = true,
            .value = [=](size_t row) { return at(row).timeMs[0]; } },
        { .key = "trace2_time_ms",
            .header = "B time",
            .toolTip = "GPU time of these kernels in B",
            .unit = Unit::Milliseconds,
            .largestFirst = true,
            .value = [=](size_t row) { return at(row).timeMs[1]; } },
        { .key = "time_ratio",
            .header = "Time A/B",
            .toolTip = "A's time divided by B's",
            .unit = Unit::Ratio,
            .largestFirst = true,
            .value = [=](size_t row) { return at(row).timeRatio; } },
        { .key = "ratio",
            .header = "Ratio",
            .toolTip = "How many times more kernels the unfused side runs",
            .unit = Unit::Ratio,
            .largestFirst = true,
            .decimals = 1,
            .value = [=](size_t row) { return at(row).ratio; } },
        { .key = "fused_by", .value = [=, &r](size_t row) { return r.sideName(at(row).fusedBy); } },
        { .key = "fused_by_trace", .value = [=](size_t row) { return std::string(sideKey(at(row).fusedBy)); } },
        { .key = "fused_by_side",
            .header = "Fused by",
            .toolTip = "The side with fewer kernels of this type (where it runs none, the other side only runs "
                       "the type)",
            .unit = Unit::SideName,
            .inCsv = false,
            .value = [=](size_t row) { return std::string(sideKey(at(row).fusedBy)); },
            .shown =
                [=, &r](size_t row) {
                    return isCollectiveOpportunity(r, at(row))
                        ? std::string(kCollectiveNotFusion)
                        : sideNameShown(at(row).fusedBy, at(row).total[sideIndex(at(row).fusedBy)]);
                } },
        { .key = "groups_affected",
            .header = "Groups affected",
            .toolTip = "Matched group pairs that show the difference",
            .unit = Unit::Count,
            .largestFirst = true,
            .value = [=](size_t row) { return at(row).groupsAffected; } },
        { .key = "total_groups",
            .header = "Total groups",
            .toolTip = "Matched group pairs compared",
            .unit = Unit::Count,
            .value = [=](size_t row) { return at(row).totalGroups; } },
        { .key = "source",
            .header = "Source",
            .toolTip = "Matched correlation groups, or whole-trace counts",
            .value =
                [=](size_t row) {
                    return std::string(
                        at(row).source == OpportunitySource::MatchedGroups ? "matched_groups" : "global_counts");
                },
            .shown =
                [=](size_t row) {
                    return std::string(
                        at(row).source == OpportunitySource::MatchedGroups ? "matched groups" : "global counts");
                } },
        { .key = "impact",
            .header = "Impact (kernels \u00D7 ratio)",
            .toolTip = "The count ratio times the kernels of both sides, a number of kernels weighted by how "
                       "unequal the sides are: the report's order",
            .unit = Unit::Ratio,
            .largestFirst = true,
            .decimals = 0,
            .value = [=](size_t row) { return at(row).impact(); } },
    };
    table.kernelType = [=](size_t row) { return std::optional(at(row).kernelType); };
    return table;
}

const char* mappingKindText(MappingKind kind)
{
    switch (kind) {
    case MappingKind::GroupSequence:
        return "group sequence";
    case MappingKind::PartialFusion:
        return "partial fusion";
    case MappingKind::IntraTypeChain:
        return "chain of one type";
    case MappingKind::GlobalSequence:
        return "global sequence";
    }
    return "";
}

ReportTable mappingsTable(const FusionReport& r)
{
    const auto at = [&r](size_t row) -> const FusionMapping& { return r.mappings[row]; };
    // Both correlation ids or neither (group sequences have both).
    const auto group = [=](size_t row, size_t side) -> CellValue {
        const FusionMapping& mapping = at(row);
        if (!mapping.correlationGroup1 || !mapping.correlationGroup2)
            return std::monostate {};
        return side == 0 ? *mapping.correlationGroup1 : *mapping.correlationGroup2;
    };
    const auto groupOrLess = [=](size_t row, size_t side) -> CellValue {
        const CellValue id = group(row, side);
        return std::holds_alternative<int64_t>(id) ? id : CellValue(int64_t(-1));
    };
    ReportTable table { .id = ReportTableId::FusionMappings, .rows = r.mappings.size(), .columns = {} };
    table.columns = {
        { .key = "kind",
            .header = "Kind",
            .toolTip = "Which analysis found the mapping",
            .value = [=](size_t row) { return std::string(mappingKindKey(at(row).kind)); },
            .shown = [=](size_t row) { return std::string(mappingKindText(at(row).kind)); } },
        { .key = "fused_trace", .value = [=](size_t row) { return std::string(sideKey(at(row).fusedSide)); } },
        { .key = "fused_platform", .value = [=, &r](size_t row) { return r.sideName(at(row).fusedSide); } },
        { .key = "fused_side",
            .header = "Fused side",
            .toolTip = "The side that runs one kernel where the other runs several",
            .unit = Unit::SideName,
            .inCsv = false,
            .value = [=](size_t row) { return std::string(sideKey(at(row).fusedSide)); } },
        { .key = "fused_kernel_type",
            .header = "Fused type",
            .value = [=, &r](size_t row) { return r.typeName(at(row).fusedKernelType); } },
        { .key = "fused_count",
            .header = "Fused count",
            .toolTip = "Kernels of the fused type on the fused side",
            .unit = Unit::Count,
            .largestFirst = true,
            .value = [=](size_t row) { return at(row).fusedCount; } },
        { .key = "unfused_trace", .value = [=](size_t row) { return std::string(sideKey(at(row).unfusedSide())); } },
        { .key = "unfused_platform", .value = [=, &r](size_t row) { return r.sideName(at(row).unfusedSide()); } },
        { .key = "unfused_side",
            .header = "Unfused side",
            .unit = Unit::SideName,
            .inCsv = false,
            .value = [=](size_t row) { return std::string(sideKey(at(row).unfusedSide())); } },
        { .key = "unfused_sequence",
            .header = "Unfused sequence",
            .toolTip = "The kernel types the unfused side runs instead",
            .value = [=, &r](size_t row) { return joinTypes(r, at(row).unfusedSequence, "+"); },
            .shown = [=, &r](size_t row) { return joinTypes(r, at(row).unfusedSequence, " + "); } },
        { .key = "unfused_count_per_type",
            .header = "Unfused kernels per type",
            .value =
                [=, &r](size_t row) {
                    std::string text;
                    for (const auto& [type, count] : at(row).unfusedCountPerType)
                        text += (text.empty() ? "" : ";") + r.typeName(type) + "=" + std::to_string(count);
                    return text;
                },
            .shown =
                [=, &r](size_t row) {
                    std::string text;
                    for (const auto& [type, count] : at(row).unfusedCountPerType)
                        text += (text.empty() ? "" : ", ") + r.typeName(type) + " "
                            + withThousands(static_cast<int64_t>(count));
                    return text;
                } },
        { .key = "pattern_count",
            .header = "Pattern count",
            .toolTip = "How often the pattern occurs",
            .unit = Unit::Integer,
            .largestFirst = true,
            .value = [=](size_t row) { return at(row).patternCount; } },
        { .key = "pattern_confidence",
            .header = "Confidence",
            .toolTip = "Share of the pattern's occurrences that fit",
            .unit = Unit::Decimal,
            .largestFirst = true,
            .decimals = 2,
            .value = [=](size_t row) { return at(row).patternConfidence; } },
        { .key = "evidence",
            .header = "Evidence",
            .toolTip = "What the analysis found, in the report's words",
            .value = [=](size_t row) { return at(row).evidence; } },
        { .key = "correlation_group_trace1",
            .header = "Group A",
            .toolTip = "Correlation id of the matched group in A (group sequences)",
            .unit = Unit::Identifier,
            .value = [=](size_t row) { return group(row, 0); },
            .sortKey = [=](size_t row) { return groupOrLess(row, 0); } },
        { .key = "correlation_group_trace2",
            .header = "Group B",
            .toolTip = "Correlation id of the matched group in B (group sequences)",
            .unit = Unit::Identifier,
            .value = [=](size_t row) { return group(row, 1); },
            .sortKey = [=](size_t row) { return groupOrLess(row, 1); } },
    };
    table.kernelType = [=](size_t row) { return std::optional(at(row).fusedKernelType); };
    return table;
}

// The four spread columns of the CSV for one side ("trace1_median_us", ...), then its total.
void addSpreadColumns(ReportTable& table, size_t side, const std::function<const Spread&(size_t)>& spread,
    std::string totalHeader, std::string totalToolTip)
{
    const std::string prefix = side == 0 ? "trace1_" : "trace2_";
    table.columns.push_back({ .key = prefix + "median_us", .value = [=](size_t row) { return spread(row).median; } });
    table.columns.push_back({ .key = prefix + "q1_us", .value = [=](size_t row) { return spread(row).q1; } });
    table.columns.push_back({ .key = prefix + "q3_us", .value = [=](size_t row) { return spread(row).q3; } });
    table.columns.push_back({ .key = prefix + "total_us",
        .header = std::move(totalHeader),
        .toolTip = std::move(totalToolTip),
        .unit = Unit::Microseconds,
        .inCsv = true,
        .largestFirst = true,
        .value = [=](size_t row) { return spread(row).total; } });
}

// "A time/call (IQR)": the app's one column for a side's spread.
TableColumn spreadColumn(size_t side, const std::function<const Spread&(size_t)>& spread)
{
    return { .key = side == 0 ? "trace1_time_per_call" : "trace2_time_per_call",
        .header = side == 0 ? "A time/call (IQR)" : "B time/call (IQR)",
        .toolTip = side == 0 ? "A's GPU time per call: median (first to third quartile)"
                             : "B's GPU time per call: median (first to third quartile)",
        .unit = Unit::Spread,
        .inCsv = false,
        .largestFirst = true,
        .value = [=](size_t row) { return spread(row); } };
}

ReportTable opFindingsTable(const FusionReport& r)
{
    const auto at = [&r](size_t row) -> const OpFinding& { return r.opFindings[row]; };
    ReportTable table { .id = ReportTableId::OpFindings, .rows = r.opFindings.size(), .columns = {} };
    table.columns = {
        { .key = "op",
            .header = "Operation",
            .toolTip = "The operator, module or graph launch that runs different kernels",
            .value = [=](size_t row) { return at(row).op; } },
        { .key = "fused_trace", .value = [=](size_t row) { return std::string(sideKey(at(row).fusedSide)); } },
        { .key = "fused_by", .value = [=, &r](size_t row) { return r.sideName(at(row).fusedSide); } },
        { .key = "fused_by_side",
            .header = "Fused by",
            .toolTip = "The side that runs fewer kernels (where it runs none, the other side only runs the "
                       "operation's kernels)",
            .unit = Unit::SideName,
            .inCsv = false,
            .value = [=](size_t row) { return std::string(sideKey(at(row).fusedSide)); },
            .shown =
                [=](size_t row) {
                    return sideNameShown(at(row).fusedSide, at(row).kernels[sideIndex(at(row).fusedSide)].size());
                } },
        { .key = "occurrences",
            .header = "Calls",
            .toolTip = "Calls (occurrences) of the operation that show this pattern",
            .unit = Unit::Count,
            .largestFirst = true,
            .value = [=](size_t row) { return at(row).occurrences; } },
        { .key = "launch_difference",
            .header = "Extra/call",
            .toolTip = "Launch difference: kernels per call the unfused side launches beyond the fused side's",
            .unit = Unit::Integer,
            .largestFirst = true,
            .value = [=](size_t row) { return at(row).launchDifference; } },
        { .key = "extra_launches",
            .value = [=](size_t row) { return at(row).launchDifference * int64_t(at(row).occurrences); } },
    };
    for (size_t side = 0; side < 2; ++side) {
        table.columns.push_back({ .key = side == 0 ? "trace1_kernel_count" : "trace2_kernel_count",
            .header = side == 0 ? "A kernels" : "B kernels",
            .toolTip = side == 0 ? "Kernels A (trace1) runs per call" : "Kernels B (trace2) runs per call",
            .unit = Unit::Count,
            .largestFirst = true,
            .value = [=](size_t row) { return uint64_t(at(row).kernels[side].size()); },
            .detail = [=, &r](size_t row) { return joinKernelTypes(r, at(row).kernels[side], ", "); } });
    }
    for (size_t side = 0; side < 2; ++side) {
        table.columns.push_back({ .key = side == 0 ? "trace1_types" : "trace2_types",
            .value = [=, &r](size_t row) { return joinKernelTypes(r, at(row).kernels[side], "+"); } });
    }
    for (size_t side = 0; side < 2; ++side) {
        const auto spread = [=](size_t row) -> const Spread& { return at(row).timeUs[side]; };
        addSpreadColumns(table, side, spread, {}, {});
    }
    for (size_t side = 0; side < 2; ++side)
        table.columns.push_back(spreadColumn(side, [=](size_t row) -> const Spread& { return at(row).timeUs[side]; }));
    table.columns.push_back(
        { .key = "slower_trace", .value = [=](size_t row) { return std::string(sideKey(at(row).slowerSide)); } });
    table.columns.push_back({ .key = "saving_us",
        .header = "Could save",
        .toolTip = "Over the calls: how much longer the slower side takes (its time minus the other side's)",
        .unit = Unit::Microseconds,
        .largestFirst = true,
        .value = [=](size_t row) { return at(row).savingUs; } });
    table.columns.push_back(
        { .key = "saving_extra_kernels_us", .value = [=](size_t row) { return at(row).savingExtraKernelsUs; } });
    table.columns.push_back({ .key = "saving_speed_us", .value = [=](size_t row) { return at(row).savingSpeedUs; } });
    table.columns.push_back({ .key = "significant",
        .value = [=](size_t row) { return std::string(at(row).significant ? "true" : "false"); } });
    table.columns.push_back({ .key = "summary", .header = "Summary", .unit = Unit::SideText, .value = [=](size_t row) {
                                 return at(row).summary;
                             } });
    table.columns.push_back({ .key = "explanation", .value = [=](size_t row) {
                                 std::string explanation;
                                 for (const ExtraRun& run : at(row).extraRuns)
                                     explanation += (explanation.empty() ? "" : " | ") + run.explanation
                                         + (run.repeats > 1 ? " (x" + std::to_string(run.repeats) + ")" : "");
                                 return explanation;
                             } });
    table.columns.push_back({ .key = "stack", .value = [=](size_t row) {
                                 std::string stack;
                                 for (const std::string& frame : at(row).stack)
                                     stack += (stack.empty() ? "" : " > ") + frame;
                                 return stack;
                             } });
    for (size_t side = 0; side < 2; ++side) {
        table.columns.push_back({ .key = side == 0 ? "trace1_op" : "trace2_op",
            .value = [=](size_t row) { return at(row).sideOps[side]; } });
    }
    for (size_t side = 0; side < 2; ++side) {
        table.columns.push_back({ .key = side == 0 ? "trace1_stack" : "trace2_stack", .value = [=](size_t row) {
                                     std::string stack;
                                     for (const std::string& frame : at(row).sideStacks[side])
                                         stack += (stack.empty() ? "" : " > ") + frame;
                                     return stack;
                                 } });
    }
    table.columns.push_back({ .key = "aligned_on", .value = [=](size_t row) { return at(row).alignedOn; } });
    table.columns.push_back({ .key = "layers",
        .header = "Layers",
        .toolTip = "The layers its calls are in, by index in the step (when the traces were aligned layer by layer)",
        .value = [=](size_t row) { return at(row).layers; } });
    // Appended: a block one side repeats more times (ops/comparison/repeatedblocks.h).
    table.columns.push_back({ .key = "saving_work_us", .value = [=](size_t row) { return at(row).savingWorkUs; } });
    for (size_t side = 0; side < 2; ++side)
        table.columns.push_back({ .key = std::string(side == 0 ? "trace1" : "trace2") + "_block_copies",
            .value = [=](size_t row) { return uint64_t(at(row).blockCopies[side]); } });
    // Appended: its communication kernels, left out of the comparison (ops/comparison/collectivepart.h).
    for (size_t side = 0; side < 2; ++side)
        table.columns.push_back({ .key = std::string(side == 0 ? "trace1" : "trace2") + "_collective_us",
            .value = [=](size_t row) { return at(row).collectiveUs[side]; } });
    return table;
}

// A's total time over B's: infinite when only A has time, undefined (NaN) when neither has any.
double timeRatio(const OpSummary& summary)
{
    const double a = summary.timeUs[0].total;
    const double b = summary.timeUs[1].total;
    if (b > 0)
        return a / b;
    return a > 0 ? std::numeric_limits<double>::infinity() : std::numeric_limits<double>::quiet_NaN();
}

ReportTable opSummaryTable(const FusionReport& r)
{
    const auto at = [&r](size_t row) -> const OpSummary& { return r.opSummary[row]; };
    ReportTable table { .id = ReportTableId::OpSummary, .rows = r.opSummary.size(), .columns = {} };
    table.columns = {
        { .key = "op", .header = "Operation", .value = [=](size_t row) { return at(row).op; } },
        { .key = "occurrences",
            .header = "Calls compared",
            .toolTip = "Matched pairs of calls",
            .unit = Unit::Count,
            .largestFirst = true,
            .value = [=](size_t row) { return at(row).occurrences; } },
        { .key = "differing",
            .header = "Calls differing",
            .toolTip = "Matched pairs whose kernel counts differ",
            .unit = Unit::Count,
            .largestFirst = true,
            .value = [=](size_t row) { return at(row).differing; } },
        { .key = "trace1_kernels",
            .header = "A kernels",
            .toolTip = "Kernels of these calls in A (trace1)",
            .unit = Unit::Count,
            .largestFirst = true,
            .value = [=](size_t row) { return at(row).kernels[0]; } },
        { .key = "trace2_kernels",
            .header = "B kernels",
            .toolTip = "Kernels of these calls in B (trace2)",
            .unit = Unit::Count,
            .largestFirst = true,
            .value = [=](size_t row) { return at(row).kernels[1]; } },
    };
    addSpreadColumns(
        table, 0, [=](size_t row) -> const Spread& { return at(row).timeUs[0]; }, "A time",
        "GPU time of these calls in A");
    addSpreadColumns(
        table, 1, [=](size_t row) -> const Spread& { return at(row).timeUs[1]; }, "B time",
        "GPU time of these calls in B");
    // Sorted by what it adds to the gap: the operations that make the slower side slower first,
    // those that work the other way last.
    const double gapSign = r.timeGap.kernelTime.timeUs[1] >= r.timeGap.kernelTime.timeUs[0] ? 1.0 : -1.0;
    table.columns.push_back({ .key = "delta_time_us",
        .header = "B \u2212 A time",
        .toolTip = "How much longer these calls take in B than in A (negative: shorter). Sorted, the operations "
                   "that add most to the slower side's time come first, those that work the other way last",
        .unit = Unit::SignedMicroseconds,
        .largestFirst = true,
        .value = [=](size_t row) { return at(row).timeUs[1].total - at(row).timeUs[0].total; },
        .sortKey = [=](size_t row) { return gapSign * (at(row).timeUs[1].total - at(row).timeUs[0].total); } });
    table.columns.push_back({ .key = "time_ratio",
        .header = "Time A/B",
        .toolTip = "A's time divided by B's",
        .unit = Unit::Ratio,
        .inCsv = false,
        .largestFirst = true,
        .value = [=](size_t row) { return timeRatio(at(row)); },
        // Neither side has time: below every ratio.
        .sortKey =
            [=](size_t row) {
                const double ratio = timeRatio(at(row));
                return std::isnan(ratio) ? -1.0 : ratio;
            } });
    for (size_t side = 0; side < 2; ++side)
        table.columns.push_back(spreadColumn(side, [=](size_t row) -> const Spread& { return at(row).timeUs[side]; }));
    table.columns.push_back({ .key = "saving_us",
        .header = "Could save",
        .toolTip = "Summed over the operation's findings: how much longer each finding's slower side takes",
        .unit = Unit::Microseconds,
        .largestFirst = true,
        .value = [=](size_t row) { return at(row).savingUs; } });
    return table;
}

ReportTable extraKernelsTable(const FusionReport& r)
{
    const auto at = [&r](size_t row) -> const ExtraKernels& { return r.extraKernels[row]; };
    ReportTable table { .id = ReportTableId::ExtraKernels, .rows = r.extraKernels.size(), .columns = {} };
    table.columns = {
        { .key = "kernel_type",
            .header = "Kernel type",
            .value = [=, &r](size_t row) { return r.typeName(at(row).type); } },
        { .key = "trace1_kernels",
            .header = "A kernels",
            .toolTip = "Kernels of this type A (trace1) runs where B has none",
            .unit = Unit::Count,
            .largestFirst = true,
            .value = [=](size_t row) { return at(row).kernels[0]; } },
        { .key = "trace2_kernels",
            .header = "B kernels",
            .toolTip = "Kernels of this type B (trace2) runs where A has none",
            .unit = Unit::Count,
            .largestFirst = true,
            .value = [=](size_t row) { return at(row).kernels[1]; } },
        { .key = "trace1_time_us",
            .header = "A time",
            .toolTip = "GPU time of A's extra kernels of this type",
            .unit = Unit::Microseconds,
            .largestFirst = true,
            .value = [=](size_t row) { return at(row).timeUs[0]; } },
        { .key = "trace2_time_us",
            .header = "B time",
            .toolTip = "GPU time of B's extra kernels of this type",
            .unit = Unit::Microseconds,
            .largestFirst = true,
            .value = [=](size_t row) { return at(row).timeUs[1]; } },
    };
    table.kernelType = [=](size_t row) { return std::optional(at(row).type); };
    return table;
}

ReportTable collectivesTable(const FusionReport& r)
{
    const auto at = [&r](size_t row) -> const CollectiveComparison& { return r.collectives[row]; };
    ReportTable table { .id = ReportTableId::Collectives, .rows = r.collectives.size(), .columns = {} };
    table.columns = {
        { .key = "collective", .header = "Collective", .value = [=](size_t row) { return at(row).collective; } },
        { .key = "trace1_count",
            .header = "A count",
            .toolTip = "Communication kernels (launches) of this collective in A (trace1)",
            .unit = Unit::Count,
            .largestFirst = true,
            .value = [=](size_t row) { return at(row).count[0]; } },
        { .key = "trace2_count",
            .header = "B count",
            .toolTip = "Communication kernels (launches) of this collective in B (trace2)",
            .unit = Unit::Count,
            .largestFirst = true,
            .value = [=](size_t row) { return at(row).count[1]; } },
    };
    for (size_t side = 0; side < 2; ++side) {
        table.columns.push_back({ .key = side == 0 ? "trace1_time_us" : "trace2_time_us",
            .header = side == 0 ? "A time" : "B time",
            .toolTip = side == 0 ? "Their GPU time in A" : "Their GPU time in B",
            .unit = Unit::Microseconds,
            .largestFirst = true,
            .value = [=](size_t row) { return at(row).timeUs[side]; },
            .shown = timeIfAny(
                [=](size_t row) { return at(row).count[side]; }, [=](size_t row) { return at(row).timeUs[side]; }) });
    }
    table.columns.push_back({ .key = "trace1_implementation",
        .header = "A implementation",
        .toolTip = "What implements the collective in A (NCCL, RCCL, a custom kernel)",
        .value = [=](size_t row) { return at(row).implementation[0]; } });
    table.columns.push_back({ .key = "trace2_implementation",
        .header = "B implementation",
        .toolTip = "What implements the collective in B",
        .value = [=](size_t row) { return at(row).implementation[1]; } });
    return table;
}

ReportTable matchedGroupsTable(const FusionReport& r)
{
    const auto group = [&r](size_t row, size_t side) -> const LargeGroup& {
        const GroupPair& pair = r.groupPairs[row];
        return r.largeGroups[side][side == 0 ? pair.group1 : pair.group2];
    };
    ReportTable table { .id = ReportTableId::MatchedGroups, .rows = r.groupPairs.size(), .columns = {} };
    table.columns = {
        { .key = "pair",
            .header = "Pair",
            .toolTip = "Position in the matching order",
            .unit = Unit::Identifier,
            .inCsv = false,
            .value = [](size_t row) { return static_cast<int64_t>(row + 1); } },
        { .key = "trace1_correlation",
            .header = "A correlation",
            .toolTip = "Correlation id of the group in A (trace1)",
            .unit = Unit::Identifier,
            .value = [=](size_t row) { return group(row, 0).correlation; } },
        { .key = "trace2_correlation",
            .header = "B correlation",
            .toolTip = "Correlation id of the group in B (trace2)",
            .unit = Unit::Identifier,
            .value = [=](size_t row) { return group(row, 1).correlation; } },
        { .key = "trace1_size",
            .header = "A kernels",
            .unit = Unit::Count,
            .largestFirst = true,
            .value = [=](size_t row) { return uint64_t(group(row, 0).size); } },
        { .key = "trace2_size",
            .header = "B kernels",
            .unit = Unit::Count,
            .largestFirst = true,
            .value = [=](size_t row) { return uint64_t(group(row, 1).size); } },
        { .key = "shared_types",
            .header = "Shared types",
            .toolTip = "Kernel types both groups contain",
            .unit = Unit::Count,
            .largestFirst = true,
            .value = [&r](size_t row) { return uint64_t(r.groupPairs[row].sharedTypes); } },
        { .key = "score",
            .header = "Score",
            .toolTip = "|size difference| - 10 x shared types: the matching score (lower is better)",
            .unit = Unit::Identifier,
            .value = [&r](size_t row) { return r.groupPairs[row].score; } },
        { .key = "trace1_time_us",
            .header = "A time",
            .toolTip = "GPU time of the group in A",
            .unit = Unit::Microseconds,
            .largestFirst = true,
            .value = [=](size_t row) { return group(row, 0).timeUs; } },
        { .key = "trace2_time_us",
            .header = "B time",
            .toolTip = "GPU time of the group in B",
            .unit = Unit::Microseconds,
            .largestFirst = true,
            .value = [=](size_t row) { return group(row, 1).timeUs; } },
    };
    for (size_t type = 0; type < r.classifier.categories.size(); ++type) {
        for (size_t side = 0; side < 2; ++side) {
            table.columns.push_back({ .key = (side == 0 ? "trace1_" : "trace2_") + r.classifier.categories[type],
                .value = [=](size_t row) { return uint64_t(group(row, side).typeCounts[type]); } });
        }
    }
    table.columns.push_back({ .key = "trace1_composition",
        .header = "A composition",
        .toolTip = "Kernels per type in A's group",
        .inCsv = false,
        .value = [=, &r](size_t row) { return compositionText(r, group(row, 0)); } });
    table.columns.push_back({ .key = "trace2_composition",
        .header = "B composition",
        .toolTip = "Kernels per type in B's group",
        .inCsv = false,
        .value = [=, &r](size_t row) { return compositionText(r, group(row, 1)); } });
    return table;
}

ReportTable kernelsTable(const FusionReport& r)
{
    const auto at = [&r](size_t row) -> const KernelNameRow& { return r.kernels[row]; };
    ReportTable table { .id = ReportTableId::Kernels, .rows = r.kernels.size(), .columns = {} };
    table.columns = {
        { .key = "name",
            .header = "Kernel name",
            .unit = Unit::KernelName,
            .value = [=](size_t row) { return at(row).name; } },
        { .key = "type",
            .header = "Type",
            .toolTip = "Kernel type given by the classifier",
            .value = [=, &r](size_t row) { return r.typeName(at(row).type); } },
        { .key = "trace1_count",
            .header = "A count",
            .toolTip = "Launches in A (trace1)",
            .unit = Unit::Count,
            .largestFirst = true,
            .value = [=](size_t row) { return at(row).count[0]; } },
        { .key = "trace2_count",
            .header = "B count",
            .toolTip = "Launches in B (trace2)",
            .unit = Unit::Count,
            .largestFirst = true,
            .value = [=](size_t row) { return at(row).count[1]; } },
    };
    for (size_t side = 0; side < 2; ++side) {
        table.columns.push_back({ .key = side == 0 ? "trace1_time_us" : "trace2_time_us",
            .header = side == 0 ? "A total" : "B total",
            .toolTip = side == 0 ? "Total GPU time in A" : "Total GPU time in B",
            .unit = Unit::Microseconds,
            .largestFirst = true,
            .value = [=](size_t row) { return at(row).timeUs[side]; },
            .shown = timeIfAny(
                [=](size_t row) { return at(row).count[side]; }, [=](size_t row) { return at(row).timeUs[side]; }) });
    }
    for (size_t side = 0; side < 2; ++side) {
        // The average of a side that ran the kernel; none (below every average) for a side that did not.
        const auto average = [=](size_t row) -> CellValue {
            const KernelNameRow& kernel = at(row);
            if (kernel.count[side] == 0)
                return std::monostate {};
            return kernel.timeUs[side] / static_cast<double>(kernel.count[side]);
        };
        table.columns.push_back({ .key = side == 0 ? "trace1_average_us" : "trace2_average_us",
            .header = side == 0 ? "A average" : "B average",
            .toolTip = side == 0 ? "Average duration of one launch in A" : "Average duration of one launch in B",
            .unit = Unit::Microseconds,
            .inCsv = false,
            .largestFirst = true,
            .value = average,
            .sortKey = [=](size_t row) {
                const CellValue value = average(row);
                return std::holds_alternative<double>(value) ? value : CellValue(-1.0);
            } });
    }
    addDifferenceColumns(
        table, "count", "How many more launches B makes than A (negative: fewer)",
        "How much longer B spends in this kernel than A (negative: less)", [=](size_t row) { return at(row).count; },
        [=](size_t row) { return at(row).timeUs; });
    table.kernelType = [=](size_t row) { return std::optional(at(row).type); };
    return table;
}

ReportTable layerTimesTable(const FusionReport& r)
{
    const auto at = [&r](size_t row) -> const LayerTimes& { return r.layerTimes[row]; };
    ReportTable table { .id = ReportTableId::LayerTimes, .rows = r.layerTimes.size(), .columns = {} };
    table.columns.push_back({ .key = "layer",
        .header = "Layer",
        .toolTip = "The layer's index in the step, from 0 (the i-th call of the repeating block)",
        .unit = Unit::Count,
        .value = [=](size_t row) { return uint64_t(at(row).index); } });
    for (size_t side = 0; side < 2; ++side) {
        table.columns.push_back({ .key = side == 0 ? "trace1_calls" : "trace2_calls",
            .header = side == 0 ? "A calls" : "B calls",
            .toolTip = "Calls of the layer over the compared steps",
            .unit = Unit::Count,
            .value = [=](size_t row) { return at(row).calls[side]; } });
    }
    for (size_t side = 0; side < 2; ++side) {
        table.columns.push_back({ .key = side == 0 ? "trace1_kernels" : "trace2_kernels",
            .header = side == 0 ? "A kernels" : "B kernels",
            .toolTip = "Kernels the layer's operations launched, over its calls",
            .unit = Unit::Count,
            .largestFirst = true,
            .value = [=](size_t row) { return at(row).kernels[side]; } });
    }
    for (size_t side = 0; side < 2; ++side) {
        table.columns.push_back({ .key = side == 0 ? "trace1_time_us" : "trace2_time_us",
            .header = side == 0 ? "A time" : "B time",
            .toolTip = "GPU time of those kernels, over the layer's calls",
            .unit = Unit::Microseconds,
            .largestFirst = true,
            .value = [=](size_t row) { return at(row).timeUs[side]; } });
    }
    table.columns.push_back({ .key = "delta_time_us",
        .header = "B \u2212 A time",
        .toolTip = "How much longer B's layer takes than A's (negative: shorter)",
        .unit = Unit::SignedMicroseconds,
        .largestFirst = true,
        .value = [=](size_t row) { return at(row).differenceUs(); } });
    table.columns.push_back({ .key = "phase",
        .header = "Phase",
        .toolTip = "The compared phase the layer's calls ran in, as the step-time table names it: a prefill "
                   "step's layers and a decode step's are compared apart",
        .value = [=](size_t row) { return at(row).phase; } });
    return table;
}

ReportTable matchedKernelsTable(const FusionReport& r)
{
    const auto at = [&r](size_t row) -> const MatchedKernels& { return r.matchedKernels[row]; };
    ReportTable table { .id = ReportTableId::MatchedKernels, .rows = r.matchedKernels.size(), .columns = {} };
    for (size_t side = 0; side < 2; ++side) {
        table.columns.push_back({ .key = side == 0 ? "trace1_kernel" : "trace2_kernel",
            .header = side == 0 ? "A kernel" : "B kernel",
            .toolTip = side == 0 ? "A's kernel, as A's trace names it" : "B's kernel, as B's trace names it",
            .unit = Unit::KernelName,
            .value = [=](size_t row) { return at(row).names[side]; } });
    }
    table.columns.push_back({ .key = "type",
        .header = "Type",
        .toolTip = "Kernel type given by the classifier (both kernels are of it)",
        .value = [=, &r](size_t row) { return r.typeName(at(row).types[0]); } });
    table.columns.push_back({ .key = "pairs",
        .header = "Pairs",
        .toolTip = "How many of A's kernels were paired with one of B's under these two names",
        .unit = Unit::Count,
        .largestFirst = true,
        .value = [=](size_t row) { return at(row).pairs; } });
    for (size_t side = 0; side < 2; ++side) {
        table.columns.push_back({ .key = side == 0 ? "trace1_time_us" : "trace2_time_us",
            .header = side == 0 ? "A total" : "B total",
            .toolTip = side == 0 ? "A's time in these pairs" : "B's time in these pairs",
            .unit = Unit::Microseconds,
            .largestFirst = true,
            .value = [=](size_t row) { return at(row).timeUs[side]; } });
        table.columns.push_back({ .key = side == 0 ? "trace1_mean_us" : "trace2_mean_us",
            .header = side == 0 ? "A mean" : "B mean",
            .toolTip = side == 0 ? "A's mean time per pair" : "B's mean time per pair",
            .unit = Unit::Microseconds,
            .largestFirst = true,
            .value = [=](size_t row) { return at(row).timeUs[side] / static_cast<double>(at(row).pairs); } });
    }
    table.columns.push_back({ .key = "delta_time_us",
        .header = "B \u2212 A time",
        .toolTip = "How much longer B's kernels take than A's over the pairs (negative: shorter)",
        .unit = Unit::SignedMicroseconds,
        .largestFirst = true,
        .value = [=](size_t row) { return at(row).differenceUs(); } });
    table.kernelType = [=](size_t row) { return std::optional(at(row).types[0]); };
    return table;
}

} // namespace

const char* reportTableName(ReportTableId table)
{
    switch (table) {
    case ReportTableId::Traces:
        return "traces";
    case ReportTableId::GlobalCounts:
        return "global_counts";
    case ReportTableId::FusionOpportunities:
        return "fusion_opportunities";
    case ReportTableId::FusionMappings:
        return "fusion_mappings";
    case ReportTableId::OpFindings:
        return "op_findings";
    case ReportTableId::OpSummary:
        return "op_summary";
    case ReportTableId::ExtraKernels:
        return "extra_kernels";
    case ReportTableId::Collectives:
        return "collectives";
    case ReportTableId::MatchedGroups:
        return "matched_groups";
    case ReportTableId::GraphKinds:
        return "graph_kinds";
    case ReportTableId::GraphPairs:
        return "graph_pairs";
    case ReportTableId::GraphCoverage:
        return "graph_coverage";
    case ReportTableId::Kernels:
        return "kernels";
    case ReportTableId::MatchedKernels:
        return "matched_kernels";
    case ReportTableId::TimeGap:
        return "time_gap";
    case ReportTableId::WhereToLookFirst:
        return "where_to_look_first";
    case ReportTableId::CollectiveCalls:
        return "collective_calls";
    case ReportTableId::LayerTimes:
        return "layer_times";
    case ReportTableId::StepTimes:
        return "step_times";
    case ReportTableId::HostTime:
        return "host_time";
    case ReportTableId::JobSteps:
        return "job_steps";
    case ReportTableId::RankTimes:
        return "rank_times";
    case ReportTableId::RankCollectives:
        return "rank_collectives";
    case ReportTableId::Efficiency:
        return "efficiency";
    }
    return "";
}

std::string compositionText(const FusionReport& report, const LargeGroup& group)
{
    std::string text;
    for (size_t type = 0; type < group.typeCounts.size(); ++type) {
        if (group.typeCounts[type] > 0) {
            text += (text.empty() ? "" : ", ") + report.typeName(static_cast<CategoryId>(type)) + " "
                + withThousands(group.typeCounts[type]);
        }
    }
    return text;
}

int ReportTable::columnIndex(const std::string& key) const
{
    for (size_t column = 0; column < columns.size(); ++column) {
        if (columns[column].key == key)
            return static_cast<int>(column);
    }
    return -1;
}

ReportTable reportTable(ReportTableId table, const FusionReport& report)
{
    switch (table) {
    case ReportTableId::Traces:
        return tracesTable(report);
    case ReportTableId::GlobalCounts:
        return globalCountsTable(report);
    case ReportTableId::FusionOpportunities:
        return opportunitiesTable(report);
    case ReportTableId::FusionMappings:
        return mappingsTable(report);
    case ReportTableId::OpFindings:
        return opFindingsTable(report);
    case ReportTableId::OpSummary:
        return opSummaryTable(report);
    case ReportTableId::ExtraKernels:
        return extraKernelsTable(report);
    case ReportTableId::Collectives:
        return collectivesTable(report);
    case ReportTableId::MatchedGroups:
        return matchedGroupsTable(report);
    case ReportTableId::GraphKinds:
        return graphKindsTable(report);
    case ReportTableId::GraphPairs:
        return graphPairsTable(report);
    case ReportTableId::GraphCoverage:
        return graphCoverageTable(report);
    case ReportTableId::Kernels:
        return kernelsTable(report);
    case ReportTableId::MatchedKernels:
        return matchedKernelsTable(report);
    case ReportTableId::TimeGap:
        return timeGapTable(report);
    case ReportTableId::WhereToLookFirst:
        return whereToLookFirstTable(report);
    case ReportTableId::CollectiveCalls:
        return collectiveCallsTable(report);
    case ReportTableId::LayerTimes:
        return layerTimesTable(report);
    case ReportTableId::StepTimes:
        return stepTimesTable(report);
    case ReportTableId::HostTime:
        return hostTimeTable(report);
    case ReportTableId::JobSteps:
        return jobStepsTable(report);
    case ReportTableId::RankTimes:
        return rankTimesTable(report);
    case ReportTableId::RankCollectives:
        return rankCollectivesTable(report);
    case ReportTableId::Efficiency:
        return efficiencyTable(report);
    }
    return {};
}

} // namespace fusiondiff
