#include "ops/graphfindings.h"

#include "classify/kerneltypes.h"
#include "model/tracestore.h"
#include "ops/sequencealignment.h"

#include <algorithm>
#include <cmath>

namespace fusiondiff {

namespace {

bool isPlumbingFrame(const std::string& frame)
{
    return frame.starts_with("<") || frame.starts_with("torch/") || frame.starts_with("triton/")
        || frame.find("/site-packages/torch/") != std::string::npos;
}

// The median of `values` (reordered), as spreadOf computes it, without sorting all of them: a
// graph kind pair of thousands of launches takes one per kernel position.
double medianOf(std::vector<double>& values)
{
    if (values.empty())
        return 0;
    const size_t middle = (values.size() - 1) / 2;
    std::nth_element(values.begin(), values.begin() + std::ptrdiff_t(middle), values.end());
    const double lower = values[middle];
    if (values.size() % 2 == 1)
        return lower;
    const double upper = *std::min_element(values.begin() + std::ptrdiff_t(middle) + 1, values.end());
    return lower + (upper - lower) * 0.5;
}

} // namespace

std::vector<AlignedPair> alignGraphKernels(std::span<const uint16_t> first, std::span<const uint16_t> second)
{
    return alignScoredWithin(first, second, kScoredCells).pairs;
}

std::vector<double> occurrenceTimes(const TraceStore& store, const std::vector<std::vector<uint32_t>>& occurrences)
{
    std::vector<double> times;
    times.reserve(occurrences.size());
    for (const auto& kernels : occurrences) {
        double total = 0;
        for (const uint32_t k : kernels)
            total += store.kernels[k].dur;
        times.push_back(total);
    }
    return times;
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
    for (size_t side = 0; side < 2; ++side) {
        const GraphSide& graph = sides[side];
        const auto& occurrences = pattern.occurrences[side];
        const std::vector<uint32_t>& first = occurrences.front();
        finding.firstTs[side] = first.empty() ? 0 : graph.store.kernels[first.front()].ts;
        std::vector<double> durations(occurrences.size());
        for (size_t position = 0; position < first.size(); ++position) {
            const KernelEvent& kernel = graph.store.kernels[first[position]];
            for (size_t o = 0; o < occurrences.size(); ++o)
                durations[o] = graph.store.kernels[occurrences[o][position]].dur;
            finding.kernels[side].push_back({ std::string(graph.store.name(kernel.name)),
                graph.types.ofKernel[first[position]], graph.types.tagsOfName[kernel.name], medianOf(durations) });
        }
        times[side] = occurrenceTimes(graph.store, occurrences);
        finding.timeUs[side] = spreadOf(times[side]);
    }
    const size_t count1 = finding.kernels[0].size();
    const size_t count2 = finding.kernels[1].size();
    finding.fusedSide = count1 > count2 ? Side::Trace2 : Side::Trace1;
    const size_t unfused = sideIndex(otherSide(finding.fusedSide));
    const size_t fused = sideIndex(finding.fusedSide);
    finding.launchDifference = int64_t(finding.kernels[unfused].size()) - int64_t(finding.kernels[fused].size());
    for (size_t o = 0; o < finding.occurrences; ++o)
        finding.savingUs += std::max(0.0, times[unfused][o] - times[fused][o]);

    std::array<std::vector<uint16_t>, 2> types;
    for (size_t side = 0; side < 2; ++side) {
        for (const FindingKernel& kernel : finding.kernels[side])
            types[side].push_back(kernel.type);
    }
    KernelListComparison comparison
        = compareKernelLists(finding.kernels, alignGraphKernels(types[0], types[1]), naming);
    finding.alignment = std::move(comparison.alignment);
    const auto sameType = std::count_if(finding.alignment.begin(), finding.alignment.end(), [&](const AlignedPair& p) {
        return p.isMatch() && finding.kernels[0][size_t(p.first)].type == finding.kernels[1][size_t(p.second)].type;
    });
    finding.typeAgreement = double(sameType) / double(std::max<size_t>(1, std::max(count1, count2)));
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
    // Every kernel the alignment leaves unpaired is extra (runs that repeat are listed once).
    std::array<double, 2> extraTime {};
    for (const AlignedPair& pair : finding.alignment) {
        if (pair.isMatch())
            continue;
        const size_t side = pair.first >= 0 ? 0 : 1;
        const auto k = size_t(side == 0 ? pair.first : pair.second);
        const CategoryId type = finding.kernels[side][k].type;
        extras[type].kernels[side] += finding.occurrences;
        for (const auto& kernels : pattern.occurrences[side]) {
            extras[type].timeUs[side] += sides[side].store.kernels[kernels[k]].dur;
            extraTime[side] += sides[side].store.kernels[kernels[k]].dur;
        }
    }
    // The time difference split as for operation findings (OpFinding::savingExtraKernelsUs).
    std::array<double, 2> total {};
    for (size_t side = 0; side < 2; ++side) {
        for (const double t : times[side])
            total[side] += t;
    }
    finding.savingExtraKernelsUs = extraTime[unfused] - extraTime[fused];
    finding.savingSpeedUs = (total[unfused] - extraTime[unfused]) - (total[fused] - extraTime[fused]);
    finding.summary = findingSummary(finding, naming, kLaunchNoun, !pattern.isPart);
    return finding;
}

} // namespace fusiondiff
