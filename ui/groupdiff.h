#pragma once

#include "groups/groupkernels.h"
#include "ops/sequencealignment.h"

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace fusiondiff {
class Classifier;
struct TraceStore;
} // namespace fusiondiff

namespace fusiondiff::ui {

// The kernels of one correlation group of each side (either may be absent), aligned by type as
// the core aligns the kernels of a graph finding.
struct GroupDiff
{
    std::array<std::optional<int64_t>, 2> correlation;
    std::array<std::vector<GroupKernel>, 2> kernels;
    std::vector<AlignedPair> rows; // indices into kernels[0] (first) and kernels[1] (second)
    bool byPosition = false; // too large to align: paired by position
};

// Runs off the GUI thread: kernelsOfGroup scans every kernel of a store.
GroupDiff computeGroupDiff(const std::array<const TraceStore*, 2>& stores,
    const std::array<std::optional<int64_t>, 2>& correlation, const Classifier& classifier);

// Two kernel type sequences aligned with the core's alignScored (the alignment of its operation
// and graph findings), or, if its table would exceed `maxCells` cells (a byte each), paired by
// position; `byPosition` tells which.
std::vector<AlignedPair> alignKernelTypes(std::span<const CategoryId> a, std::span<const CategoryId> b,
    bool* byPosition = nullptr, size_t maxCells = size_t(64) << 20);

} // namespace fusiondiff::ui
