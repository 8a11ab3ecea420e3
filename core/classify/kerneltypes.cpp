#include "classify/kerneltypes.h"

#include "model/tracestore.h"
#include "util/sortedruns.h"

#include <algorithm>
#include <tuple>

namespace fusiondiff {

KernelTypes classifyKernels(const TraceStore& store, const Classifier& classifier)
{
    constexpr CategoryId kUnclassified = 0xFFFF;
    KernelTypes types;
    types.ofName.assign(store.strings.size(), kUnclassified);
    types.tagsOfName.assign(store.strings.size(), 0);
    types.ofKernel.reserve(store.kernels.size());
    for (const KernelEvent& kernel : store.kernels) {
        CategoryId& type = types.ofName[kernel.name];
        if (type == kUnclassified)
            std::tie(type, types.tagsOfName[kernel.name]) = classifier.classifyWithTags(store.name(kernel.name));
        types.ofKernel.push_back(type);
    }
    for (CategoryId& type : types.ofName) {
        if (type == kUnclassified)
            type = classifier.fallback();
    }
    return types;
}

std::vector<uint32_t> inTimeOrder(const TraceStore& store, std::span<const uint32_t> indices)
{
    std::vector<uint32_t> ordered(indices.begin(), indices.end());
    stableSortWhereOutOfOrder(ordered.begin(), ordered.end(),
        [&](uint32_t a, uint32_t b) { return store.kernels[a].ts < store.kernels[b].ts; });
    return ordered;
}

std::vector<CategoryId> typesOf(const KernelTypes& types, std::span<const uint32_t> indices)
{
    std::vector<CategoryId> result;
    result.reserve(indices.size());
    for (const uint32_t index : indices)
        result.push_back(types.ofKernel[index]);
    return result;
}

} // namespace fusiondiff
