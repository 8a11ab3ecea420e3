#include "groups/sequencepatterns.h"

#include "util/textformat.h"

#include <algorithm>

namespace fusiondiff {

namespace {

constexpr CategoryId kNone = 0xFFFF;

struct SequenceStats
{
    std::vector<uint64_t> counts; // per type
    std::vector<size_t> firstPosition; // per type; SIZE_MAX if absent

    bool has(CategoryId type) const { return counts[type] > 0; }
};

SequenceStats statsOf(std::span<const CategoryId> sequence, size_t typeCount)
{
    SequenceStats stats { std::vector<uint64_t>(typeCount, 0), std::vector<size_t>(typeCount, SIZE_MAX) };
    for (size_t i = 0; i < sequence.size(); ++i) {
        if (stats.counts[sequence[i]]++ == 0)
            stats.firstPosition[sequence[i]] = i;
    }
    return stats;
}

// The most frequent type, ties going to the one seen first: Python's max() over a dict filled in
// sequence order.
CategoryId mostFrequent(const std::vector<uint64_t>& counts, const std::vector<size_t>& firstSeen)
{
    CategoryId best = kNone;
    for (size_t typeIndex = 0; typeIndex < counts.size(); ++typeIndex) {
        const auto type = static_cast<CategoryId>(typeIndex);
        if (counts[type] == 0)
            continue;
        if (best == kNone || counts[type] > counts[best]
            || (counts[type] == counts[best] && firstSeen[type] < firstSeen[best]))
            best = type;
    }
    return best;
}

// Pass 1 for the types that only `unfused` runs.
void findAdjacentPatterns(std::span<const CategoryId> sequence, const SequenceStats& stats,
    const SequenceStats& otherStats, Side unfused, MappingKind kind, const MappingContext& context,
    std::vector<FusionMapping>& out)
{
    const Side fused = otherSide(unfused);
    for (size_t uniqueIndex = 0; uniqueIndex < context.typeCount(); ++uniqueIndex) {
        const auto unique = static_cast<CategoryId>(uniqueIndex);
        if (!stats.has(unique) || otherStats.has(unique))
            continue;
        const uint64_t occurrences = stats.counts[unique];
        if (static_cast<int64_t>(occurrences) < context.options.patternMinOccurrences)
            continue;
        std::vector<uint64_t> before(context.typeCount(), 0);
        std::vector<size_t> firstSeen(context.typeCount(), SIZE_MAX);
        for (size_t i = 1; i < sequence.size(); ++i) {
            if (sequence[i] != unique)
                continue;
            const CategoryId previous = sequence[i - 1];
            if (before[previous]++ == 0)
                firstSeen[previous] = i;
        }
        const CategoryId candidate = mostFrequent(before, firstSeen);
        const uint64_t followed = candidate == kNone ? 0 : before[candidate];
        const double share = static_cast<double>(followed) / static_cast<double>(occurrences);
        if (!(share > context.options.patternMinShare) || !otherStats.has(candidate))
            continue;
        FusionMapping mapping;
        mapping.kind = kind;
        mapping.fusedSide = fused;
        mapping.fusedKernelType = candidate;
        mapping.fusedCount = otherStats.counts[candidate];
        mapping.unfusedSequence = { candidate, unique };
        mapping.unfusedCountPerType = { { candidate, stats.counts[candidate] }, { unique, occurrences } };
        mapping.patternCount = static_cast<int64_t>(occurrences);
        mapping.patternConfidence = share;
        mapping.evidence = context.side(unfused) + " runs " + context.type(candidate) + "+" + context.type(unique)
            + " separately, " + context.side(fused) + " fuses into " + context.type(candidate);
        out.push_back(std::move(mapping));
    }
}

// Pass 2: types both run, in clearly different numbers.
void findCountImbalances(const SequenceStats& stats1, const SequenceStats& stats2, MappingKind kind,
    const MappingContext& context, std::vector<FusionMapping>& out)
{
    for (size_t typeIndex = 0; typeIndex < context.typeCount(); ++typeIndex) {
        const auto type = static_cast<CategoryId>(typeIndex);
        const std::optional<CountImbalance> imbalance
            = countImbalance(stats1.counts[type], stats2.counts[type], context.options);
        if (!imbalance)
            continue;
        const double ratio = imbalance->ratio;
        const uint64_t unfusedCount = imbalance->unfusedCount;
        const uint64_t fusedCount = imbalance->fusedCount;
        const Side unfused = imbalance->unfused;
        const Side fused = otherSide(unfused);
        const SequenceStats& fusedStats = fused == Side::Trace1 ? stats1 : stats2;

        std::vector<uint64_t> candidates = fusedStats.counts;
        candidates[type] = 0;
        candidates[context.fallback] = 0;
        const CategoryId target = mostFrequent(candidates, fusedStats.firstPosition);
        if (target == kNone)
            continue;
        FusionMapping mapping;
        mapping.kind = kind;
        mapping.fusedSide = fused;
        mapping.fusedKernelType = target;
        mapping.fusedCount = fusedCount;
        mapping.unfusedSequence = { type };
        mapping.unfusedCountPerType = { { type, unfusedCount } };
        mapping.patternCount = static_cast<int64_t>(unfusedCount - fusedCount);
        mapping.patternConfidence = static_cast<double>(unfusedCount - fusedCount) / static_cast<double>(unfusedCount);
        mapping.evidence = context.side(unfused) + " calls " + context.type(type) + " " + fixed(ratio, 1) + "x more ("
            + std::to_string(unfusedCount) + " vs " + std::to_string(fusedCount) + "), " + context.side(fused)
            + " likely fuses into " + context.type(target);
        out.push_back(std::move(mapping));
    }
}

} // namespace

std::vector<FusionMapping> findSequencePatterns(std::span<const CategoryId> sequence1,
    std::span<const CategoryId> sequence2, MappingKind kind, const MappingContext& context)
{
    const SequenceStats stats1 = statsOf(sequence1, context.typeCount());
    const SequenceStats stats2 = statsOf(sequence2, context.typeCount());
    std::vector<FusionMapping> mappings;
    findAdjacentPatterns(sequence1, stats1, stats2, Side::Trace1, kind, context, mappings);
    findAdjacentPatterns(sequence2, stats2, stats1, Side::Trace2, kind, context, mappings);
    findCountImbalances(stats1, stats2, kind, context, mappings);
    return mappings;
}

} // namespace fusiondiff
