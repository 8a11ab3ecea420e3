#include "model/fusionreport.h"
#include "report/graphtables.h"
#include "report/jsonwriter.h"
#include "report/reportefficiency.h"
#include "report/reportjob.h"
#include "report/reportsteptime.h"
#include "report/reporttables.h"
#include "report/reporttimegap.h"
#include "report/reportwriters.h"
#include "report/tablejson.h"

#include <utility>

namespace fusiondiff {

namespace {

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
    writeObjectArray(json, report.groupPairs, [&report](JsonWriter& out, const GroupPair& pair) {
        const LargeGroup& group1 = report.largeGroups[0][pair.group1];
        const LargeGroup& group2 = report.largeGroups[1][pair.group2];
        out.field("trace1_correlation", group1.correlation);
        out.field("trace2_correlation", group2.correlation);
        out.field("trace1_size", group1.size);
        out.field("trace2_size", group2.size);
        out.field("shared_types", pair.sharedTypes);
        out.field("score", pair.score);
        out.field("trace1_time_us", group1.timeUs);
        out.field("trace2_time_us", group2.timeUs);
        out.key("trace1_types");
        writeTypeCounts(out, report, group1.typeCounts);
        out.key("trace2_types");
        writeTypeCounts(out, report, group2.typeCounts);
    });
    std::array<std::vector<bool>, 2> matched { std::vector<bool>(report.largeGroups[0].size(), false),
        std::vector<bool>(report.largeGroups[1].size(), false) };
    for (const GroupPair& pair : report.groupPairs) {
        matched[0][pair.group1] = true;
        matched[1][pair.group2] = true;
    }
    for (const Side side : { Side::Trace1, Side::Trace2 }) {
        json.key(side == Side::Trace1 ? "unmatched_trace1" : "unmatched_trace2");
        std::vector<const LargeGroup*> unmatched;
        const auto& groups = report.largeGroups[sideIndex(side)];
        for (size_t i = 0; i < groups.size(); ++i) {
            if (!matched[sideIndex(side)][i])
                unmatched.push_back(&groups[i]);
        }
        writeObjectArray(json, unmatched, [&report](JsonWriter& out, const LargeGroup* group) {
            out.field("correlation", group->correlation);
            out.field("size", group->size);
            out.field("time_us", group->timeUs);
            out.key("types");
            writeTypeCounts(out, report, group->typeCounts);
        });
    }
    json.endObject();
}

void writeFindingKernels(JsonWriter& json, const FusionReport& report, const std::vector<FindingKernel>& kernels)
{
    writeObjectArray(json, kernels, [&report](JsonWriter& out, const FindingKernel& kernel) {
        out.field("name", kernel.name);
        out.field("type", report.typeName(kernel.type));
        out.key("tags");
        out.beginArray();
        for (size_t t = 0; t < report.tagNames.size(); ++t) {
            if (kernel.tags >> t & 1)
                out.value(report.tagNames[t]);
        }
        out.endArray();
        out.field("median_us", kernel.medianUs);
    });
}

void writeOpFinding(JsonWriter& json, const FusionReport& report, const OpFinding& finding)
{
    json.field("op", finding.op);
    json.key("stack");
    writeValueArray(json, finding.stack);
    for (const Side side : { Side::Trace1, Side::Trace2 }) {
        const std::string key = sideKey(side);
        json.field(key + "_op", finding.sideOps[sideIndex(side)]);
        json.key(key + "_stack");
        writeValueArray(json, finding.sideStacks[sideIndex(side)]);
    }
    json.field("aligned_on", finding.alignedOn);
    json.field("layers", finding.layers);
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
    writeObjectArray(json, finding.extraRuns, [](JsonWriter& out, const ExtraRun& run) {
        out.field("trace", sideKey(run.side));
        out.key("kernels");
        writeValueArray(out, run.kernels);
        out.field("repeats", run.repeats);
        out.field("explanation", run.explanation);
    });
    json.key("trace1_time_us");
    writeSpreadJson(json, finding.timeUs[0]);
    json.key("trace2_time_us");
    writeSpreadJson(json, finding.timeUs[1]);
    json.field("slower_trace", sideKey(finding.slowerSide));
    json.field("saving_us", finding.savingUs);
    json.field("saving_extra_kernels_us", finding.savingExtraKernelsUs);
    json.field("saving_speed_us", finding.savingSpeedUs);
    json.field("saving_work_us", finding.savingWorkUs);
    json.key("block_copies");
    json.beginArray();
    for (const uint32_t copies : finding.blockCopies)
        json.value(uint64_t(copies));
    json.endArray();
    json.key("collective_kernels");
    json.beginArray();
    for (const uint32_t count : finding.collectiveKernels)
        json.value(uint64_t(count));
    json.endArray();
    json.key("collective_us");
    json.beginArray();
    for (const double time : finding.collectiveUs)
        json.value(time);
    json.endArray();
    json.field("significant", finding.significant);
    json.field("noise_us", finding.noiseUs);
    json.field("type_agreement", finding.typeAgreement);
    json.field("is_graph", finding.isGraph);
    json.field("summary", finding.summary);
}

void writeOpComparison(JsonWriter& json, const FusionReport& report)
{
    const OpAlignment& alignment = report.opAlignment;
    json.beginObject();
    json.field("level", opLevelKey(alignment.level));
    json.field("trace1_occurrences", alignment.occurrences[0]);
    json.field("trace2_occurrences", alignment.occurrences[1]);
    json.field("trace1_compared", alignment.compared[0]);
    json.field("trace2_compared", alignment.compared[1]);
    json.field("matched", alignment.matched);
    json.field("matched_share", alignment.matchedShare);
    json.field("comparable", alignment.comparable);
    json.field("verdict", alignment.verdict);
    json.key("levels");
    writeObjectArray(json, alignment.levels, [](JsonWriter& out, const AlignmentLevel& level) {
        out.field("level", level.key);
        out.field("description", level.description);
        out.field("matched", level.matched);
        out.field("share", level.share);
    });
    json.key("layers");
    json.beginObject();
    json.field("per_step", alignment.layers.perStep);
    json.field("graph_pieces", alignment.layers.graphPieces);
    json.field("matched", alignment.layers.matched);
    for (const Side side : { Side::Trace1, Side::Trace2 }) {
        const size_t index = sideIndex(side);
        json.field(std::string(sideKey(side)) + "_unit", alignment.layers.unit[index]);
        json.field(std::string(sideKey(side)) + "_calls", alignment.layers.calls[index]);
        json.field(std::string(sideKey(side)) + "_share", alignment.layers.share[index]);
    }
    json.endObject();
    json.key("notes");
    writeValueArray(json, alignment.notes);
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
        writeValueArray(json, iterations.phases);
        json.endObject();
    }
    json.endObject();
    json.endObject();
}

