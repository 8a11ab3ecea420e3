#include "ops/comparison/graphlaunches.h"

#include "classify/kerneltypes.h"
#include "model/tracestore.h"
#include "ops/alignment/sequencealignment.h"
#include "ops/attribution/profilersteps.h"
#include "util/idmap.h"

#include <algorithm>
#include <unordered_map>

namespace fusiondiff {

namespace {

uint64_t hashNames(const std::vector<StringId>& names)
{
    uint64_t hash = 1469598103934665603ull;
    for (const StringId name : names)
        hash = (hash ^ name) * 1099511628211ull;
    return hash ^ names.size();
}

void assignSteps(const TraceStore& store, TraceGraphs& graphs)
{
    const std::vector<StepSpan> steps = profilerSteps(store);
    graphs.steps = steps.size();
    if (steps.empty())
        return;
    for (GraphLaunch& launch : graphs.launches) {
        if (launch.recorded)
            launch.step = stepAt(steps, launch.cpuTs);
    }
}

// Kernel pairs the similarity of two kinds may score; larger pairs compare type counts.
constexpr size_t kKindCells = size_t(4) << 20;

std::vector<CategoryId> typeCountsOf(const GraphLaunchKind& kind, size_t typeCount)
{
    std::vector<CategoryId> counts(typeCount, 0);
    for (const CategoryId type : kind.types)
        counts[type] = CategoryId(std::min<int>(counts[type] + 1, 65535));
    return counts;
}

} // namespace

std::vector<int32_t> mapKindsToCaptures(const TraceStore& store, const TraceGraphs& graphs, const CaptureTrace* capture)
{
    std::vector<int32_t> captured(graphs.kinds.size(), -1);
    if (!capture)
        return captured;
    for (size_t k = 0; k < graphs.kinds.size(); ++k) {
        const GraphLaunchKind& kind = graphs.kinds[k];
        double best = 0.8; // the least share of equal names accepted
        for (size_t g = 0; g < capture->graphs.size(); ++g) {
            const CapturedGraph& graph = capture->graphs[g];
            if (graph.launches.size() != kind.names.size())
                continue;
            size_t equal = 0;
            size_t unnamed = 0;
            for (size_t p = 0; p < kind.names.size(); ++p) {
                equal += graph.launches[p].kernel == store.name(kind.names[p]);
                unnamed += graph.launches[p].kernel.empty();
            }
            const double share
                = unnamed == kind.names.size() ? 0.81 : double(equal) / double(std::max<size_t>(1, kind.names.size()));
            if (share > best) {
                best = share;
                captured[k] = int32_t(g);
            }
            if (share == 1.0)
                break;
        }
    }
    return captured;
}

double kindAgreement(const GraphLaunchKind& a, const GraphLaunchKind& b, size_t typeCount)
{
    const size_t longer = std::max(a.types.size(), b.types.size());
    if (longer == 0)
        return 0;
    size_t same = 0;
    if (a.types.size() * b.types.size() <= kKindCells) {
        for (const AlignedPair& pair : alignScored(a.types, b.types))
            same += pair.isMatch() && a.types[size_t(pair.first)] == b.types[size_t(pair.second)];
    } else {
        const std::vector<CategoryId> countsA = typeCountsOf(a, typeCount);
        const std::vector<CategoryId> countsB = typeCountsOf(b, typeCount);
        for (size_t t = 0; t < typeCount; ++t)
            same += std::min(countsA[t], countsB[t]);
    }
    return double(same) / double(longer);
}

TraceGraphs findGraphLaunches(
    const TraceStore& store, const KernelTypes& types, std::span<const SharedCorrelation> shared)
{
    TraceGraphs graphs;
    IdMap launchCall(64);
    std::vector<uint32_t> calls;
    for (uint32_t i = 0; i < store.runtimeCalls.size(); ++i) {
        const RuntimeEvent& call = store.runtimeCalls[i];
        if (call.graphLaunch && call.correlation != kNoId
            && launchCall.findOrInsert(call.correlation, uint32_t(calls.size())) == calls.size())
            calls.push_back(i);
    }
    std::vector<bool> callHasKernels(calls.size(), false);
    // Groups whose correlation is not a graph launch's: graphs only if no runtime call carries it.
    std::vector<const SharedCorrelation*> orphans;
    for (const SharedCorrelation& group : shared) {
        const uint32_t call = launchCall.find(group.correlation);
        if (call == IdMap::kMissing) {
            orphans.push_back(&group);
            continue;
        }
        callHasKernels[call] = true;
        GraphLaunch launch;
        launch.correlation = group.correlation;
        launch.cpuTs = store.runtimeCalls[calls[call]].ts;
        launch.pid = store.runtimeCalls[calls[call]].pid;
        launch.kernels = inTimeOrder(store, group.kernels);
        graphs.launches.push_back(std::move(launch));
    }
    if (!orphans.empty()) {
        IdMap anyCall(idRangeOf(store.runtimeCalls, &RuntimeEvent::correlation, kNoId));
        for (const RuntimeEvent& call : store.runtimeCalls) {
            if (call.correlation != kNoId)
                anyCall.findOrInsert(call.correlation, 0);
        }
        for (const SharedCorrelation* group : orphans) {
            if (anyCall.find(group->correlation) != IdMap::kMissing)
                continue;
            GraphLaunch launch;
            launch.correlation = group->correlation;
            launch.recorded = false;
            launch.kernels = inTimeOrder(store, group->kernels);
            launch.cpuTs = store.kernels[launch.kernels.front()].ts;
            graphs.launches.push_back(std::move(launch));
        }
    }
    // Single-kernel graph launches are not among the shared correlations: add them.
    IdMap seen(graphs.launches.size() + 16);
    for (const GraphLaunch& launch : graphs.launches)
        seen.findOrInsert(launch.correlation, 0);
    std::vector<uint32_t> singleKernel(calls.size(), IdMap::kMissing);
    bool anySingle = false;
    for (size_t c = 0; c < calls.size(); ++c)
        anySingle = anySingle || !callHasKernels[c];
    if (anySingle) {
        for (uint32_t k = 0; k < store.kernels.size(); ++k) {
            const uint32_t call = store.kernels[k].correlation == kNoId ? IdMap::kMissing
                                                                        : launchCall.find(store.kernels[k].correlation);
            if (call != IdMap::kMissing && !callHasKernels[call])
                singleKernel[call] = k;
        }
    }
    for (size_t c = 0; c < calls.size(); ++c) {
        if (callHasKernels[c])
            continue;
        if (singleKernel[c] == IdMap::kMissing) {
            ++graphs.launchesWithoutKernels;
            continue;
        }
        GraphLaunch launch;
        launch.correlation = store.runtimeCalls[calls[c]].correlation;
        launch.cpuTs = store.runtimeCalls[calls[c]].ts;
        launch.pid = store.runtimeCalls[calls[c]].pid;
        launch.kernels = { singleKernel[c] };
        graphs.launches.push_back(std::move(launch));
    }

    std::stable_sort(graphs.launches.begin(), graphs.launches.end(), [&](const GraphLaunch& a, const GraphLaunch& b) {
        return store.kernels[a.kernels.front()].ts < store.kernels[b.kernels.front()].ts;
    });

    std::unordered_multimap<uint64_t, uint32_t> kindOfHash;
    std::vector<StringId> names;
    for (uint32_t l = 0; l < graphs.launches.size(); ++l) {
        GraphLaunch& launch = graphs.launches[l];
        names.clear();
        for (const uint32_t k : launch.kernels) {
            names.push_back(store.kernels[k].name);
            launch.timeUs += store.kernels[k].dur;
        }
        const uint64_t hash = hashNames(names);
        uint32_t kind = uint32_t(graphs.kinds.size());
        const auto [begin, end] = kindOfHash.equal_range(hash);
        for (auto it = begin; it != end; ++it) {
            if (graphs.kinds[it->second].names == names) {
                kind = it->second;
                break;
            }
        }
        if (kind == graphs.kinds.size()) {
            kindOfHash.emplace(hash, kind);
            graphs.kinds.push_back({ names, typesOf(types, launch.kernels), {} });
        }
        launch.kind = kind;
        graphs.kinds[kind].launches.push_back(l);
    }
    assignSteps(store, graphs);
    return graphs;
}

} // namespace fusiondiff
