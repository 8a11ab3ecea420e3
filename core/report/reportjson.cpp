#include "model/fusionreport.h"
#include "report/graphtables.h"
#include "report/jsonwriter.h"
#include "report/reporttimegap.h"
#include "report/reportwriters.h"

#include <utility>

namespace fusiondiff {

namespace {

const char* opportunitySourceKey(OpportunitySource source)
{
    return source == OpportunitySource::MatchedGroups ? "matched_groups" : "global_counts";
}

void writeTrace(JsonWriter& json, const FusionReport& report, Side side)
{
    const TraceSummary& trace = report.traces[sideIndex(side)];
    json.beginObject();
    json.field("label", trace.label);
    json.field("name_in_findings", report.sideName(side));
    json.field("path", trace.path);
    json.field("file", trace.fileName);
    json.field("platform", platformName(trace.platform));
    json.field("gpu", trace.gpuName);
    json.field("kernels", trace.kernels);
    json.field("kernel_time_us", trace.kernelTimeUs);
    json.field("distinct_kernel_names", trace.distinctKernelNames);
    json.field("kernels_without_correlation", trace.kernelsWithoutCorrelation);
    json.field("correlation_groups", trace.correlationGroups);
    json.field("large_correlation_groups", trace.largeGroups);
    json.field("kernels_in_large_groups", trace.kernelsInLargeGroups);
    json.field("runtime_calls", trace.runtimeCalls);
    json.field("graph_launches", trace.graphLaunches);
    json.field("cpu_ops", trace.cpuOps);
    const LoadStatistics& load = trace.statistics;
    json.key("load");
    json.beginObject();
    json.field("file_bytes", load.fileBytes);
    json.field("data_bytes", load.dataBytes);
    json.field("gzip", load.gzip);
    json.field("array_format", load.arrayFormat);
    json.field("missing_closing_bracket", load.missingClosingBracket);
    json.field("events", load.events);
    json.field("non_object_events_skipped", load.nonObjectEvents);
    json.field("events_missing_name_or_ts_skipped", load.eventsMissingFields);
    json.field("events_missing_dur", load.eventsMissingDuration);
    json.field("fields_coerced", load.coercedFields);
    json.field("fields_ignored", load.ignoredFields);
    json.endObject();
    json.endObject();
}

void writeTypeCounts(JsonWriter& json, const FusionReport& report, const std::vector<uint32_t>& counts)
{
    json.beginObject();
    for (size_t typeIndex = 0; typeIndex < counts.size(); ++typeIndex) {
        const auto type = static_cast<CategoryId>(typeIndex);
        if (counts[type] > 0)
            json.field(report.typeName(type), counts[type]);
    }
    json.endObject();
}

void writeGroups(JsonWriter& json, const FusionReport& report)
{
    json.beginObject();
    json.key("matched");
    json.beginArray();
    std::array<std::vector<bool>, 2> matched { std::vector<bool>(report.largeGroups[0].size(), false),
        std::vector<bool>(report.largeGroups[1].size(), false) };
    for (const GroupPair& pair : report.groupPairs) {
        const LargeGroup& group1 = report.largeGroups[0][pair.group1];
        const LargeGroup& group2 = report.largeGroups[1][pair.group2];
        matched[0][pair.group1] = true;
        matched[1][pair.group2] = true;
        json.beginObject();
        json.field("trace1_correlation", group1.correlation);
        json.field("trace2_correlation", group2.correlation);
        json.field("trace1_size", group1.size);
        json.field("trace2_size", group2.size);
        json.field("shared_types", pair.sharedTypes);
        json.field("score", pair.score);
        json.field("trace1_time_us", group1.timeUs);
        json.field("trace2_time_us", group2.timeUs);
        json.key("trace1_types");
        writeTypeCounts(json, report, group1.typeCounts);
        json.key("trace2_types");
        writeTypeCounts(json, report, group2.typeCounts);
        json.endObject();
    }
    json.endArray();
    for (const Side side : { Side::Trace1, Side::Trace2 }) {
        json.key(side == Side::Trace1 ? "unmatched_trace1" : "unmatched_trace2");
        json.beginArray();
        const auto& groups = report.largeGroups[sideIndex(side)];
        for (size_t i = 0; i < groups.size(); ++i) {
            if (matched[sideIndex(side)][i])
                continue;
            json.beginObject();
            json.field("correlation", groups[i].correlation);
            json.field("size", groups[i].size);
            json.field("time_us", groups[i].timeUs);
            json.key("types");
            writeTypeCounts(json, report, groups[i].typeCounts);
            json.endObject();
        }
        json.endArray();
    }
    json.endObject();
}

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

void writeFindingKernels(JsonWriter& json, const FusionReport& report, const std::vector<FindingKernel>& kernels)
{
    json.beginArray();
    for (const FindingKernel& kernel : kernels) {
        json.beginObject();
        json.field("name", kernel.name);
        json.field("type", report.typeName(kernel.type));
        json.key("tags");
        json.beginArray();
        for (size_t t = 0; t < report.tagNames.size(); ++t) {
            if (kernel.tags >> t & 1)
                json.value(report.tagNames[t]);
        }
        json.endArray();
        json.field("median_us", kernel.medianUs);
        json.endObject();
    }
    json.endArray();
}

void writeOpFinding(JsonWriter& json, const FusionReport& report, const OpFinding& finding)
{
    json.beginObject();
    json.field("op", finding.op);
    json.key("stack");
    json.beginArray();
    for (const std::string& frame : finding.stack)
        json.value(frame);
    json.endArray();
    for (const Side side : { Side::Trace1, Side::Trace2 }) {
        const std::string key = sideKey(side);
        json.field(key + "_op", finding.sideOps[sideIndex(side)]);
        json.key(key + "_stack");
        json.beginArray();
        for (const std::string& frame : finding.sideStacks[sideIndex(side)])
            json.value(frame);
        json.endArray();
    }
    json.field("aligned_on", finding.alignedOn);
    json.field("fused_by", report.sideName(finding.fusedSide));
    json.field("fused_trace", sideKey(finding.fusedSide));
    json.field("occurrences", finding.occurrences);
    json.field("launch_difference", finding.launchDifference);
    json.field("extra_launches", finding.launchDifference * int64_t(finding.occurrences));
    json.key("trace1_kernels");
    writeFindingKernels(json, report, finding.kernels[0]);
    json.key("trace2_kernels");
    writeFindingKernels(json, report, finding.kernels[1]);
    json.key("alignment");
    json.beginArray();
    for (const AlignedPair& pair : finding.alignment) {
        json.beginArray();
        pair.first >= 0 ? json.value(pair.first) : json.null();
        pair.second >= 0 ? json.value(pair.second) : json.null();
        json.endArray();
    }
    json.endArray();
    json.key("extra_runs");
    json.beginArray();
    for (const ExtraRun& run : finding.extraRuns) {
        json.beginObject();
        json.field("trace", sideKey(run.side));
        json.key("kernels");
        json.beginArray();
        for (const uint32_t k : run.kernels)
            json.value(k);
        json.endArray();
        json.field("repeats", run.repeats);
        json.field("explanation", run.explanation);
        json.endObject();
    }
    json.endArray();
    json.key("trace1_time_us");
    writeSpread(json, finding.timeUs[0]);
    json.key("trace2_time_us");
    writeSpread(json, finding.timeUs[1]);
    json.field("saving_us", finding.savingUs);
    json.field("saving_extra_kernels_us", finding.savingExtraKernelsUs);
    json.field("saving_speed_us", finding.savingSpeedUs);
    json.field("type_agreement", finding.typeAgreement);
    json.field("is_graph", finding.isGraph);
    json.field("summary", finding.summary);
    json.endObject();
}

void writeOpComparison(JsonWriter& json, const FusionReport& report)
{
    const OpAlignment& alignment = report.opAlignment;
    json.beginObject();
    json.field("level", opLevelKey(alignment.level));
    json.field("trace1_occurrences", alignment.occurrences[0]);
    json.field("trace2_occurrences", alignment.occurrences[1]);
    json.field("matched", alignment.matched);
    json.field("matched_share", alignment.matchedShare);
    json.field("comparable", alignment.comparable);
    json.field("verdict", alignment.verdict);
    json.key("levels");
    json.beginArray();
    for (const AlignmentLevel& level : alignment.levels) {
        json.beginObject();
        json.field("level", level.key);
        json.field("description", level.description);
        json.field("matched", level.matched);
        json.field("share", level.share);
        json.endObject();
    }
    json.endArray();
    json.key("notes");
    json.beginArray();
    for (const std::string& note : alignment.notes)
        json.value(note);
    json.endArray();
    json.field("trace1_attributed_kernels", alignment.attributedKernels[0]);
    json.field("trace2_attributed_kernels", alignment.attributedKernels[1]);
    json.field("trace1_unattributed_kernels", alignment.unattributedKernels[0]);
    json.field("trace2_unattributed_kernels", alignment.unattributedKernels[1]);
    json.field("trace1_unattributed_time_us", alignment.unattributedTimeUs[0]);
    json.field("trace2_unattributed_time_us", alignment.unattributedTimeUs[1]);
    json.key("iterations");
    json.beginObject();
    for (const Side side : { Side::Trace1, Side::Trace2 }) {
        const Iterations& iterations = report.iterations[sideIndex(side)];
        json.key(sideKey(side));
        json.beginObject();
        json.field("method", iterations.method);
        json.field("count", iterations.count);
        json.field("cycle_length", iterations.cycleLength);
        json.field("compared", iterations.compared);
        json.field("warmup_skipped", iterations.warmupSkipped);
        json.key("phases");
        json.beginArray();
        for (const std::string& phase : iterations.phases)
            json.value(phase);
        json.endArray();
        json.endObject();
    }
    json.endObject();
    json.endObject();
}

void writeMapping(JsonWriter& json, const FusionReport& report, const FusionMapping& mapping)
{
    json.beginObject();
    json.field("fused_platform", report.sideName(mapping.fusedSide));
    json.field("fused_kernel_type", report.typeName(mapping.fusedKernelType));
    json.field("fused_count", mapping.fusedCount);
    json.field("unfused_platform", report.sideName(mapping.unfusedSide()));
    json.key("unfused_sequence");
    json.beginArray();
    for (const CategoryId type : mapping.unfusedSequence)
        json.value(report.typeName(type));
    json.endArray();
    json.key("unfused_count_per_type");
    json.beginObject();
    for (const auto& [type, count] : mapping.unfusedCountPerType)
        json.field(report.typeName(type), count);
    json.endObject();
    json.field("pattern_count", mapping.patternCount);
    json.field("pattern_confidence", mapping.patternConfidence);
    json.field("evidence", mapping.evidence);
    if (mapping.correlationGroup1 && mapping.correlationGroup2) {
        json.field("correlation_group_trace1", *mapping.correlationGroup1);
        json.field("correlation_group_trace2", *mapping.correlationGroup2);
    }
    json.field("kind", mappingKindKey(mapping.kind));
    json.field("fused_trace", sideKey(mapping.fusedSide));
    json.field("unfused_trace", sideKey(mapping.unfusedSide()));
    json.endObject();
}

void writeMetadata(JsonWriter& json, const FusionReport& report)
{
    json.beginObject();
    json.field("trace1_gpu", report.traces[0].gpuName);
    json.field("trace2_gpu", report.traces[1].gpuName);
    json.field("trace1_total_kernels", report.traces[0].kernels);
    json.field("trace2_total_kernels", report.traces[1].kernels);
    json.field("trace1_correlation_groups", report.traces[0].largeGroups);
    json.field("trace2_correlation_groups", report.traces[1].largeGroups);
    json.field("matched_groups", static_cast<uint64_t>(report.groupPairs.size()));
    json.field("trace1_label", report.traces[0].label);
    json.field("trace2_label", report.traces[1].label);
    json.field("trace1_platform", platformName(report.traces[0].platform));
    json.field("trace2_platform", platformName(report.traces[1].platform));
    json.field("classifier", report.classifier.name);
    json.field("tool", "FusionDiff");
    json.field("tool_version", report.toolVersion);
    json.endObject();
}

void writeGlobalCounts(JsonWriter& json, const FusionReport& report)
{
    json.beginObject();
    for (const TypeCount& counts : report.globalCounts) {
        json.key(report.typeName(counts.type));
        json.beginObject();
        json.field("trace1_count", counts.count[0]);
        json.field("trace2_count", counts.count[1]);
        json.field("ratio", counts.ratio());
        json.field("trace1_time_us", counts.timeUs[0]);
        json.field("trace2_time_us", counts.timeUs[1]);
        json.endObject();
    }
    json.endObject();
}

void writeOpportunities(JsonWriter& json, const FusionReport& report)
{
    json.beginArray();
    for (const FusionOpportunity& opportunity : report.opportunities) {
        json.beginObject();
        json.field("kernel_type", report.typeName(opportunity.kernelType));
        json.field("trace1_total", opportunity.total[0]);
        json.field("trace2_total", opportunity.total[1]);
        json.field("trace1_avg_per_group", opportunity.avgPerGroup[0]);
        json.field("trace2_avg_per_group", opportunity.avgPerGroup[1]);
        json.field("trace1_time_ms", opportunity.timeMs[0]);
        json.field("trace2_time_ms", opportunity.timeMs[1]);
        json.field("time_ratio", opportunity.timeRatio);
        json.field("ratio", opportunity.ratio);
        json.field("fused_by", report.sideName(opportunity.fusedBy));
        json.field("groups_affected", opportunity.groupsAffected);
        json.field("total_groups", opportunity.totalGroups);
        json.field("fused_by_trace", sideKey(opportunity.fusedBy));
        json.field("source", opportunitySourceKey(opportunity.source));
        json.field("impact", opportunity.impact());
        json.endObject();
    }
    json.endArray();
}

void writeMappings(JsonWriter& json, const FusionReport& report)
{
    json.beginArray();
    for (const FusionMapping& mapping : report.mappings)
        writeMapping(json, report, mapping);
    json.endArray();
}

void writeTraces(JsonWriter& json, const FusionReport& report)
{
    json.beginObject();
    json.key("trace1");
    writeTrace(json, report, Side::Trace1);
    json.key("trace2");
    writeTrace(json, report, Side::Trace2);
    json.endObject();
}

void writeClassifier(JsonWriter& json, const FusionReport& report)
{
    json.beginObject();
    json.field("name", report.classifier.name);
    json.field("source", report.classifier.source);
    json.field("fallback", report.typeName(report.classifier.fallback));
    json.key("categories");
    json.beginArray();
    for (const std::string& category : report.classifier.categories)
        json.value(category);
    json.endArray();
    json.endObject();
}

void writeOptions(JsonWriter& json, const FusionReport& report)
{
    json.beginObject();
    for (const AnalysisParameter& parameter : analysisParameters()) {
        if (parameter.isInteger)
            json.field(parameter.name, report.options.*parameter.integer);
        else
            json.field(parameter.name, report.options.*parameter.real);
    }
    json.field("op_level", opLevelKey(report.options.opLevel));
    json.endObject();
}

void writeFusionTags(JsonWriter& json, const FusionReport& report)
{
    json.beginArray();
    for (const std::string& tag : report.tagNames)
        json.value(tag);
    json.endArray();
}

void writeOpFindings(JsonWriter& json, const FusionReport& report)
{
    json.beginArray();
    for (const OpFinding& finding : report.opFindings)
        writeOpFinding(json, report, finding);
    json.endArray();
}

void writeOpSummary(JsonWriter& json, const FusionReport& report)
{
    json.beginArray();
    for (const OpSummary& summary : report.opSummary) {
        json.beginObject();
        json.field("op", summary.op);
        json.field("occurrences", summary.occurrences);
        json.field("differing", summary.differing);
        json.field("trace1_kernels", summary.kernels[0]);
        json.field("trace2_kernels", summary.kernels[1]);
        json.key("trace1_time_us");
        writeSpread(json, summary.timeUs[0]);
        json.key("trace2_time_us");
        writeSpread(json, summary.timeUs[1]);
        json.field("saving_us", summary.savingUs);
        json.endObject();
    }
    json.endArray();
}

void writeExtraKernels(JsonWriter& json, const FusionReport& report)
{
    json.beginArray();
    for (const ExtraKernels& extra : report.extraKernels) {
        json.beginObject();
        json.field("kernel_type", report.typeName(extra.type));
        json.field("trace1_kernels", extra.kernels[0]);
        json.field("trace2_kernels", extra.kernels[1]);
        json.field("trace1_time_us", extra.timeUs[0]);
        json.field("trace2_time_us", extra.timeUs[1]);
        json.endObject();
    }
    json.endArray();
}

void writeCollectives(JsonWriter& json, const FusionReport& report)
{
    json.beginArray();
    for (const CollectiveComparison& collective : report.collectives) {
        json.beginObject();
        json.field("collective", collective.collective);
        json.field("trace1_count", collective.count[0]);
        json.field("trace2_count", collective.count[1]);
        json.field("trace1_time_us", collective.timeUs[0]);
        json.field("trace2_time_us", collective.timeUs[1]);
        json.field("trace1_implementation", collective.implementation[0]);
        json.field("trace2_implementation", collective.implementation[1]);
        json.endObject();
    }
    json.endArray();
}

void writeKernels(JsonWriter& json, const FusionReport& report)
{
    json.beginArray();
    for (const KernelNameRow& row : report.kernels) {
        json.beginObject();
        json.field("name", row.name);
        json.field("type", report.typeName(row.type));
        json.field("trace1_count", row.count[0]);
        json.field("trace2_count", row.count[1]);
        json.field("trace1_time_us", row.timeUs[0]);
        json.field("trace2_time_us", row.timeUs[1]);
        json.endObject();
    }
    json.endArray();
}

} // namespace

std::string reportToJson(const FusionReport& report)
{
    // The seed's four sections first, with its field names (docs/report-format.md), then FusionDiff's.
    using SectionWriter = void (*)(JsonWriter&, const FusionReport&);
    static constexpr std::pair<const char*, SectionWriter> kSections[] = {
        { "metadata", writeMetadata },
        { "global_counts", writeGlobalCounts },
        { "fusion_opportunities", writeOpportunities },
        { "fusion_mappings", writeMappings },
        { "traces", writeTraces },
        { "classifier", writeClassifier },
        { "options", writeOptions },
        { "correlation_groups", writeGroups },
        { "fusion_tags", writeFusionTags },
        { "op_comparison", writeOpComparison },
        { "op_findings", writeOpFindings },
        { "op_summary", writeOpSummary },
        { "extra_kernels", writeExtraKernels },
        { "collectives", writeCollectives },
        { "graph_comparison", writeGraphComparisonJson },
        { "collective_calls", writeCollectiveCallsJson },
        { "time_gap", writeTimeGapJson },
        { "where_to_look_first", writeWhereToLookFirstJson },
        { "kernels", writeKernels },
    };
    JsonWriter json;
    json.beginObject();
    for (const auto& [key, write] : kSections) {
        json.key(key);
        write(json, report);
    }
    json.endObject();
    return json.finish();
}

} // namespace fusiondiff
