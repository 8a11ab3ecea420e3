#pragma once

#include "model/graphreport.h"
#include "model/opreport.h"
#include "ops/alignment/sequencealignment.h"
#include "ops/comparison/findingparts.h"
#include "ops/comparison/kernelcomparison.h"

#include <array>
#include <span>
#include <string>
#include <vector>

namespace fusiondiff {

struct KernelAttribution;
struct KernelTypes;
struct TraceStore;

struct GraphSide
{
    const TraceStore& store;
    const KernelTypes& types;
};

// Pairs of kernel lists (two graph launches, or a graph and the part of a graph that does its
// work) with the same kernel types on each side: one finding.
struct GraphPattern
{
    std::string op;
    std::array<std::vector<std::vector<uint32_t>>, 2> occurrences; // per side, kernel indices per occurrence
    // Per side and kernel position (of each occurrence): the captured launch, null if unknown.
    std::array<std::vector<const CapturedLaunch*>, 2> captured;
    bool isPart = false; // a graph against the part of a longer graph that does its work
};

// The finding of a pattern: the kernels of both sides aligned by type, the runs one side runs in
// addition explained (and named after the captured operation that issued them, where known), the
// time per occurrence and what the side with more kernels could save. Adds the extra kernels to
// `extras` (indexed by type).
OpFinding graphFinding(const GraphPattern& pattern, const std::array<GraphSide, 2>& sides, const NamingContext& naming,
    std::vector<ExtraKernels>& extras);

// Names each graph finding's operations (sideOps) as the operation comparison names an operation at
// `level`: on each side, the operation whose graph launch call replayed the finding's first
// occurrence. A side whose launch call is not in the trace keeps the graph kinds' name. The summary
// says which operation launches the graph.
void nameGraphLaunchers(std::vector<OpFinding>& findings, const std::array<const TraceStore*, 2>& stores,
    const std::array<const KernelAttribution*, 2>& attributions, OpLevel level,
    const std::array<std::string, 2>& sideNames);

// The kernel types of two graphs aligned, scored (Needleman-Wunsch, which pairs kernels of
// different types too); beyond kScoredCells kernel pairs (graphs of tens of thousands of kernels
// would not fit in memory), in consecutive chunks of both, cut in proportion to their lengths.
constexpr size_t kScoredCells = kMaxScoredCells;
std::vector<AlignedPair> alignGraphKernels(std::span<const uint16_t> first, std::span<const uint16_t> second);

// "aiter::gemm_a16w16 (aiter/tuned_gemm.py(246): gemm_a16w16)": the operation that issued a
// captured launch and the innermost Python frame of the model's or library's code.
std::string capturedOperation(const CapturedLaunch& launch);

} // namespace fusiondiff
