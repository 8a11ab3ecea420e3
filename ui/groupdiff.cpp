#include "groupdiff.h"

#include "tracestore.h"

namespace fusiondiff::ui {

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
    diff.rows = alignKernelRows(types[0], types[1]);
    return diff;
}

} // namespace fusiondiff::ui
