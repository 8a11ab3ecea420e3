#include "groupdiff.h"

#include "model/tracestore.h"

#include <algorithm>

namespace fusiondiff::ui {

std::vector<AlignedPair> alignKernelTypes(
    std::span<const CategoryId> a, std::span<const CategoryId> b, bool* byPosition, size_t maxCells)
{
    const bool tooLarge = (a.size() + 1) * (b.size() + 1) > maxCells;
    if (byPosition)
        *byPosition = tooLarge;
    if (!tooLarge)
        return alignScored(a, b);
    std::vector<AlignedPair> rows(std::max(a.size(), b.size()));
    for (size_t k = 0; k < rows.size(); ++k)
        rows[k] = { k < a.size() ? int64_t(k) : -1, k < b.size() ? int64_t(k) : -1 };
    return rows;
}

GroupDiff computeGroupDiff(const std::array<const TraceStore*, 2>& stores,
    const std::array<std::optional<int64_t>, 2>& correlation, const Classifier& classifier)
{
    GroupDiff diff;
    diff.correlation = correlation;
    std::array<std::vector<CategoryId>, 2> types;
    for (size_t side = 0; side < 2; ++side) {
        if (!correlation[side] || !stores[side])
            continue;
        diff.kernels[side] = kernelsOfGroup(*stores[side], classifier, *correlation[side]);
        for (const GroupKernel& kernel : diff.kernels[side])
            types[side].push_back(kernel.type);
    }
    diff.rows = alignKernelTypes(types[0], types[1], &diff.byPosition);
    return diff;
}

} // namespace fusiondiff::ui
