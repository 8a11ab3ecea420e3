#include "ops/comparison/groupdiff.h"

#include "classify/classifier.h"
#include "model/fusionreport.h"
#include "model/graphreport.h"
#include "model/tracestore.h"
#include "ops/alignment/sequencealignment.h"

#include <algorithm>
#include <unordered_map>

namespace fusiondiff {

namespace {

std::vector<GroupKernel> kernelsOf(
    const TraceStore& store, const LargeGroup& group, const Classifier& classifier, const GroupKernelRange& range)
{
    std::vector<GroupKernel> kernels;
    const size_t last = std::min<size_t>(range.last, group.kernels.size());
    const size_t first = std::min<size_t>(range.first, last);
    kernels.reserve(last - first);
    std::unordered_map<StringId, CategoryId> typeOfName; // classified once per name
    for (size_t position = first; position < last; ++position) {
        const KernelEvent& kernel = store.kernels[group.kernels[position]];
        auto [it, inserted] = typeOfName.try_emplace(kernel.name, 0);
        if (inserted)
            it->second = classifier.classify(store.name(kernel.name));
        kernels.push_back({ std::string(store.name(kernel.name)), it->second, kernel.ts, kernel.dur });
    }
    return kernels;
}

} // namespace

GroupDiff computeGroupDiff(const std::array<const TraceStore*, 2>& stores,
    const std::array<const LargeGroup*, 2>& groups, const Classifier& classifier,
    const std::array<GroupKernelRange, 2>& ranges)
{
    GroupDiff diff;
    std::array<std::vector<CategoryId>, 2> types;
    for (size_t side = 0; side < 2; ++side) {
        if (!groups[side] || !stores[side])
            continue;
        diff.correlation[side] = groups[side]->correlation;
        diff.kernels[side] = kernelsOf(*stores[side], *groups[side], classifier, ranges[side]);
        diff.firstKernel[side] = uint32_t(std::min<size_t>(ranges[side].first, groups[side]->kernels.size()));
        for (const GroupKernel& kernel : diff.kernels[side])
            types[side].push_back(kernel.type);
    }
    BoundedAlignment alignment = alignScoredWithin(types[0], types[1]);
    diff.rows = std::move(alignment.pairs);
    diff.inChunks = alignment.inChunks;
    return diff;
}

std::optional<GroupPairCoverage> coverageOfGroupPair(
    const GraphComparison& graphs, const std::array<int64_t, 2>& correlations)
{
    for (const GraphCoverage& coverage : graphs.coverage) {
        const size_t s = sideIndex(coverage.coveringSide);
        if (coverage.correlation != correlations[s])
            continue;
        for (const GraphCoveragePart& part : coverage.parts) {
            if (part.otherCorrelation == correlations[1 - s])
                return GroupPairCoverage { s, &coverage, &part };
        }
    }
    return std::nullopt;
}

} // namespace fusiondiff
