#include "model/fusionreport.h"
#include "report/csvwriter.h"
#include "report/graphtables.h"
#include "report/reporttimegap.h"
#include "report/reportwriters.h"

namespace fusiondiff {

namespace {

std::string joinTypes(const FusionReport& report, const std::vector<CategoryId>& types)
{
    std::string text;
    for (const CategoryId type : types)
        text += (text.empty() ? "" : "+") + report.typeName(type);
    return text;
}

std::string joinCounts(const FusionReport& report, const std::vector<std::pair<CategoryId, uint64_t>>& counts)
{
    std::string text;
    for (const auto& [type, count] : counts)
        text += (text.empty() ? "" : ";") + report.typeName(type) + "=" + std::to_string(count);
    return text;
}

std::string tracesTable(const FusionReport& report)
{
    CsvWriter csv;
    for (const char* column : { "trace", "label", "name_in_findings", "path", "platform", "gpu", "kernels",
             "kernel_time_us", "distinct_kernel_names", "kernels_without_correlation", "correlation_groups",
             "large_correlation_groups", "kernels_in_large_groups", "matched_groups", "runtime_calls", "graph_launches",
             "cpu_ops", "file_bytes", "data_bytes", "events", "events_skipped", "fields_coerced", "fields_ignored" })
        csv.field(column);
    csv.endRecord();
    for (const Side side : { Side::Trace1, Side::Trace2 }) {
        const TraceSummary& trace = report.traces[sideIndex(side)];
        const LoadStatistics& load = trace.statistics;
        csv.field(sideKey(side))
            .field(trace.label)
            .field(report.sideName(side))
            .field(trace.path)
            .field(platformName(trace.platform))
            .field(trace.gpuName)
            .field(trace.kernels)
            .field(trace.kernelTimeUs)
            .field(trace.distinctKernelNames)
            .field(trace.kernelsWithoutCorrelation)
            .field(trace.correlationGroups)
            .field(trace.largeGroups)
            .field(trace.kernelsInLargeGroups)
            .field(static_cast<uint64_t>(report.groupPairs.size()))
            .field(trace.runtimeCalls)
            .field(trace.graphLaunches)
            .field(trace.cpuOps)
            .field(load.fileBytes)
            .field(load.dataBytes)
            .field(load.events)
            .field(load.nonObjectEvents + load.eventsMissingFields)
            .field(load.coercedFields)
            .field(load.ignoredFields)
            .endRecord();
    }
    return csv.text();
}

std::string globalCountsTable(const FusionReport& report)
{
    CsvWriter csv;
    csv.field("kernel_type")
        .field("trace1_count")
        .field("trace2_count")
        .field("ratio")
        .field("trace1_time_us")
        .field("trace2_time_us")
        .endRecord();
    for (const TypeCount& counts : report.globalCounts) {
        csv.field(report.typeName(counts.type))
            .field(counts.count[0])
            .field(counts.count[1])
            .field(counts.ratio())
            .field(counts.timeUs[0])
            .field(counts.timeUs[1])
            .endRecord();
    }
    return csv.text();
}

std::string opportunitiesTable(const FusionReport& report)
{
    CsvWriter csv;
    for (const char* column : { "kernel_type", "trace1_total", "trace2_total", "trace1_avg_per_group",
             "trace2_avg_per_group", "trace1_time_ms", "trace2_time_ms", "time_ratio", "ratio", "fused_by",
             "fused_by_trace", "groups_affected", "total_groups", "source", "impact" })
        csv.field(column);
    csv.endRecord();
    for (const FusionOpportunity& opportunity : report.opportunities) {
        csv.field(report.typeName(opportunity.kernelType))
            .field(opportunity.total[0])
            .field(opportunity.total[1])
            .field(opportunity.avgPerGroup[0])
            .field(opportunity.avgPerGroup[1])
            .field(opportunity.timeMs[0])
            .field(opportunity.timeMs[1])
            .field(opportunity.timeRatio)
            .field(opportunity.ratio)
            .field(report.sideName(opportunity.fusedBy))
            .field(sideKey(opportunity.fusedBy))
            .field(opportunity.groupsAffected)
            .field(opportunity.totalGroups)
            .field(opportunity.source == OpportunitySource::MatchedGroups ? "matched_groups" : "global_counts")
            .field(opportunity.impact())
            .endRecord();
    }
    return csv.text();
}

std::string mappingsTable(const FusionReport& report)
{
    CsvWriter csv;
    for (const char* column : { "kind", "fused_trace", "fused_platform", "fused_kernel_type", "fused_count",
             "unfused_trace", "unfused_platform", "unfused_sequence", "unfused_count_per_type", "pattern_count",
             "pattern_confidence", "evidence", "correlation_group_trace1", "correlation_group_trace2" })
        csv.field(column);
    csv.endRecord();
    for (const FusionMapping& mapping : report.mappings) {
        csv.field(mappingKindKey(mapping.kind))
            .field(sideKey(mapping.fusedSide))
            .field(report.sideName(mapping.fusedSide))
            .field(report.typeName(mapping.fusedKernelType))
            .field(mapping.fusedCount)
            .field(sideKey(mapping.unfusedSide()))
            .field(report.sideName(mapping.unfusedSide()))
            .field(joinTypes(report, mapping.unfusedSequence))
            .field(joinCounts(report, mapping.unfusedCountPerType))
            .field(mapping.patternCount)
            .field(mapping.patternConfidence)
            .field(mapping.evidence);
        if (mapping.correlationGroup1 && mapping.correlationGroup2)
            csv.field(*mapping.correlationGroup1).field(*mapping.correlationGroup2);
        else
            csv.empty().empty();
        csv.endRecord();
    }
    return csv.text();
}

std::string kernelsOf(const FusionReport& report, const std::vector<FindingKernel>& kernels)
{
    std::string text;
    for (const FindingKernel& kernel : kernels)
        text += (text.empty() ? "" : "+") + report.typeName(kernel.type);
    return text;
}

std::string joinedStack(const std::vector<std::string>& stack)
{
    std::string text;
    for (const std::string& frame : stack)
        text += (text.empty() ? "" : " > ") + frame;
    return text;
}

std::string opFindingsTable(const FusionReport& report)
{
    CsvWriter csv;
    for (const char* column : { "op", "fused_trace", "fused_by", "occurrences", "launch_difference", "extra_launches",
             "trace1_kernel_count", "trace2_kernel_count", "trace1_types", "trace2_types", "trace1_median_us",
             "trace1_q1_us", "trace1_q3_us", "trace1_total_us", "trace2_median_us", "trace2_q1_us", "trace2_q3_us",
             "trace2_total_us", "saving_us", "saving_extra_kernels_us", "saving_speed_us", "summary", "explanation",
             "stack", "trace1_op", "trace2_op", "trace1_stack", "trace2_stack", "aligned_on" })
        csv.field(column);
    csv.endRecord();
    for (const OpFinding& finding : report.opFindings) {
        std::string explanation;
        for (const ExtraRun& run : finding.extraRuns)
            explanation += (explanation.empty() ? "" : " | ") + run.explanation
                + (run.repeats > 1 ? " (x" + std::to_string(run.repeats) + ")" : "");
        const std::string stack = joinedStack(finding.stack);
        csv.field(finding.op)
            .field(sideKey(finding.fusedSide))
            .field(report.sideName(finding.fusedSide))
            .field(finding.occurrences)
            .field(finding.launchDifference)
            .field(finding.launchDifference * int64_t(finding.occurrences))
            .field(uint64_t(finding.kernels[0].size()))
            .field(uint64_t(finding.kernels[1].size()))
            .field(kernelsOf(report, finding.kernels[0]))
            .field(kernelsOf(report, finding.kernels[1]));
        for (const Spread& time : finding.timeUs)
            csv.field(time.median).field(time.q1).field(time.q3).field(time.total);
        csv.field(finding.savingUs)
            .field(finding.savingExtraKernelsUs)
            .field(finding.savingSpeedUs)
            .field(finding.summary)
            .field(explanation)
            .field(stack);
        for (size_t side = 0; side < 2; ++side)
            csv.field(finding.sideOps[side]);
        for (size_t side = 0; side < 2; ++side)
            csv.field(joinedStack(finding.sideStacks[side]));
        csv.field(finding.alignedOn).endRecord();
    }
    return csv.text();
}

std::string opSummaryTable(const FusionReport& report)
{
    CsvWriter csv;
    for (const char* column : { "op", "occurrences", "differing", "trace1_kernels", "trace2_kernels",
             "trace1_median_us", "trace1_q1_us", "trace1_q3_us", "trace1_total_us", "trace2_median_us", "trace2_q1_us",
             "trace2_q3_us", "trace2_total_us", "saving_us" })
        csv.field(column);
    csv.endRecord();
    for (const OpSummary& summary : report.opSummary) {
        csv.field(summary.op)
            .field(summary.occurrences)
            .field(summary.differing)
            .field(summary.kernels[0])
            .field(summary.kernels[1]);
        for (const Spread& time : summary.timeUs)
            csv.field(time.median).field(time.q1).field(time.q3).field(time.total);
        csv.field(summary.savingUs).endRecord();
    }
    return csv.text();
}

std::string extraKernelsTable(const FusionReport& report)
{
    CsvWriter csv;
    csv.field("kernel_type")
        .field("trace1_kernels")
        .field("trace2_kernels")
        .field("trace1_time_us")
        .field("trace2_time_us")
        .endRecord();
    for (const ExtraKernels& extra : report.extraKernels) {
        csv.field(report.typeName(extra.type))
            .field(extra.kernels[0])
            .field(extra.kernels[1])
            .field(extra.timeUs[0])
            .field(extra.timeUs[1])
            .endRecord();
    }
    return csv.text();
}

std::string collectivesTable(const FusionReport& report)
{
    CsvWriter csv;
    csv.field("collective")
        .field("trace1_count")
        .field("trace2_count")
        .field("trace1_time_us")
        .field("trace2_time_us")
        .field("trace1_implementation")
        .field("trace2_implementation")
        .endRecord();
    for (const CollectiveComparison& c : report.collectives) {
        csv.field(c.collective)
            .field(c.count[0])
            .field(c.count[1])
            .field(c.timeUs[0])
            .field(c.timeUs[1])
            .field(c.implementation[0])
            .field(c.implementation[1])
            .endRecord();
    }
    return csv.text();
}

std::string matchedGroupsTable(const FusionReport& report)
{
    CsvWriter csv;
    csv.field("trace1_correlation")
        .field("trace2_correlation")
        .field("trace1_size")
        .field("trace2_size")
        .field("shared_types")
        .field("score")
        .field("trace1_time_us")
        .field("trace2_time_us");
    for (const std::string& type : report.classifier.categories)
        csv.field("trace1_" + type).field("trace2_" + type);
    csv.endRecord();
    for (const GroupPair& pair : report.groupPairs) {
        const LargeGroup& group1 = report.largeGroups[0][pair.group1];
        const LargeGroup& group2 = report.largeGroups[1][pair.group2];
        csv.field(group1.correlation)
            .field(group2.correlation)
            .field(group1.size)
            .field(group2.size)
            .field(pair.sharedTypes)
            .field(pair.score)
            .field(group1.timeUs)
            .field(group2.timeUs);
        for (size_t type = 0; type < report.classifier.categories.size(); ++type)
            csv.field(group1.typeCounts[type]).field(group2.typeCounts[type]);
        csv.endRecord();
    }
    return csv.text();
}

std::string kernelsTable(const FusionReport& report)
{
    CsvWriter csv;
    csv.field("name")
        .field("type")
        .field("trace1_count")
        .field("trace2_count")
        .field("trace1_time_us")
        .field("trace2_time_us")
        .endRecord();
    for (const KernelNameRow& row : report.kernels) {
        csv.field(row.name)
            .field(report.typeName(row.type))
            .field(row.count[0])
            .field(row.count[1])
            .field(row.timeUs[0])
            .field(row.timeUs[1])
            .endRecord();
    }
    return csv.text();
}

} // namespace

std::vector<CsvTable> reportToCsv(const FusionReport& report)
{
    return {
        { "traces", tracesTable(report) },
        { "global_counts", globalCountsTable(report) },
        { "fusion_opportunities", opportunitiesTable(report) },
        { "fusion_mappings", mappingsTable(report) },
        { "op_findings", opFindingsTable(report) },
        { "op_summary", opSummaryTable(report) },
        { "extra_kernels", extraKernelsTable(report) },
        { "collectives", collectivesTable(report) },
        { "graph_kinds", graphKindsCsv(report) },
        { "graph_pairs", graphPairsCsv(report) },
        { "graph_coverage", graphCoverageCsv(report) },
        { "matched_groups", matchedGroupsTable(report) },
        { "kernels", kernelsTable(report) },
        { "time_gap", timeGapCsv(report) },
        { "where_to_look_first", whereToLookFirstCsv(report) },
        { "collective_calls", collectiveCallsCsv(report) },
    };
}

} // namespace fusiondiff
