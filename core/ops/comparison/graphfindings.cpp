#include "ops/comparison/graphfindings.h"

#include "classify/kerneltypes.h"
#include "model/tracestore.h"
#include "ops/alignment/sequencealignment.h"
#include "ops/attribution/opattribution.h"
#include "ops/attribution/opoccurrences.h"
#include "ops/comparison/collectivepart.h"
#include "ops/comparison/findingparts.h"
#include "ops/comparison/repeatedblocks.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace fusiondiff {

namespace {

bool isPlumbingFrame(const std::string& frame)
{
    return frame.starts_with("<") || frame.starts_with("torch/") || frame.starts_with("triton/")
        || frame.find("/site-packages/torch/") != std::string::npos;
}

} // namespace

std::vector<AlignedPair> alignGraphKernels(std::span<const uint16_t> first, std::span<const uint16_t> second)
{
    return alignScoredWithin(first, second, kScoredCells).pairs;
}

std::string capturedOperation(const CapturedLaunch& launch)
{
    std::string frame;
    for (size_t k = launch.stack.size(); k-- > 0;) {
        // Python frames read "file.py(line): function"; operators have no "(line): ".
        const std::string& entry = launch.stack[k];
        if (entry.find(".py(") != std::string::npos && !isPlumbingFrame(entry)) {
            frame = entry;
            break;
        }
    }
    if (launch.op.empty())
        return frame;
    return frame.empty() || frame == launch.op ? launch.op : launch.op + " (" + frame + ")";
}

OpFinding graphFinding(const GraphPattern& pattern, const std::array<GraphSide, 2>& sides, const NamingContext& naming,
    std::vector<ExtraKernels>& extras)
{
    OpFinding finding;
    finding.op = pattern.op;
    finding.isGraph = true;
    finding.occurrences = pattern.occurrences[0].size();
    std::array<std::vector<double>, 2> times;
    std::array<std::vector<bool>, 2> collectives;
    for (size_t side = 0; side < 2; ++side) {
        const GraphSide& graph = sides[side];
        const auto& occurrences = pattern.occurrences[side];
        const std::vector<uint32_t>& first = occurrences.front();
        finding.firstTs[side] = first.empty() ? 0 : graph.store.kernels[first.front()].ts;
        finding.firstKernels[side] = first;
        finding.kernels[side] = findingKernels(graph.store, graph.types, occurrences);
        collectives[side] = collectivePositions(finding.kernels[side], naming);
        times[side] = occurrenceTimes(graph.store, occurrences, collectives[side]);
        finding.timeUs[side] = spreadOf(times[side]);
    }
    const std::array<const TraceStore*, 2> stores { &sides[0].store, &sides[1].store };
    setCollectiveKernels(finding, stores, pattern.occurrences, collectives);
    setFusedSideAndSaving(finding, times);

    // A block one side repeats more times (a loop over images) is aligned without its extra copies,
    // which then stand unpaired where they run.
    const std::optional<RepeatDifference> repeats = repeatDifference(finding.kernels);
    std::vector<AlignedPair> alignment;
    if (repeats) {
        const CommonKernels common = commonKernels(finding.kernels, *repeats);
        alignment = withExtraCopies(alignGraphKernels(common.types[0], common.types[1]), common, *repeats);
    } else {
        std::array<std::vector<uint16_t>, 2> types;
        for (size_t side = 0; side < 2; ++side) {
            for (const FindingKernel& kernel : finding.kernels[side])
                types[side].push_back(kernel.type);
        }
        alignment = alignGraphKernels(types[0], types[1]);
    }
    KernelListComparison comparison = compareKernelLists(finding.kernels, std::move(alignment), naming);
    finding.alignment = std::move(comparison.alignment);
    finding.typeAgreement = typeAgreement(finding.kernels, finding.alignment);
    finding.extraRuns = std::move(comparison.runs);
    for (ExtraRun& run : finding.extraRuns) {
        const size_t side = sideIndex(run.side);
        const auto& captured = pattern.captured[side];
        const uint32_t position = run.kernels.front();
        if (position < captured.size() && captured[position]) {
            const std::string operation = capturedOperation(*captured[position]);
            if (!operation.empty())
                run.explanation += " (issued by " + operation + ")";
            if (finding.stack.empty())
                finding.stack = captured[position]->stack;
            if (finding.sideStacks[side].empty())
                finding.sideStacks[side] = captured[position]->stack;
        }
    }
    // A graph pair has one name (its kinds); each side's stack is known only from a capture trace.
    finding.sideOps = { finding.op, finding.op };
    finding.alignedOn = "graph";
    if (!repeats) {
        const std::array<double, 2> extraTime
            = addExtraKernels(finding, stores, pattern.occurrences, extras, collectives);
        splitSaving(finding, times, extraTime);
        finding.summary
            = findingSummary(finding, naming, kLaunchNoun, !pattern.isPart) + collectiveText(finding, naming);
        return finding;
    }
    // The extra copies are work the other side does not do: out of the extra kernels and the speed.
    OpFinding common = finding;
    std::erase_if(common.alignment, [&](const AlignedPair& pair) {
        const int64_t position = repeats->more == 0 ? pair.first : pair.second;
        return !pair.isMatch() && position >= int64_t(repeats->extraPositions.front())
            && position <= int64_t(repeats->extraPositions.back());
    });
    const std::array<double, 2> extraTime = addExtraKernels(common, stores, pattern.occurrences, extras, collectives);
    double workUs = 0;
    for (const auto& kernels : pattern.occurrences[repeats->more]) {
        for (const uint32_t position : repeats->extraPositions) {
            if (!collectives[repeats->more][position])
                workUs += sides[repeats->more].store.kernels[kernels[position]].dur;
        }
    }
    splitSaving(finding, times, extraTime);
    // Which side fuses is told by the work both do: the kernels without the extra copies.
    std::array<int64_t, 2> commonCount { int64_t(finding.kernels[0].size() - finding.collectiveKernels[0]),
        int64_t(finding.kernels[1].size() - finding.collectiveKernels[1]) };
    commonCount[repeats->more] -= int64_t(repeats->extraPositions.size());
    finding.fusedSide = commonCount[0] > commonCount[1] ? Side::Trace2 : Side::Trace1;
    finding.launchDifference = std::abs(commonCount[0] - commonCount[1]);
    finding.savingWorkUs = sideIndex(finding.slowerSide) == repeats->more ? workUs : -workUs;
    finding.savingSpeedUs -= finding.savingWorkUs;
    for (size_t side = 0; side < 2; ++side) {
        finding.blockCopies[side] = repeats->blocks[side].copies;
        finding.blockKernels[side] = repeats->blocks[side].length;
    }
    finding.workPositions = repeats->extraPositions;
    const std::string work
        = repeatDifferenceText(finding, *repeats, naming, workUs / double(std::max<size_t>(1, finding.occurrences)));
    for (ExtraRun& run : finding.extraRuns) {
        if (sideIndex(run.side) == repeats->more && run.kernels.front() >= repeats->extraPositions.front()
            && run.kernels.back() <= repeats->extraPositions.back())
            run.explanation = work;
    }
    finding.summary
        = findingSummary(finding, naming, kLaunchNoun, !pattern.isPart) + "; " + work + collectiveText(finding, naming);
    return finding;
}

