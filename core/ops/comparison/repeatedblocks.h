#pragma once

#include "model/alignedpair.h"
#include "model/opreport.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fusiondiff {

struct NamingContext;

// Paired work that repeats a block of kernels a different number of times on the two sides: a
// layer stack of another depth, a loop over images or requests of another length (Pi0's prefix
// graph: the H200 runs its vision tower on 3 images, the MI350 on 2). Aligning such lists kernel by
// kernel calls the extra copies "extra kernels", i.e. fusion; they are a difference in the work.

// Back-to-back copies of one block of kernels in a list: `copies` blocks of `length` kernels from
// `begin`, alike by kernel type (the names of generated kernels differ between copies): the same
// types as many times each, at the same positions for 3 in 4 kernels or more.
struct RepeatedBlock
{
    uint32_t begin = 0;
    uint32_t length = 0;
    uint32_t copies = 0;
};

// Blocks shorter than this are not looked for: a few kernels that repeat (a norm and a GEMM) are
// what fusion changes, not a loop.
inline constexpr uint32_t kMinBlockKernels = 8;
// At most this many copies: more is a layer's own loop rather than work the two sides repeat.
inline constexpr uint32_t kMaxBlockCopies = 64;

// The run of copies that covers most kernels, each copy starting with a kernel of one name that runs
// nowhere else in the list: none when no block of kMinBlockKernels or more repeats back to back.
std::optional<RepeatedBlock> longestRepeatedBlock(const std::vector<FindingKernel>& kernels);

// The two sides' longest repeated blocks, when they are the same block run a different number of
// times: both start with a kernel of the same type, and a copy on one side has at most
// kMaxBlockLengthRatio times the kernels of the other's (the two may fuse a copy's work differently).
inline constexpr double kMaxBlockLengthRatio = 3.0;
struct RepeatDifference
{
    std::array<RepeatedBlock, 2> blocks;
    size_t more = 0; // the side that runs more copies
    std::vector<uint32_t> extraPositions; // its extra copies' kernels (the last ones), ascending
};
std::optional<RepeatDifference> repeatDifference(const std::array<std::vector<FindingKernel>, 2>& kernels);

// The kernel lists without the extra copies (on the side with more), and each kept kernel's position
// in the whole list.
struct CommonKernels
{
    std::array<std::vector<uint16_t>, 2> types;
    std::array<std::vector<uint32_t>, 2> positions;
};
CommonKernels commonKernels(const std::array<std::vector<FindingKernel>, 2>& kernels, const RepeatDifference& repeats);

// `common`'s alignment (of CommonKernels::types) in the whole lists' positions, with each extra
// copy's kernel unpaired where it runs.
std::vector<AlignedPair> withExtraCopies(
    const std::vector<AlignedPair>& common, const CommonKernels& kernels, const RepeatDifference& repeats);

// "NVIDIA runs a block of 408 kernels (Conv, ...) 3 times where AMD runs its 222 kernels 2 times
// (a layer stack or a loop over images or requests of another length): the 1 more copy (408
// kernels, 3.7 ms) is a difference in the work, counted neither as extra kernels nor as speed".
std::string repeatDifferenceText(
    const OpFinding& finding, const RepeatDifference& repeats, const NamingContext& naming, double workUs);

// The side with more copies of a finding's repeated block (OpFinding::blockCopies).
Side moreCopiesSide(const OpFinding& finding);

} // namespace fusiondiff
