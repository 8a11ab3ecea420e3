#pragma once

#include "model/alignedpair.h"
#include "model/categoryid.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fusiondiff {

class Classifier;
struct GraphComparison;
struct GraphCoverage;
struct GraphCoveragePart;
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
    std::array<uint32_t, 2> firstKernel {}; // 0-based position in its group of kernels[side].front()
};

// The kernels of a group to drill into: positions [first, last) in time order; all by default.
struct GroupKernelRange
{
    uint32_t first = 0;
    uint32_t last = UINT32_MAX;
};

// The report's large groups `groups` (null: none on that side) of the traces `stores`, drilled
// into: their kernels (LargeGroup::kernels, no scan of the trace) named and classified, aligned;
// on each side only the kernels in `ranges`.
GroupDiff computeGroupDiff(const std::array<const TraceStore*, 2>& stores,
    const std::array<const LargeGroup*, 2>& groups, const Classifier& classifier,
    const std::array<GroupKernelRange, 2>& ranges = {});

// A group pair whose groups are graph launches, one of which covers the other among other
// launches of its trace (GraphCoverage): the seed pairs the groups whole, but the covered launch
// does the work of one part of the covering one only.
struct GroupPairCoverage
{
    size_t coveringSide = 0;
    const GraphCoverage* coverage = nullptr;
    const GraphCoveragePart* part = nullptr; // the covered group's part of the covering launch
};

// The coverage that relates the groups of correlation ids `correlations`, if any.
std::optional<GroupPairCoverage> coverageOfGroupPair(
    const GraphComparison& graphs, const std::array<int64_t, 2>& correlations);

} // namespace fusiondiff
