#pragma once

#include "classifier.h"

#include <cstddef>
#include <span>
#include <vector>

namespace fusiondiff::ui {

// One row of two kernel sequences shown side by side; -1 where a side has no kernel on the row.
struct AlignedRow
{
    int a = -1;
    int b = -1;
};

// Aligns two kernel type sequences for display: a longest common subsequence of the types (after
// the common prefix and suffix are taken off) keeps equal types on one row; between two equal
// rows, the kernels only A has and those only B has are paired up row by row. If the middle parts
// are larger than `maxCells` (their lengths multiplied), the kernels are paired by position instead.
// Presentation only: no number of the report depends on it.
std::vector<AlignedRow> alignKernelRows(
    std::span<const CategoryId> a, std::span<const CategoryId> b, size_t maxCells = size_t(16) << 20);

} // namespace fusiondiff::ui
