#pragma once

#include "model/opreport.h"
#include "ops/attribution/iterations.h"
#include "ops/attribution/opoccurrences.h"

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace fusiondiff {

struct KernelAttribution;
struct KernelTypes;
struct TraceStore;

// One trace as the operation comparison sees it: its operation calls, steps and layers.
struct PreparedSide
{
    const TraceStore& store;
    const KernelTypes& types;
    const KernelAttribution& attribution;
    std::vector<OpOccurrence> occurrences;
    TraceIterations iterations;
    std::vector<int32_t> layerOf; // per occurrence: its layer's index in the step, -1 outside layers
};

// Two operation occurrences the alignment paired, with the occurrences around them that were
// taken as part of the same work (ops/alignment/gappairs.h).
struct PhaseMatch
{
    uint32_t first = 0; // occurrence indices
    uint32_t second = 0;
    uint32_t level = 0; // into OpAlignment::levels
    std::array<std::vector<uint32_t>, 2> joined {}; // further occurrences of each side, in order

    // The occurrences of `side` in the pair, in order.
    std::vector<uint32_t> occurrences(size_t side) const;
};

// A stretch of both traces aligned on its own: a pair of phases, or of layer segments in them.
using AlignedSegment = std::array<std::vector<uint32_t>, 2>; // occurrence indices of each side, in order

// Lines up the two traces' operation occurrences, phase by phase (pairing phases that run the same
// operations), on the names of `level` alone or, for OpLevel::Auto, layer by layer (ops/alignment/layers.h)
// and level by level (autoAlignmentLevels), falling through to coarser keys where names differ.
// Sets each side's layerOf and fills `alignment`: what each level paired, the layers, the matched
// share, whether the traces run the same work (comparable), the verdict and notes on missing
// structure. With `sidesInParallel`, work of one side alone runs on a thread per side; the
// alignment is the same.
std::vector<PhaseMatch> alignOperations(std::array<PreparedSide, 2>& sides, OpLevel level,
    const std::array<std::string, 2>& sideNames, OpAlignment& alignment, bool sidesInParallel = false);

// The occurrences of the compared phases that found no partner (side, occurrence): work one side
// runs and the other does not.
std::vector<std::pair<size_t, uint32_t>> unpairedOccurrences(
    const std::array<PreparedSide, 2>& sides, const std::vector<PhaseMatch>& matches);

} // namespace fusiondiff
