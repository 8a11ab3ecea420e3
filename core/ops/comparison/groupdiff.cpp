#include "ops/comparison/groupdiff.h"

#include "classify/classifier.h"
#include "model/fusionreport.h"
#include "model/tracestore.h"
#include "ops/alignment/sequencealignment.h"

#include <unordered_map>

namespace fusiondiff {

namespace {

std::vector<GroupKernel> kernelsOf(const TraceStore& store, const LargeGroup& group, const Classifier& classifier)
{
    std::vector<GroupKernel> kernels;
    kernels.reserve(group.kernels.size());
    std::unordered_map<StringId, CategoryId> typeOfName; // classified once per name
    for (const uint32_t index : group.kernels) {
        const KernelEvent& kernel = store.kernels[index];
        auto [it, inserted] = typeOfName.try_emplace(kernel.name, 0);
        if (inserted)
            it->second = classifier.classify(store.name(kernel.name));
        kernels.push_back({ std::string(store.name(kernel.name)), it->second, kernel.ts, kernel.dur });
    }
    return kernels;
}

} // namespace

GroupDiff computeGroupDiff(const std::array<const TraceStore*, 2>& stores,
    const std::array<const LargeGroup*, 2>& groups, const Classifier& classifier)
{
    GroupDiff diff;
    std::array<std::vector<CategoryId>, 2> types;
    for (size_t side = 0; side < 2; ++side) {
        if (!groups[side] || !stores[side])
            continue;
        diff.correlation[side] = groups[side]->correlation;
        diff.kernels[side] = kernelsOf(*stores[side], *groups[side], classifier);
        for (const GroupKernel& kernel : diff.kernels[side])
            types[side].push_back(kernel.type);
    }
    BoundedAlignment alignment = alignScoredWithin(types[0], types[1]);
    diff.rows = std::move(alignment.pairs);
    diff.inChunks = alignment.inChunks;
    return diff;
}

} // namespace fusiondiff
