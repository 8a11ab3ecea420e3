#include "groups/partialfusion.h"

#include "util/textformat.h"

#include <algorithm>
#include <numeric>

namespace fusiondiff {

namespace {

const LargeGroup& groupOf(const std::array<std::vector<LargeGroup>, 2>& groups, const GroupPair& pair, Side side)
{
    return side == Side::Trace1 ? groups[0][pair.group1] : groups[1][pair.group2];
}

struct Target
{
    CategoryId type;
    uint64_t extra;
    size_t insertion; // when the type first got a count: Counter.most_common breaks ties by it
};

} // namespace

std::vector<FusionMapping> findPartialFusion(const std::array<std::vector<LargeGroup>, 2>& largeGroups,
    std::span<const GroupPair> pairs, const MappingContext& context)
{
    const size_t typeCount = context.typeCount();
    std::array<std::vector<uint64_t>, 2> totals { std::vector<uint64_t>(typeCount, 0),
        std::vector<uint64_t>(typeCount, 0) };
    for (const GroupPair& pair : pairs) {
        for (const Side side : { Side::Trace1, Side::Trace2 }) {
            const LargeGroup& group = groupOf(largeGroups, pair, side);
            for (size_t type = 0; type < typeCount; ++type)
                totals[sideIndex(side)][type] += group.typeCounts[type];
        }
    }

    std::vector<FusionMapping> mappings;
    for (size_t typeIndex = 0; typeIndex < typeCount; ++typeIndex) {
        const auto type = static_cast<CategoryId>(typeIndex);
        const std::optional<CountImbalance> imbalance
            = countImbalance(totals[0][type], totals[1][type], context.options);
        if (!imbalance)
            continue;
        const double ratio = imbalance->ratio;
        const uint64_t unfusedCount = imbalance->unfusedCount;
        const uint64_t fusedCount = imbalance->fusedCount;
        const Side unfused = imbalance->unfused;
        const Side fused = otherSide(unfused);

        std::vector<uint64_t> extra(typeCount, 0);
        std::vector<size_t> insertion(typeCount, SIZE_MAX);
        size_t insertions = 0;
        uint64_t groupsAnalyzed = 0;
        for (const GroupPair& pair : pairs) {
            const LargeGroup& unfusedGroup = groupOf(largeGroups, pair, unfused);
            const LargeGroup& fusedGroup = groupOf(largeGroups, pair, fused);
            if (unfusedGroup.typeCounts[type] == 0 || fusedGroup.typeCounts[type] > 0)
                continue;
            for (size_t otherIndex = 0; otherIndex < typeCount; ++otherIndex) {
                const auto other = static_cast<CategoryId>(otherIndex);
                if (other == type || other == context.fallback || fusedGroup.typeCounts[other] == 0)
                    continue;
                if (fusedGroup.typeCounts[other] > unfusedGroup.typeCounts[other]) {
                    if (extra[other] == 0)
                        insertion[other] = insertions++;
                    extra[other] += fusedGroup.typeCounts[other] - unfusedGroup.typeCounts[other];
                }
            }
            ++groupsAnalyzed;
        }

        std::vector<Target> targets;
        for (size_t otherIndex = 0; otherIndex < typeCount; ++otherIndex) {
            const auto other = static_cast<CategoryId>(otherIndex);
            if (extra[other] > 0)
                targets.push_back({ other, extra[other], insertion[other] });
        }
        if (targets.empty() || static_cast<int64_t>(groupsAnalyzed) < context.options.partialMinGroups)
            continue;
        std::sort(targets.begin(), targets.end(), [](const Target& a, const Target& b) {
            return a.extra != b.extra ? a.extra > b.extra : a.insertion < b.insertion;
        });
        targets.resize(std::min<size_t>(targets.size(), 3));
        std::string targetText;
        for (const Target& target : targets) {
            targetText += (targetText.empty() ? "" : ", ") + context.type(target.type) + " (+"
                + std::to_string(target.extra) + ")";
        }

        FusionMapping mapping;
        mapping.kind = MappingKind::PartialFusion;
        mapping.fusedSide = fused;
        mapping.fusedKernelType = targets.front().type;
        mapping.fusedCount = fusedCount;
        mapping.unfusedSequence = { type };
        mapping.unfusedCountPerType = { { type, unfusedCount } };
        mapping.patternCount = static_cast<int64_t>(unfusedCount - fusedCount);
        mapping.patternConfidence
            = pairs.empty() ? 0.0 : static_cast<double>(groupsAnalyzed) / static_cast<double>(pairs.size());
        mapping.evidence = context.side(unfused) + " calls " + context.type(type) + " " + fixed(ratio, 1) + "x more ("
            + std::to_string(unfusedCount) + " vs " + std::to_string(fusedCount) + "). In "
            + std::to_string(groupsAnalyzed) + " groups where " + context.side(unfused) + " has " + context.type(type)
            + ", " + context.side(fused) + " has more: " + targetText;
        mappings.push_back(std::move(mapping));
    }
    return mappings;
}

} // namespace fusiondiff
