#pragma once

#include "ops/alignment/opalignment.h"

#include <array>
#include <cstdint>
#include <vector>

namespace fusiondiff {

struct GapPairing
{
    uint64_t groups = 0; // pairs made of what both sides left between two pairs
    uint64_t joined = 0; // occurrences of one side joined to a neighbouring pair
    uint64_t reordered = 0; // pairs of operations one side runs in another order than the other
};

// The operations the alignment left unpaired between two consecutive pairs of a segment (or
// between a pair and the segment's start or end) are the same work done differently: one stack's
// custom operator where the other runs two standard ones, a GEMM followed by a split-K reduce
// operator. Compared as such, not as work one side runs alone:
// - pairs the alignment made on kernels alone between operations that each pair with another
//   operation in most of their pairs (usual partners, both ways) are undone: a shared first
//   kernel says less than names paired everywhere else (the level counts keep them);
// - first, an operation left on both sides at most two gaps apart whose names pair with
//   each other in most of their pairs (one trace ran it before a neighbour, the other after)
//   makes a pair, at `level` + 2, and is no longer part of its gap;
// - then, what continues a neighbouring pair's innermost module or Python function on its side
//   joins that pair (B's split-K reduce operator right after the GEMM in its Linear);
// - what is left on both sides between two pairs (at most kLargestGap operations a side) makes one
//   more pair, at `level` (A's four scaling operators against B's one fused operator);
// - what is left on one side only joins the neighbouring pair whose operation on that side is in
//   the same innermost module or Python function (or inside the module the operation is in; the
//   earlier pair on a tie), and stays unpaired if neither is.
// Adds to `matches`; the pairs it joins occurrences to keep their place.
GapPairing pairTheGaps(const std::array<PreparedSide, 2>& sides, const std::vector<AlignedSegment>& segments,
    std::vector<PhaseMatch>& matches, uint32_t level);

} // namespace fusiondiff
