#pragma once

#include "model/categoryid.h"
#include "model/graphreport.h"
#include "model/stringtable.h"

#include <cstdint>
#include <span>
#include <vector>

namespace fusiondiff {

struct KernelTypes;
struct TraceStore;

// Kernels that share one correlation id: a candidate graph launch (eager launches hold one).
struct SharedCorrelation
{
    int64_t correlation = 0;
    std::span<const uint32_t> kernels; // indices into TraceStore::kernels
};

// One replay of a CUDA/HIP graph: the kernels that carry its launch's correlation id.
struct GraphLaunch
{
    int64_t correlation = 0;
    bool recorded = true; // the cudaGraphLaunch/hipGraphLaunch call is in the trace
    int64_t pid = -1; // the launching process (the call's), -1 if the call is not recorded
    double cpuTs = 0; // when it was launched (the first kernel's start if the call is not recorded)
    std::vector<uint32_t> kernels; // in time order
    double timeUs = 0; // GPU kernel time
    uint32_t kind = 0; // index into TraceGraphs::kinds
    int32_t step = -1; // the profiler step it was launched in, -1 if none
};

// Launches that replay the same kernel names in the same order.
struct GraphLaunchKind
{
    std::vector<StringId> names;
    std::vector<CategoryId> types;
    std::vector<uint32_t> launches; // indices into TraceGraphs::launches, in order
};

struct TraceGraphs
{
    std::vector<GraphLaunch> launches; // by their first kernel's start
    std::vector<GraphLaunchKind> kinds; // by their first launch
    uint64_t launchesWithoutKernels = 0; // graph launch calls none of whose kernels is in the trace
    uint64_t steps = 0; // profiler steps (ops/attribution/profilersteps.h)
};

// The graph launches of a trace: every kernel group of `shared` whose correlation id is a graph
// launch call's, or belongs to no runtime call at all (the launch is not in the trace), grouped
// into kinds.
TraceGraphs findGraphLaunches(
    const TraceStore& store, const KernelTypes& types, std::span<const SharedCorrelation> shared);

// The captured graph that each kind replays (index into capture->graphs, -1 if none): the one with
// the same kernel names in the same order; else the one of the same length with the most equal
// names (at least 80%), or, where the capture records no names, the first of the same length.
std::vector<int32_t> mapKindsToCaptures(
    const TraceStore& store, const TraceGraphs& graphs, const CaptureTrace* capture);

// The share of the kernels of two kinds that pair with one of the same type (aligned by type, or
// by type counts for very long kinds), over the longer one.
double kindAgreement(const GraphLaunchKind& a, const GraphLaunchKind& b, size_t typeCount);

} // namespace fusiondiff
