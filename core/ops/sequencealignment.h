#pragma once

#include "model/alignedpair.h"

#include <cstdint>
#include <span>
#include <vector>

namespace fusiondiff {

// Aligns two long sequences of symbols (operator names) so that as many equal symbols as possible
// pair up, in order, in near-linear time on sequences that mostly agree. The common prefix and
// suffix are paired first. What remains is aligned exactly (a longest common subsequence, by
// dynamic programming) if it is small (up to 4 million cells); a larger range is split at
// anchors, symbols that occur exactly once on both sides (the longest increasing run of them, as in
// patience diff), and the pieces are aligned the same way; a large range without such anchors is
// aligned in overlapping windows of 1024 x 1024 symbols. Unequal symbols are never paired. Every
// element appears once, in order.
std::vector<AlignedPair> alignSymbols(std::span<const uint32_t> first, std::span<const uint32_t> second);

struct AlignmentScores
{
    int match = 2;
    int mismatch = -1; // pairing two different symbols
    int gap = -1;
};

// Needleman-Wunsch global alignment of two short sequences (the kernel types of one operation or
// graph), where different symbols may pair up. Among equally good alignments the one that pairs
// the earliest elements is chosen, so that results are deterministic and an extra element shows
// as the later of two equal ones. O(n x m) time and memory: for sequences of up to a few thousand.
std::vector<AlignedPair> alignScored(
    std::span<const uint16_t> first, std::span<const uint16_t> second, const AlignmentScores& scores = {});

} // namespace fusiondiff
