#pragma once

#include "classify/classifier.h"
#include "model/opreport.h"
#include "ops/attribution/iterations.h"
#include "ops/comparison/kernelpairs.h"

#include <array>
#include <span>
#include <string>
#include <vector>

namespace fusiondiff {

struct KernelAttribution;
struct KernelTypes;
struct TraceStore;

struct OpComparisonTrace
{
    const TraceStore& store;
    const KernelTypes& types;
    const KernelAttribution& attribution;
};

// A matched pair of correlation groups (graph launches), as kernel indices of each side.
struct GroupKernelsPair
{
    std::array<std::vector<uint32_t>, 2> kernels; // in time order
    std::array<int64_t, 2> correlation {};
    bool compare = true; // false: the kernels are only left out of the operations (compared elsewhere)
};

// How the comparison used each kernel. Every kernel has exactly one role, so that the time gap
// can be split into parts that add up (ops/timegap/timegap.h).
enum class KernelRole : uint8_t
{
    Unattributed, // no launch in the trace
    NotCompared, // attributed, but outside the compared steps and phases, or the traces are not comparable
    OneSide, // in an operation call that found no partner on the other side
    Paired, // in a matched pair with as many kernels on each side
    Aligned, // in a matched pair whose kernel counts differ, aligned with a kernel of the other side
    Extra, // in a matched pair whose kernel counts differ, without a counterpart (an alignment gap)
};

struct KernelRoles
{
    std::array<std::vector<KernelRole>, 2> role; // per side, per kernel
    // Per side, per kernel: the operation it was compared under, an index into opNames (-1: none).
    std::array<std::vector<int32_t>, 2> op;
    std::vector<std::string> opNames;
};

struct OpComparison
{
    KernelRoles roles;
    OpAlignment alignment;
    std::array<Iterations, 2> iterations;
    std::vector<OpFinding> findings; // by the time the unfused side could save, largest first
    std::vector<OpSummary> byOperation; // summaryRanksBefore
    std::vector<ExtraKernels> extraKernels; // by type, in category order
    KernelPairTally kernelPairs; // the kernels of matched occurrences, paired
    std::vector<LayerTimes> layerTimes; // empty unless the traces were aligned layer by layer
    std::array<std::vector<HostStep>, 2> steps; // each side's steps (ops/attribution/iterations.h), for the step time
    std::vector<int64_t> phasePartners; // per phase of trace 1, the phase of trace 2 it compares with (-1: none)
};

// Attributes kernels to the operations that launched them, aligns the two traces' sequences of
// operation occurrences (phase by phase when profiler steps show phases, leaving out a warm-up
// step; with OpLevel::Auto level by level, falling through to coarser keys where names differ),
// and compares the kernels of every matched pair of occurrences and of every matched graph
// group pair. Where the kernel counts differ, occurrences with the same pattern become one finding.
// With `sidesInParallel`, work of one side alone runs on a thread per side; the result is the same.
OpComparison compareOperations(const std::array<OpComparisonTrace, 2>& traces, std::span<const GroupKernelsPair> groups,
    const Classifier& classifier, OpLevel level, const std::array<std::string, 2>& sideNames,
    bool sidesInParallel = false);

// The order of the operation summary (OpComparison::byOperation, the report's opSummary): the
// largest saving first, then the largest total time, then by name.
bool summaryRanksBefore(const OpSummary& a, const OpSummary& b);

} // namespace fusiondiff
