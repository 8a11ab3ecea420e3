#include "groups/groupkernels.h"

#include "model/tracestore.h"

#include <algorithm>
#include <unordered_map>

namespace fusiondiff {

std::vector<GroupKernel> kernelsOfGroup(const TraceStore& store, const Classifier& classifier, int64_t correlation)
{
    std::vector<GroupKernel> kernels;
    std::unordered_map<StringId, CategoryId> typeOfName;
    for (const KernelEvent& kernel : store.kernels) {
        if (kernel.correlation != correlation)
            continue;
        auto [it, inserted] = typeOfName.try_emplace(kernel.name, 0);
        if (inserted)
            it->second = classifier.classify(store.name(kernel.name));
        kernels.push_back({ std::string(store.name(kernel.name)), it->second, kernel.ts, kernel.dur });
    }
    std::stable_sort(
        kernels.begin(), kernels.end(), [](const GroupKernel& a, const GroupKernel& b) { return a.ts < b.ts; });
    return kernels;
}

} // namespace fusiondiff
