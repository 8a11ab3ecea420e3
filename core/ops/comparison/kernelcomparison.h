#pragma once

#include "model/opreport.h"
#include "ops/alignment/sequencealignment.h"

#include <array>
#include <span>
#include <string>
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

// A kernel name short enough for a sentence: demangled, its return type, template arguments and
// parameters dropped.
std::string shortKernelName(const std::string& name);

} // namespace fusiondiff
