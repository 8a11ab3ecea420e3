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
//
// `work`, if given, receives what the alignment did (for tests that check its growth, and
// benchmarks): a quadratic alignment fills first.size() x second.size() table cells.
struct AlignmentWork
{
    uint64_t tableCells = 0; // dynamic-programming cells filled
    uint64_t symbolsScanned = 0; // symbols read to pair common prefixes and suffixes and find anchors
};
std::vector<AlignedPair> alignSymbols(
    std::span<const uint32_t> first, std::span<const uint32_t> second, AlignmentWork* work = nullptr);

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

// A score for every pair of symbols, where pairing some different symbols is better than others
// (kernels of one role but different types) and some worse than two gaps (kernels of different
// roles). Symbols are 0 .. size - 1.
struct PairScores
{
    size_t size = 0;
    std::vector<int> score; // size x size, row-major: score[a * size + b]
    int gap = -1;

    int at(uint16_t a, uint16_t b) const { return score[size_t(a) * size + b]; }
};
std::vector<AlignedPair> alignScored(
    std::span<const uint16_t> first, std::span<const uint16_t> second, const PairScores& scores);

// The largest table alignScoredWithin lets alignScored fill (a byte a cell, 16 MiB).
inline constexpr size_t kMaxScoredCells = size_t(16) << 20;

struct BoundedAlignment
{
    std::vector<AlignedPair> pairs;
    bool inChunks = false; // too large for one table: aligned in proportional chunks
};

// alignScored, unless its table would exceed `maxCells` cells: then both sequences are cut into
// the same number of consecutive chunks, in proportion to their lengths, each pair of chunks small
// enough to align scored (sequences that do the same work do it in the same order). Every element
// appears once, in order. The operation and graph findings and the app's group drill-down all
// align through this, so none can exhaust memory on graphs of tens of thousands of kernels.
BoundedAlignment alignScoredWithin(
    std::span<const uint16_t> first, std::span<const uint16_t> second, size_t maxCells = kMaxScoredCells);
// The same with a score for every pair of symbols.
BoundedAlignment alignScoredWithin(std::span<const uint16_t> first, std::span<const uint16_t> second,
    const PairScores& scores, size_t maxCells = kMaxScoredCells);

} // namespace fusiondiff
