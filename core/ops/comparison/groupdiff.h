#pragma once

#include "model/alignedpair.h"
#include "model/categoryid.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fusiondiff {

class Classifier;
struct LargeGroup;
struct TraceStore;

struct GroupKernel
{
    std::string name;
    CategoryId type = 0;
    double ts = 0;
    double dur = 0;
};

// The kernels of one correlation group of each side (either may be absent), aligned by type as
// the operation findings align the kernels of a graph (alignScoredWithin).
struct GroupDiff
{
    std::array<std::optional<int64_t>, 2> correlation;
    std::array<std::vector<GroupKernel>, 2> kernels; // in time order
    std::vector<AlignedPair> rows; // indices into kernels[0] (first) and kernels[1] (second)
    bool inChunks = false; // too large for one scored alignment: aligned in chunks (alignScoredWithin)
};

// The report's large groups `groups` (null: none on that side) of the traces `stores`, drilled
// into: their kernels (LargeGroup::kernels, no scan of the trace) named and classified, aligned.
GroupDiff computeGroupDiff(const std::array<const TraceStore*, 2>& stores,
    const std::array<const LargeGroup*, 2>& groups, const Classifier& classifier);

} // namespace fusiondiff