void writeMapping(JsonWriter& json, const FusionReport& report, const FusionMapping& mapping)
{
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
    writeTableJson(json, reportTable(ReportTableId::FusionOpportunities, report),
        { "kernel_type", "trace1_total", "trace2_total", "trace1_avg_per_group", "trace2_avg_per_group",
            "trace1_time_ms", "trace2_time_ms", "time_ratio", "ratio", "fused_by", "groups_affected", "total_groups",
            "fused_by_trace", "source", "impact" });
}

void writeMappings(JsonWriter& json, const FusionReport& report)
{
    writeObjectArray(json, report.mappings,
        [&report](JsonWriter& out, const FusionMapping& mapping) { writeMapping(out, report, mapping); });
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
    writeValueArray(json, report.classifier.categories);
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
    writeValueArray(json, report.tagNames);
}

void writeOpFindings(JsonWriter& json, const FusionReport& report)
{
    writeObjectArray(json, report.opFindings,
        [&report](JsonWriter& out, const OpFinding& finding) { writeOpFinding(out, report, finding); });
}

void writeOpSummary(JsonWriter& json, const FusionReport& report)
{
    writeObjectArray(json, report.opSummary, [](JsonWriter& out, const OpSummary& summary) {
        out.field("op", summary.op);
        out.field("occurrences", summary.occurrences);
        out.field("differing", summary.differing);
        out.field("trace1_kernels", summary.kernels[0]);
        out.field("trace2_kernels", summary.kernels[1]);
        out.key("trace1_time_us");
        writeSpreadJson(out, summary.timeUs[0]);
        out.key("trace2_time_us");
        writeSpreadJson(out, summary.timeUs[1]);
        out.field("saving_us", summary.savingUs);
    });
}

// The arrays with the flat shape of their CSV table, from its column list.
void writeExtraKernels(JsonWriter& json, const FusionReport& report)
{
    writeTableJson(json, reportTable(ReportTableId::ExtraKernels, report));
}

void writeCollectives(JsonWriter& json, const FusionReport& report)
{
    writeTableJson(json, reportTable(ReportTableId::Collectives, report));
}

void writeKernels(JsonWriter& json, const FusionReport& report)
{
    writeTableJson(json, reportTable(ReportTableId::Kernels, report));
}

void writeMatchedKernels(JsonWriter& json, const FusionReport& report)
{
    writeTableJson(json, reportTable(ReportTableId::MatchedKernels, report));
}

void writeStepTimes(JsonWriter& json, const FusionReport& report)
{
    writeTableJson(json, reportTable(ReportTableId::StepTimes, report));
}

void writeHostTime(JsonWriter& json, const FusionReport& report)
{
    writeTableJson(json, reportTable(ReportTableId::HostTime, report));
}

void writeLayerTimes(JsonWriter& json, const FusionReport& report)
{
    writeTableJson(json, reportTable(ReportTableId::LayerTimes, report));
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
        { "step_time", writeStepTimeJson },
        { "step_times", writeStepTimes },
        { "host_time", writeHostTime },
        { "where_to_look_first", writeWhereToLookFirstJson },
        { "kernels", writeKernels },
        { "matched_kernels", writeMatchedKernels },
        { "layer_times", writeLayerTimes },
        { "efficiency", writeEfficiencyJson },
    };
    JsonWriter json;
    json.beginObject();
    for (const auto& [key, write] : kSections) {
        json.key(key);
        write(json, report);
    }
    if (report.job) {
        json.key("job");
        writeJobJson(json, report);
    }
    json.endObject();
    return json.finish();
}

} // namespace fusiondiff
