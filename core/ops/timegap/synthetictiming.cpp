#include "ops/timegap/synthetictiming.h"

#include "model/fusionreport.h"
#include "model/tracestore.h"
#include "util/plural.h"
#include "util/textformat.h"

#include <algorithm>
#include <unordered_set>
#include <vector>

namespace fusiondiff {

std::optional<SyntheticGraphTiming> syntheticGraphTiming(const TraceStore& store)
{
    std::unordered_set<int64_t> graphCorrelations;
    for (const RuntimeEvent& call : store.runtimeCalls) {
        if (call.graphLaunch && call.correlation != kNoId)
            graphCorrelations.insert(call.correlation);
    }
    if (graphCorrelations.empty())
        return std::nullopt;
    std::vector<uint32_t> inGraphs;
    for (uint32_t k = 0; k < store.kernels.size(); ++k) {
        if (graphCorrelations.contains(store.kernels[k].correlation))
            inGraphs.push_back(k);
    }
    std::sort(inGraphs.begin(), inGraphs.end(), [&store](uint32_t a, uint32_t b) {
        const KernelEvent& x = store.kernels[a];
        const KernelEvent& y = store.kernels[b];
        if (x.correlation != y.correlation)
            return x.correlation < y.correlation;
        if (x.stream != y.stream)
            return x.stream < y.stream;
        return x.ts < y.ts;
    });
    SyntheticGraphTiming timing;
    for (size_t i = 1; i < inGraphs.size(); ++i) {
        const KernelEvent& before = store.kernels[inGraphs[i - 1]];
        const KernelEvent& kernel = store.kernels[inGraphs[i]];
        if (kernel.correlation != before.correlation || kernel.stream != before.stream)
            continue;
        ++timing.gaps;
        timing.gapsUs += std::max(0.0, kernel.ts - (before.ts + before.dur));
    }
    if (timing.gaps < kMinSyntheticGaps || timing.gapsUs > kMaxSyntheticGapUs * double(timing.gaps))
        return std::nullopt;
    return timing;
}

void noteSyntheticGraphTiming(FusionReport& report, const std::array<std::optional<SyntheticGraphTiming>, 2>& sides)
{
    std::string which;
    for (size_t side = 0; side < 2; ++side) {
        if (!sides[side])
            continue;
        const std::string letter = side == 0 ? "A" : "B";
        report.stepTime.notes.push_back(letter + " (" + report.sideNames[side]
            + ") records the kernels of its graph launches back to back ("
            + countedNoun(sides[side]->gaps, "gap", "gaps") + " between them, " + formatDuration(sides[side]->gapsUs)
            + " in all): its trace folds the graphs' launch bubbles into the kernels' durations, so it cannot show "
              "launch idle inside its graphs, and its graph kernels' speed includes that idle.");
        which += which.empty() ? letter : " and " + letter;
    }
    if (which.empty())
        return;
    for (LookFirstEntry& entry : report.whereToLookFirst) {
        if (entry.kind != LookFirstKind::Launch)
            continue;
        entry.noise = NoiseVerdict::CannotTell;
        entry.details.push_back("cannot be compared as measured: " + which
            + " records its graph kernels back to back, so its launch idle inside graphs is not visible");
    }
}

} // namespace fusiondiff
