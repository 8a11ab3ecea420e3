#include "groups/chainfusion.h"

#include "util/textformat.h"

#include <algorithm>
#include <cstdlib>

namespace fusiondiff {

namespace {

// Per type: the lengths of its runs, in order.
std::vector<std::vector<uint64_t>> runLengths(std::span<const CategoryId> sequence, size_t typeCount)
{
    std::vector<std::vector<uint64_t>> runs(typeCount);
    for (size_t i = 0; i < sequence.size();) {
        size_t end = i;
        while (end < sequence.size() && sequence[end] == sequence[i])
            ++end;
        runs[sequence[i]].push_back(end - i);
        i = end;
    }
    return runs;
}

struct ChainStats
{
    uint64_t total = 0; // kernels of the type
    uint64_t chains = 0; // runs longer than one, or all runs if there are none
    double averageChain = 1.0; // average length of the runs longer than one
};

ChainStats chainStats(const std::vector<uint64_t>& runs)
{
    ChainStats stats;
    uint64_t multiCount = 0;
    uint64_t multiSum = 0;
    for (const uint64_t length : runs) {
        stats.total += length;
        if (length > 1) {
            ++multiCount;
            multiSum += length;
        }
    }
    stats.chains = multiCount > 0 ? multiCount : runs.size();
    if (multiCount > 0)
        stats.averageChain = static_cast<double>(multiSum) / static_cast<double>(multiCount);
    return stats;
}

bool hasMultiRun(const std::vector<uint64_t>& runs)
{
    return std::any_of(runs.begin(), runs.end(), [](uint64_t length) { return length > 1; });
}

} // namespace

std::vector<FusionMapping> findChainFusion(
    std::span<const CategoryId> sequence1, std::span<const CategoryId> sequence2, const MappingContext& context)
{
    const auto runs1 = runLengths(sequence1, context.typeCount());
    const auto runs2 = runLengths(sequence2, context.typeCount());
    const AnalysisOptions& options = context.options;
    std::vector<FusionMapping> mappings;
    for (size_t typeIndex = 0; typeIndex < context.typeCount(); ++typeIndex) {
        const auto type = static_cast<CategoryId>(typeIndex);
        const auto& lengths1 = runs1[type];
        const auto& lengths2 = runs2[type];
        if (lengths1.empty() && lengths2.empty())
            continue;
        if (static_cast<int64_t>(lengths1.size()) < options.chainMinRuns
            && static_cast<int64_t>(lengths2.size()) < options.chainMinRuns)
            continue;
        if (!hasMultiRun(lengths1) && !hasMultiRun(lengths2))
            continue;
        const ChainStats stats1 = chainStats(lengths1);
        const ChainStats stats2 = chainStats(lengths2);
        if (stats1.chains == 0 || stats2.chains == 0)
            continue;
        const double chainRatio
            = std::max(stats1.averageChain, stats2.averageChain) / std::min(stats1.averageChain, stats2.averageChain);
        const auto difference = std::llabs(static_cast<int64_t>(stats1.total) - static_cast<int64_t>(stats2.total));
        if (!(chainRatio > options.chainMinRatio) || !(difference > options.chainMinDifference))
            continue;

        const Side unfused = stats1.averageChain > stats2.averageChain ? Side::Trace1 : Side::Trace2;
        const Side fused = otherSide(unfused);
        const ChainStats& u = unfused == Side::Trace1 ? stats1 : stats2;
        const ChainStats& f = unfused == Side::Trace1 ? stats2 : stats1;
        FusionMapping mapping;
        mapping.kind = MappingKind::IntraTypeChain;
        mapping.fusedSide = fused;
        mapping.fusedKernelType = type;
        mapping.fusedCount = f.total;
        mapping.unfusedSequence = { type, type };
        mapping.unfusedCountPerType = { { type, u.total } };
        mapping.patternCount = static_cast<int64_t>(u.total) - static_cast<int64_t>(f.total);
        mapping.patternConfidence
            = static_cast<double>(std::min(u.chains, f.chains)) / static_cast<double>(std::max(u.chains, f.chains));
        mapping.evidence = context.side(unfused) + " runs " + context.type(type) + " in chains of "
            + fixed(u.averageChain, 0) + " calls (" + std::to_string(u.chains) + " chains, "
            + withThousands(static_cast<int64_t>(u.total)) + " total), " + context.side(fused) + " fuses to "
            + fixed(f.averageChain, 0) + " calls (" + std::to_string(f.chains) + " chains, "
            + withThousands(static_cast<int64_t>(f.total)) + " total) - " + fixed(chainRatio, 1) + "x more efficient";
        mappings.push_back(std::move(mapping));
    }
    return mappings;
}

} // namespace fusiondiff
