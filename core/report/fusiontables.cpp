#include "report/fusiontables.h"

#include "model/fusionreport.h"
#include "report/collectiveopportunity.h"
#include "report/tablecolumns.h"
#include "util/textformat.h"

namespace fusiondiff {

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

namespace {

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

} // namespace

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

} // namespace fusiondiff
