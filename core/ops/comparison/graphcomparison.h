#pragma once

#include "classify/classifier.h"
#include "model/graphreport.h"
#include "model/opreport.h"
#include "ops/comparison/graphlaunches.h"
#include "ops/comparison/kernelpairs.h"

#include <array>
#include <span>
#include <string>
#include <vector>

namespace fusiondiff {

struct KernelTypes;
struct TraceStore;

struct GraphComparisonTrace
{
    const TraceStore& store;
    const KernelTypes& types;
    std::span<const SharedCorrelation> shared; // kernel groups of two or more that share a correlation id
    const CaptureTrace* capture = nullptr; // the graph-capture trace of this side, if the user gave one
};

struct ComparedGraphKernel
{
    enum class Role : uint8_t
    {
        Paired,
        Aligned,
        Extra,
        NotCompared, // a counterpart exists, but the other side's trace does not record its kernels
        Work, // in a copy of a repeated block the other side runs fewer times: a difference in work
    };
    uint32_t kernel = 0; // index into TraceStore::kernels
    Role role = Role::Paired;
    uint32_t pattern = 0; // index into GraphComparisonResult::patternNames
};

// When a graph launch was issued (GraphLaunch::cpuTs) and its GPU time, to place it in a step.
struct GraphLaunchTime
{
    double cpuTs = 0;
    double timeUs = 0;
};

struct GraphComparisonResult
{
    GraphComparison comparison;
    std::vector<OpFinding> findings; // graphs (or graph parts) whose kernels differ, by saving
    std::vector<OpSummary> summaries; // one per matched kind pair and per kind of covered part
    std::vector<ExtraKernels> extraKernels; // by type (every category), over the findings
    // Kernels replayed by graphs, per side, to leave out of the operation comparison; empty when a
    // side has no graphs (then they are compared with the operations that launched them).
    std::array<std::vector<uint32_t>, 2> graphKernels;
    // Per side, the graph kernels compared graph against graph, for the time gap (ops/timegap/timegap.h):
    // paired (the two graphs run as many kernels), aligned or extra (their counts differ), with the
    // index of their pattern's name in patternNames.
    std::array<std::vector<ComparedGraphKernel>, 2> comparedKernels;
    std::vector<std::string> patternNames;
    KernelPairTally kernelPairs; // the kernels of compared graphs (and graph parts), paired
    // Per side and kind (GraphComparison::kinds), its launches in order: what addGraphPhases
    // (graphphases.h) splits by phase once the steps are known.
    std::array<std::vector<std::vector<GraphLaunchTime>>, 2> kindLaunches;
};

// Graphs compared as units, whatever their size. Each trace's graph launches are grouped into
// kinds (the same kernels in the same order); the kernel type sequences of the first launches of
// both traces are aligned (as many as a bounded alignment holds), which pairs each launch with the
// launch (or launches) of the other trace that do the same work. Kinds whose launches pair one to
// one are matched, a launch that does the work of several of the other side's is reported as
// covering them, part by part; kinds left over are matched by how well their kernel types align.
// Matched kinds and covered parts are compared kernel by kernel, and named after the captured
// operations when a capture trace is given.
GraphComparisonResult compareGraphs(const std::array<GraphComparisonTrace, 2>& traces, const Classifier& classifier,
    const std::array<std::string, 2>& sideNames);

} // namespace fusiondiff
