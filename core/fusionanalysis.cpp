#include "fusionanalysis.h"

#include "classify/kerneltypes.h"
#include "fusionversion.h"
#include "groups/chainfusion.h"
#include "groups/correlationgroups.h"
#include "groups/fusionopportunities.h"
#include "groups/groupmatcher.h"
#include "groups/partialfusion.h"
#include "groups/sequencepatterns.h"
#include "model/tracestore.h"
#include "ops/attribution/opattribution.h"
#include "ops/comparison/collectivecalls.h"
#include "ops/comparison/collectives.h"
#include "ops/comparison/graphcomparison.h"
#include "ops/comparison/graphfindings.h"
#include "ops/comparison/graphphases.h"
#include "ops/comparison/graphtail.h"
#include "ops/comparison/opcomparison.h"
#include "ops/efficiency/efficiency.h"
#include "ops/timegap/lookfirst.h"
#include "ops/timegap/significance.h"
#include "ops/timegap/steptime.h"
#include "ops/timegap/synthetictiming.h"
#include "ops/timegap/timegap.h"
#include "util/bothsides.h"
#include "util/distinctlabels.h"
#include "util/inputerror.h"
#include "util/textformat.h"

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <optional>
#include <unordered_map>
#include <unordered_set>

namespace fusiondiff {

namespace {

// One trace prepared for the analysis.
struct PreparedTrace
{
    const TraceStore& store;
    KernelTypes types;
    CorrelationGroups groups;
    std::vector<uint32_t> largeGroupIndices; // into groups.groups
    std::vector<CategoryId> sequence; // all kernel types in time order
};

void checkCancel(const std::atomic<bool>* cancel)
{
    if (cancel && cancel->load(std::memory_order_relaxed))
        throw Cancelled();
}

TraceSummary summarize(const PreparedTrace& trace, size_t largeGroups)
{
    const TraceStore& store = trace.store;
    TraceSummary summary;
    summary.path = store.path;
    summary.fileName = store.fileName;
    summary.label = store.label;
    summary.platform = store.platform;
    summary.gpuName = store.gpuName;
    summary.kernels = store.kernels.size();
    std::vector<bool> named(store.strings.size(), false);
    for (const KernelEvent& kernel : store.kernels) {
        summary.kernelTimeUs += kernel.dur;
        summary.kernelsWithoutCorrelation += kernel.correlation == kNoId;
        if (!named[kernel.name]) {
            named[kernel.name] = true;
            ++summary.distinctKernelNames;
        }
    }
    summary.correlationGroups = trace.groups.groups.size();
    summary.largeGroups = largeGroups;
    for (const uint32_t index : trace.largeGroupIndices)
        summary.kernelsInLargeGroups += trace.groups.groups[index].size;
    summary.runtimeCalls = store.runtimeCalls.size();
    summary.graphLaunches = static_cast<uint64_t>(std::count_if(store.runtimeCalls.begin(), store.runtimeCalls.end(),
        [](const RuntimeEvent& call) { return call.graphLaunch; }));
    summary.cpuOps = store.cpuOps.size();
    summary.statistics = store.statistics;
    return summary;
}

std::vector<LargeGroup> describeLargeGroups(const PreparedTrace& trace, size_t typeCount)
{
    std::vector<LargeGroup> result;
    result.reserve(trace.largeGroupIndices.size());
    for (const uint32_t index : trace.largeGroupIndices) {
        const CorrelationGroup& group = trace.groups.groups[index];
        LargeGroup large;
        large.correlation = group.correlation;
        large.size = group.size;
        large.typeCounts.assign(typeCount, 0);
        large.typeTimesUs.assign(typeCount, 0.0);
        for (const uint32_t kernel : trace.groups.kernelsOf(group)) {
            const double dur = trace.store.kernels[kernel].dur;
            const CategoryId type = trace.types.ofKernel[kernel];
            ++large.typeCounts[type];
            large.typeTimesUs[type] += dur;
            large.timeUs += dur;
        }
        large.kernels = inTimeOrder(trace.store, trace.groups.kernelsOf(group));
        result.push_back(std::move(large));
    }
    return result;
}

GroupProfile profileOf(const LargeGroup& group)
{
    GroupProfile profile;
    profile.size = group.size;
    for (size_t type = 0; type < group.typeCounts.size(); ++type) {
        if (group.typeCounts[type] > 0)
            profile.typeMask |= uint64_t(1) << type;
    }
    return profile;
}

std::vector<KernelNameRow> kernelTable(const PreparedTrace& trace1, const PreparedTrace& trace2)
{
    std::vector<KernelNameRow> rows;
    // Keyed by views into the stores' string tables, which outlive this function.
    std::unordered_map<std::string_view, size_t> rowOfName;
    for (const PreparedTrace* trace : { &trace1, &trace2 }) {
        const size_t side = trace == &trace1 ? 0 : 1;
        std::unordered_map<StringId, size_t> rowOfId;
        for (size_t i = 0; i < trace->store.kernels.size(); ++i) {
            const KernelEvent& kernel = trace->store.kernels[i];
            auto [it, inserted] = rowOfId.try_emplace(kernel.name, 0);
            if (inserted) {
                const std::string_view name = trace->store.name(kernel.name);
                const auto [named, isNew] = rowOfName.try_emplace(name, rows.size());
                if (isNew)
                    rows.push_back({ std::string(name), trace->types.ofKernel[i], {}, {} });
                it->second = named->second;
            }
            KernelNameRow& row = rows[it->second];
            ++row.count[side];
            row.timeUs[side] += kernel.dur;
        }
    }
    std::sort(rows.begin(), rows.end(), [](const KernelNameRow& a, const KernelNameRow& b) {
        const double totalA = a.timeUs[0] + a.timeUs[1];
        const double totalB = b.timeUs[0] + b.timeUs[1];
        return totalA != totalB ? totalA > totalB : a.name < b.name;
    });
    return rows;
}

PreparedTrace prepare(const TraceStore& store, const Classifier& classifier, const AnalysisOptions& options)
{
    PreparedTrace trace { store, classifyKernels(store, classifier), groupByCorrelation(store), {}, {} };
    for (uint32_t i = 0; i < trace.groups.groups.size(); ++i) {
        if (static_cast<int64_t>(trace.groups.groups[i].size) >= options.minGroupSize)
            trace.largeGroupIndices.push_back(i);
    }
    std::vector<uint32_t> all(store.kernels.size());
    for (uint32_t i = 0; i < all.size(); ++i)
        all[i] = i;
    trace.sequence = typesOf(trace.types, inTimeOrder(store, all));
    return trace;
}

// The seed's greedy matching of the large groups, with each pair's shared types and score.
std::vector<GroupPair> matchLargeGroups(const std::array<std::vector<LargeGroup>, 2>& largeGroups, double sizeTolerance)
{
    std::array<std::vector<GroupProfile>, 2> profiles;
    for (size_t side = 0; side < 2; ++side) {
        for (const LargeGroup& group : largeGroups[side])
            profiles[side].push_back(profileOf(group));
    }
    std::vector<GroupPair> pairs;
    for (const auto& [index1, index2] : matchGroups(profiles[0], profiles[1], sizeTolerance)) {
        GroupPair pair;
        pair.group1 = index1;
        pair.group2 = index2;
        pair.sharedTypes
            = static_cast<uint32_t>(std::popcount(profiles[0][index1].typeMask & profiles[1][index2].typeMask));
        pair.score = std::llabs(static_cast<int64_t>(profiles[0][index1].size)
                         - static_cast<int64_t>(profiles[1][index2].size))
            - 10 * static_cast<int64_t>(pair.sharedTypes);
        pairs.push_back(pair);
    }
    return pairs;
}

// Sequence patterns inside each matched pair.
std::vector<FusionMapping> groupSequenceMappings(const std::array<PreparedTrace, 2>& traces,
    const std::array<std::vector<LargeGroup>, 2>& largeGroups, const std::vector<GroupPair>& pairs,
    const MappingContext& context)
{
    std::vector<FusionMapping> mappings;
    for (const GroupPair& pair : pairs) {
        const std::array<const LargeGroup*, 2> groups { &largeGroups[0][pair.group1], &largeGroups[1][pair.group2] };
        const std::array<std::vector<CategoryId>, 2> sequences { typesOf(traces[0].types, groups[0]->kernels),
            typesOf(traces[1].types, groups[1]->kernels) };
        for (FusionMapping& mapping :
            findSequencePatterns(sequences[0], sequences[1], MappingKind::GroupSequence, context)) {
            mapping.correlationGroup1 = groups[0]->correlation;
            mapping.correlationGroup2 = groups[1]->correlation;
            mappings.push_back(std::move(mapping));
        }
    }
    return mappings;
}

// Whole-trace counts and times per type present in either trace (times summed in file order, as
// the seed does).
std::vector<TypeCount> countTypes(const std::array<PreparedTrace, 2>& traces, size_t typeCount)
{
    std::vector<TypeCount> counts(typeCount);
    for (size_t side = 0; side < 2; ++side) {
        const PreparedTrace& trace = traces[side];
        for (size_t i = 0; i < trace.store.kernels.size(); ++i) {
            TypeCount& count = counts[trace.types.ofKernel[i]];
            ++count.count[side];
            count.timeUs[side] += trace.store.kernels[i].dur;
        }
    }
    std::vector<TypeCount> present;
    for (size_t typeIndex = 0; typeIndex < typeCount; ++typeIndex) {
        const auto type = static_cast<CategoryId>(typeIndex);
        if (counts[type].count[0] == 0 && counts[type].count[1] == 0)
            continue;
        counts[type].type = type;
        present.push_back(counts[type]);
    }
    return present;
}

// Chains of one type, then whole-trace sequence patterns unless a chain finding covers the type
// or the same evidence is already among `mappings` (the seed's de-duplication).
void addChainAndGlobalMappings(
    const std::array<PreparedTrace, 2>& traces, const MappingContext& context, std::vector<FusionMapping>& mappings)
{
    std::unordered_set<CategoryId> chainTypes;
    for (const FusionMapping& mapping : findChainFusion(traces[0].sequence, traces[1].sequence, context)) {
        chainTypes.insert(mapping.fusedKernelType);
        mappings.push_back(mapping);
    }
    std::unordered_set<std::string> evidence;
    for (const FusionMapping& mapping : mappings)
        evidence.insert(mapping.evidence);
    for (FusionMapping& mapping :
        findSequencePatterns(traces[0].sequence, traces[1].sequence, MappingKind::GlobalSequence, context)) {
        if (!chainTypes.contains(mapping.unfusedSequence.front()) && !evidence.contains(mapping.evidence))
            mappings.push_back(std::move(mapping));
    }
}

// The traces' summaries, their large groups, and the names the findings give the two sides.
void describeTraces(
    const std::array<PreparedTrace, 2>& traces, size_t typeCount, bool sidesInParallel, FusionReport& report)
{
    forBothSides(sidesInParallel, [&](size_t side) {
        report.traces[side] = summarize(traces[side], traces[side].largeGroupIndices.size());
        report.largeGroups[side] = describeLargeGroups(traces[side], typeCount);
    });
    const std::array<std::string, 2> labels = distinctLabels(
        { report.traces[0].label, report.traces[1].label }, { report.traces[0].path, report.traces[1].path });
    report.traces[0].label = labels[0];
    report.traces[1].label = labels[1];
    const bool samePlatform = traces[0].store.platform == traces[1].store.platform;
    for (size_t side = 0; side < 2; ++side)
        report.sideNames[side] = samePlatform ? report.traces[side].label : platformName(report.traces[side].platform);
}

// Graph findings rank with the operation findings by the time at stake; graph kind pairs join
// the per-operation summary and their extra kernels the per-type sums.
void mergeGraphResults(FusionReport& report, GraphComparisonResult graphs)
{
    for (OpFinding& finding : graphs.findings)
        report.opFindings.push_back(std::move(finding));
    std::stable_sort(report.opFindings.begin(), report.opFindings.end(), [](const OpFinding& a, const OpFinding& b) {
        if (a.savingUs != b.savingUs)
            return a.savingUs > b.savingUs;
        return a.launchDifference * int64_t(a.occurrences) > b.launchDifference * int64_t(b.occurrences);
    });
    for (OpSummary& summary : graphs.summaries)
        report.opSummary.push_back(std::move(summary));
    std::stable_sort(report.opSummary.begin(), report.opSummary.end(), summaryRanksBefore);
    for (const ExtraKernels& extra : graphs.extraKernels) {
        if (extra.kernels[0] + extra.kernels[1] == 0)
            continue;
        auto it = std::find_if(report.extraKernels.begin(), report.extraKernels.end(),
            [&](const ExtraKernels& e) { return e.type == extra.type; });
        if (it == report.extraKernels.end())
            it = report.extraKernels.insert(
                std::upper_bound(report.extraKernels.begin(), report.extraKernels.end(), extra.type,
                    [](CategoryId t, const ExtraKernels& e) { return t < e.type; }),
                ExtraKernels { extra.type, {}, {} });
        for (size_t side = 0; side < 2; ++side) {
            it->kernels[side] += extra.kernels[side];
            it->timeUs[side] += extra.timeUs[side];
        }
    }
    report.graphComparison = std::move(graphs.comparison);
}

} // namespace

FusionReport analyzeFusion(const TraceStore& trace1, const TraceStore& trace2, const Classifier& classifier,
    const AnalysisOptions& options, const std::atomic<bool>* cancel)
{
    return analyzeFusion(trace1, trace2, { nullptr, nullptr }, classifier, options, cancel);
}

FusionReport analyzeFusion(const TraceStore& trace1, const TraceStore& trace2,
    const std::array<const CaptureTrace*, 2>& captures, const Classifier& classifier, const AnalysisOptions& options,
    const std::atomic<bool>* cancel)
{
    const size_t typeCount = classifier.categories().size();
    const bool parallel = analyzeSidesInParallel(options.threads);
    // Read first: a peaks file that is not one fails before the analysis runs.
    const GpuPeakTable peaks = options.peaksFile.empty() ? builtinGpuPeaks() : loadGpuPeaks(options.peaksFile);
    const std::array<const TraceStore*, 2> stores { &trace1, &trace2 };
    std::array<std::optional<PreparedTrace>, 2> prepared;
    forBothSides(parallel, [&](size_t side) { prepared[side].emplace(prepare(*stores[side], classifier, options)); });
    checkCancel(cancel);
    std::array<PreparedTrace, 2> traces { std::move(*prepared[0]), std::move(*prepared[1]) };
    prepared[0].reset();
    prepared[1].reset();

    FusionReport report;
    report.toolVersion = FUSIONDIFF_VERSION;
    report.classifier = { classifier.name(), classifier.source(), classifier.description(), classifier.categories(),
        classifier.fallback() };
    report.options = options;
    describeTraces(traces, typeCount, parallel, report);
    report.groupPairs = matchLargeGroups(report.largeGroups, options.sizeTolerance);
    checkCancel(cancel);

    // The seed's analysis.
    const MappingContext context { options, classifier.categories(), classifier.fallback(), report.sideNames };
    report.mappings = groupSequenceMappings(traces, report.largeGroups, report.groupPairs, context);
    checkCancel(cancel);
    report.globalCounts = countTypes(traces, typeCount);
    report.opportunities
        = findFusionOpportunities({ options, typeCount, report.largeGroups, report.groupPairs, report.globalCounts });
    for (FusionMapping& mapping : findPartialFusion(report.largeGroups, report.groupPairs, context))
        report.mappings.push_back(std::move(mapping));
    addChainAndGlobalMappings(traces, context, report.mappings);
    report.kernels = kernelTable(traces[0], traces[1]);
    checkCancel(cancel);

    // Beyond the seed: graph by graph (whatever their size), then operation by operation.
    std::array<std::vector<SharedCorrelation>, 2> shared;
    for (size_t side = 0; side < 2; ++side) {
        const PreparedTrace& trace = traces[side];
        for (const CorrelationGroup& group : trace.groups.groups) {
            if (group.size >= 2)
                shared[side].push_back({ group.correlation, trace.groups.kernelsOf(group) });
        }
    }
    GraphComparisonResult graphs
        = compareGraphs({ GraphComparisonTrace { trace1, traces[0].types, shared[0], captures[0] },
                            GraphComparisonTrace { trace2, traces[1].types, shared[1], captures[1] } },
            classifier, report.sideNames);
    // What the seed's steps and the graphs read (a kernel index per kernel, and its type in time
    // order) is not read after them: gone before the operations' and the step time's structures.
    shared = {};
    for (PreparedTrace& trace : traces) {
        trace.groups = {};
        trace.largeGroupIndices = {};
        trace.sequence = {};
    }
    checkCancel(cancel);
    // Graph kernels are compared graph against graph, not as part of the operation that launched them.
    GroupKernelsPair graphKernels;
    graphKernels.kernels = std::move(graphs.graphKernels);
    graphKernels.compare = false;
    OpComparison operations;
    std::array<std::vector<CollectiveCall>, 2> collectiveCalls;
    {
        // A frame for every operator, module and kept Python frame of both traces: with the
        // stores, the largest structures of the analysis. The step time does not read them, so
        // they are gone before it builds its host timelines.
        std::array<KernelAttribution, 2> attributions;
        forBothSides(parallel, [&](size_t side) { attributions[side] = attributeKernels(*stores[side]); });
        checkCancel(cancel);
        operations = compareOperations({ OpComparisonTrace { trace1, traces[0].types, attributions[0] },
                                           OpComparisonTrace { trace2, traces[1].types, attributions[1] } },
            std::span(&graphKernels, 1), classifier, options.opLevel, report.sideNames, parallel);
        nameGraphLaunchers(graphs.findings, stores, { &attributions[0], &attributions[1] },
            options.opLevel == OpLevel::Auto ? OpLevel::Operator : options.opLevel, report.sideNames);
        collectiveCalls
            = { findCollectiveCalls(trace1, attributions[0]), findCollectiveCalls(trace2, attributions[1]) };
        report.efficiency = analyzeEfficiency(
            { EfficiencyTrace { trace1, attributions[0] }, EfficiencyTrace { trace2, attributions[1] } }, peaks);
    }
    graphKernels = {};
    report.tagNames = classifier.tags();
    report.opAlignment = std::move(operations.alignment);
    report.iterations = std::move(operations.iterations);
    report.opFindings = std::move(operations.findings);
    report.opSummary = std::move(operations.byOperation);
    report.extraKernels = std::move(operations.extraKernels);
    addGraphRoles(operations.roles, graphs.comparedKernels, graphs.patternNames);
    operations.kernelPairs.merge(graphs.kernelPairs);
    report.layerTimes = std::move(operations.layerTimes);
    report.matchedKernels = operations.kernelPairs.rows({ &trace1, &trace2 }, { &traces[0].types, &traces[1].types });
    addGraphPhases(graphs.comparison, graphs.kindLaunches, { &operations.steps[0], &operations.steps[1] },
        operations.phasePartners);
    mergeGraphResults(report, std::move(graphs));
    report.collectives = compareCollectives({ &collectiveCalls[0], &collectiveCalls[1] });
    report.collectiveCalls = pairCollectiveCalls({ &collectiveCalls[0], &collectiveCalls[1] });
    checkCancel(cancel);

    // A graph launch that ran on after its last recorded kernel: its GPU time counts on every basis.
    const std::array<std::vector<NotRecordedSpan>, 2> notRecorded
        = notRecordedSpans(report.graphComparison, { &trace1, &trace2 });
    StepTimeAnalysis stepTime = analyzeStepTime({ StepTimeTrace { trace1, operations.steps[0], &notRecorded[0] },
                                                    StepTimeTrace { trace2, operations.steps[1], &notRecorded[1] } },
        operations.phasePartners, parallel);
    checkCancel(cancel);
    TimeGapAccounting accounting = explainTimeGap({ { &trace1, &trace2 }, { &traces[0].types, &traces[1].types },
        operations.roles, { &collectiveCalls[0], &collectiveCalls[1] }, classifier.categories(), report.sideNames,
        &stepTime, { &notRecorded[0], &notRecorded[1] }, parallel });
    report.stepTime = std::move(stepTime.report);
    report.timeGap = std::move(accounting.gap);
    // Rewrites the verdict with what run-to-run noise says of the gap.
    judgeTimeGapNoise(report);
    const std::array<std::optional<SyntheticGraphTiming>, 2> syntheticTiming { syntheticGraphTiming(trace1),
        syntheticGraphTiming(trace2) };
    if (syntheticTiming[0] || syntheticTiming[1])
        report.timeGap.verdict = timeGapVerdict(
            report.timeGap, report.sideNames, { syntheticTiming[0].has_value(), syntheticTiming[1].has_value() });
    // Said before the gap it changes: a trace that stopped recording a graph's kernels looks faster.
    report.timeGap.verdict = unrecordedWorkLead(report.graphComparison, { "A", "B" }) + report.timeGap.verdict;
    if (report.opAlignment.differentWork) {
        // Said first: a bold "A is slower by 479 ms" reads as a finding about one workload.
        report.timeGap.differentWork = true;
        report.timeGap.verdict = "Not the same work: only " + fixed(report.opAlignment.matchedShare * 100, 0)
            + "% of the operations line up, so the traces do not appear to run the same model or workload, and the "
              "times below compare different work. "
            + report.timeGap.verdict;
    }
    report.whereToLookFirst = rankWhereToLookFirst(report, accounting);
    judgeLookFirstNoise(report);
    noteSyntheticGraphTiming(report, syntheticTiming);
    return report;
}

} // namespace fusiondiff