void nameGraphLaunchers(std::vector<OpFinding>& findings, const std::array<const TraceStore*, 2>& stores,
    const std::array<const KernelAttribution*, 2>& attributions, OpLevel level,
    const std::array<std::string, 2>& sideNames)
{
    std::array<std::vector<uint32_t>, 2> firstKernels;
    for (const OpFinding& finding : findings) {
        for (size_t side = 0; side < 2; ++side) {
            const auto& kernels = finding.firstKernels[side];
            firstKernels[side].push_back(kernels.empty() ? UINT32_MAX : kernels.front());
        }
    }
    std::array<std::vector<std::string>, 2> launchers;
    for (size_t side = 0; side < 2; ++side)
        launchers[side] = operationNamesOf(*stores[side], *attributions[side], level, firstKernels[side]);
    for (size_t f = 0; f < findings.size(); ++f) {
        OpFinding& finding = findings[f];
        if (!finding.isGraph)
            continue;
        const std::array<std::string, 2> launcher { launchers[0][f], launchers[1][f] };
        for (size_t side = 0; side < 2; ++side) {
            if (!launcher[side].empty())
                finding.sideOps[side] = launcher[side];
        }
        if (launcher[0].empty() && launcher[1].empty())
            continue;
        if (launcher[0] == launcher[1]) {
            finding.summary += "; launched by " + launcher[0] + " on both sides";
            continue;
        }
        for (size_t side = 0; side < 2; ++side) {
            if (!launcher[side].empty())
                finding.summary += (side == 0 || launcher[0].empty() ? "; launched by " : " and ") + sideNames[side]
                    + "'s " + launcher[side];
        }
    }
}

} // namespace fusiondiff
