#include "groups/correlationgroups.h"

#include "model/tracestore.h"
#include "util/idmap.h"

namespace fusiondiff {

CorrelationGroups groupByCorrelation(const TraceStore& store)
{
    CorrelationGroups result;
    IdMap groupOf(idRangeOf(store.kernels, &KernelEvent::correlation, kNoId));
    std::vector<uint32_t> groupOfKernel(store.kernels.size(), IdMap::kMissing);
    for (size_t i = 0; i < store.kernels.size(); ++i) {
        const int64_t correlation = store.kernels[i].correlation;
        if (correlation == kNoId)
            continue;
        const auto next = static_cast<uint32_t>(result.groups.size());
        const uint32_t group = groupOf.findOrInsert(correlation, next);
        if (group == next)
            result.groups.push_back({ correlation, 0, 0 });
        ++result.groups[group].size;
        groupOfKernel[i] = group;
    }

    uint32_t offset = 0;
    for (CorrelationGroup& group : result.groups) {
        group.first = offset;
        offset += group.size;
    }
    result.kernelIndices.resize(offset);
    std::vector<uint32_t> filled(result.groups.size(), 0);
    for (size_t i = 0; i < groupOfKernel.size(); ++i) {
        const uint32_t group = groupOfKernel[i];
        if (group == IdMap::kMissing)
            continue;
        result.kernelIndices[result.groups[group].first + filled[group]++] = static_cast<uint32_t>(i);
    }
    return result;
}

} // namespace fusiondiff
