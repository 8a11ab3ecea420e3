#pragma once

#include "groupkernels.h"
#include "kernelrowalignment.h"

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

namespace fusiondiff {
class Classifier;
struct TraceStore;
} // namespace fusiondiff

namespace fusiondiff::ui {

// The kernels of one correlation group of each side (either may be absent), aligned for display.
struct GroupDiff
{
    std::array<std::optional<int64_t>, 2> correlation;
    std::array<std::vector<GroupKernel>, 2> kernels;
    std::vector<AlignedRow> rows;
};

// Runs off the GUI thread: kernelsOfGroup scans every kernel of a store.
GroupDiff computeGroupDiff(const std::array<const TraceStore*, 2>& stores,
    const std::array<std::optional<int64_t>, 2>& correlation, const Classifier& classifier);

} // namespace fusiondiff::ui
