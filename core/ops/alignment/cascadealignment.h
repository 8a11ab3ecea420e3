#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace fusiondiff {

// An element without a key at some level: it pairs with nothing there.
constexpr uint32_t kNoKey = UINT32_MAX;

// One level of a cascade: a key per element of each side (kNoKey: none).
struct CascadeLevel
{
    std::array<std::span<const uint32_t>, 2> keys;
    // The level is tried only on stretches of at most this many elements on each side (a coarse
    // key is trusted only between close neighbours that are already paired).
    size_t maxStretch = SIZE_MAX;
    // Only keys that occur as often on both sides of a stretch pair there: a key that many calls
    // share (a module path) pairs its calls by position, which is a guess when the counts differ.
    bool equalCountsOnly = false;
    // Where set, a stretch of at most `scoredStretch` elements a side is aligned on this score
    // instead of on equal keys: how well first element i and second element j (indices into the
    // whole sequences) agree, 0 where they may not pair. The pairs in order with the largest total
    // win; among those, the one with the most pairs of equal keys. (On a short stretch, equal keys
    // alone pair a look-alike out of place: A runs [x, y] and B [x', y'], changed, where x' looks
    // exactly like y; pairing y with x' leaves x and y' unpaired across each other.)
    std::function<uint32_t(size_t, size_t)> similarity;
    size_t scoredStretch = 0;
    // Where set (with `similarity`), a longer stretch the level's equal keys leave unpaired is
    // aligned on the score too if its two sides are about as long (a run both sides repeat as
    // often: an optimizer's same few operations over hundreds of parameters, every call changed
    // on one side), in consecutive chunks cut in proportion to the two lengths, so that its cost
    // stays linear. Calls that share no kernels still never pair.
    bool scoreLongRuns = false;
};

struct CascadeMatch
{
    uint32_t first = 0;
    uint32_t second = 0;
    uint32_t level = 0; // index of the level that paired them
};

// Aligns two sequences level by level, most specific key first: the first level's keys are
// aligned (alignSymbols: equal keys pair up, in order); each stretch left unpaired on both sides
// between two pairs (or an end) is aligned again with the next level's keys, and so on. So a
// region whose names differ falls through to a coarser key instead of staying unpaired, and a
// coarse key only ever pairs elements between neighbours that a finer one paired. Near-linear
// like alignSymbols on sequences that mostly agree. Matches are in order of `first`.
std::vector<CascadeMatch> alignByLevels(std::span<const CascadeLevel> levels, size_t firstCount, size_t secondCount);

} // namespace fusiondiff
