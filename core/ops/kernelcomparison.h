#pragma once

#include "model/opreport.h"
#include "ops/sequencealignment.h"

#include <array>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace fusiondiff {

// What the explanations need to name things.
struct NamingContext
{
    const std::vector<std::string>& typeNames;
    const std::vector<std::string>& tagNames;
    std::array<std::string, 2> sideNames;
};

// Aligns the kernels of one operation (or graph) on the two sides by type and finds the runs of
// kernels one side runs where the other has none, each explained in words: with fusion tags when
// the other side's neighbouring kernel carries what the run does ("B's GEMM carries the relu
// that A runs as a separate Activation kernel"), else plainly.
struct KernelListComparison
{
    std::vector<AlignedPair> alignment;
    bool inChunks = false; // too many kernels for one scored alignment (alignScoredWithin): aligned in chunks
    std::vector<ExtraRun> runs;
};

// `maxCells` bounds the alignment's table (alignScoredWithin).
KernelListComparison compareKernelLists(const std::array<std::vector<FindingKernel>, 2>& kernels,
    const NamingContext& naming, size_t maxCells = kMaxScoredCells);

// The same with the kernels already aligned (for lists too long for a scored alignment).
KernelListComparison compareKernelLists(const std::array<std::vector<FindingKernel>, 2>& kernels,
    std::vector<AlignedPair> alignment, const NamingContext& naming);

// "GEMM, Activation, Elementwise x3" (repeats folded), at most `maxParts` parts then "...".
std::string describeTypes(const std::vector<FindingKernel>& kernels, std::span<const uint32_t> which,
    const std::vector<std::string>& typeNames, size_t maxParts = 6);

// What a finding's summary calls one occurrence: a call of an operation, a launch of a graph.
struct OccurrenceNoun
{
    std::string_view one;
    std::string_view many;
};
inline constexpr OccurrenceNoun kCallNoun { "call", "calls" };
inline constexpr OccurrenceNoun kLaunchNoun { "launch", "launches" };

// A finding in one sentence: "aten::linear: AMD runs 2 kernels (GEMM, Activation) where NVIDIA runs
// 1 (GEMM), in 1,206 calls; AMD takes 6.0 us and NVIDIA 3.0 us per call (median)". For whole graphs
// (`wholeGraphs`) of which fewer than half the kernels line up by type, it adds that these may not
// run the same model.
std::string findingSummary(
    const OpFinding& finding, const NamingContext& naming, OccurrenceNoun noun, bool wholeGraphs);

// A kernel name short enough for a sentence: template arguments and parameters dropped.
std::string shortKernelName(const std::string& name);

} // namespace fusiondiff
