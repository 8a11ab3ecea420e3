#pragma once

#include "model/alignedpair.h"

#include <cstdint>
#include <span>
#include <vector>

namespace fusiondiff {

// Aligns two long type sequences (the kernels of several graph launches on each side) so that
// what one side runs and the other does not shows as few long gaps, not as many short ones:
// Gotoh's affine gaps (a gap costs `open` once plus `extend` per element), and gaps before the
// first and after the last pair are free, so that a trace that holds more of the work (more
// launches, a longer capture) does not pull the other's kernels apart to cover it. O(n x m) time,
// one byte per cell. Among equally good alignments the one that pairs the earliest elements wins.
//
// Kernels of the same type pair for `match` if their durations are within `durationRatio` of each
// other (the same work runs at a similar speed on two GPUs), else for `farMatch`: in a model
// whose blocks all run the same kernel types (a vision tower, a language model and an action
// expert), the duration tells a block over 800 tokens from one over 50. Without durations
// (empty spans), every pair of the same type scores `match`.
struct AffineScores
{
    int match = 4;
    int farMatch = 1;
    double durationRatio = 3;
    int mismatch = -6;
    int open = -6;
    int extend = -1;
};

std::vector<AlignedPair> alignAffine(std::span<const uint16_t> first, std::span<const uint16_t> second,
    std::span<const float> firstDurations = {}, std::span<const float> secondDurations = {},
    const AffineScores& scores = {});

} // namespace fusiondiff
