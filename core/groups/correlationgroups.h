#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace fusiondiff {

struct TraceStore;

struct CorrelationGroup
{
    int64_t correlation = 0;
    uint32_t first = 0; // into CorrelationGroups::kernelIndices
    uint32_t size = 0;
};

// The kernels of a trace grouped by correlation id, as the seed groups them: groups in the order
// of their first kernel in the file, kernels of a group in file order. Kernels without a
// correlation id belong to no group. Under CUDA/HIP graphs one group holds every kernel of a
// graph launch; in eager mode each group holds one kernel.
struct CorrelationGroups
{
    std::vector<CorrelationGroup> groups;
    std::vector<uint32_t> kernelIndices;

    std::span<const uint32_t> kernelsOf(const CorrelationGroup& group) const
    {
        return { kernelIndices.data() + group.first, group.size };
    }
};

CorrelationGroups groupByCorrelation(const TraceStore& store);

} // namespace fusiondiff
