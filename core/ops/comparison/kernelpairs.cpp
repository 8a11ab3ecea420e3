#include "ops/comparison/kernelpairs.h"

#include "classify/kerneltypes.h"
#include "model/tracestore.h"

#include <algorithm>
#include <cmath>

namespace fusiondiff {

void KernelPairTally::add(const std::array<const TraceStore*, 2>& stores, uint32_t first, uint32_t second)
{
    const KernelEvent& a = stores[0]->kernels[first];
    const KernelEvent& b = stores[1]->kernels[second];
    Tally& tally = m_pairs[uint64_t(a.name) << 32 | b.name];
    if (tally.pairs == 0)
        tally.example = { first, second };
    ++tally.pairs;
    tally.timeUs[0] += a.dur;
    tally.timeUs[1] += b.dur;
}

void KernelPairTally::addByPosition(
    const std::array<const TraceStore*, 2>& stores, const std::array<const std::vector<uint32_t>*, 2>& kernels)
{
    const size_t count = std::min(kernels[0]->size(), kernels[1]->size());
    for (size_t i = 0; i < count; ++i)
        add(stores, (*kernels[0])[i], (*kernels[1])[i]);
}

void KernelPairTally::addAligned(const std::array<const TraceStore*, 2>& stores,
    const std::array<const std::vector<uint32_t>*, 2>& kernels, std::span<const AlignedPair> alignment)
{
    for (const AlignedPair& pair : alignment) {
        // The alignment is of a pattern's first occurrence; the others have the same kernel types.
        if (pair.isMatch() && size_t(pair.first) < kernels[0]->size() && size_t(pair.second) < kernels[1]->size())
            add(stores, (*kernels[0])[size_t(pair.first)], (*kernels[1])[size_t(pair.second)]);
    }
}

void KernelPairTally::merge(const KernelPairTally& other)
{
    for (const auto& [key, from] : other.m_pairs) {
        Tally& into = m_pairs[key];
        if (into.pairs == 0)
            into.example = from.example;
        into.pairs += from.pairs;
        into.timeUs[0] += from.timeUs[0];
        into.timeUs[1] += from.timeUs[1];
    }
}

std::vector<MatchedKernels> KernelPairTally::rows(
    const std::array<const TraceStore*, 2>& stores, const std::array<const KernelTypes*, 2>& types) const
{
    std::vector<MatchedKernels> rows;
    rows.reserve(m_pairs.size());
    for (const auto& [key, tally] : m_pairs) {
        MatchedKernels row;
        const std::array<StringId, 2> names { StringId(key >> 32), StringId(key & 0xffffffffU) };
        for (size_t side = 0; side < 2; ++side)
            row.types[side] = types[side]->ofKernel[tally.example[side]];
        // Kernels of two types at one position (a mismatch of the alignment, or operations whose
        // kernels run in another order) are not the same work: on Pi0 an FMHA kernel stood beside
        // a GEMM. The differences they make are the findings'; this list is of counterparts.
        if (row.types[0] != row.types[1])
            continue;
        for (size_t side = 0; side < 2; ++side)
            row.names[side] = std::string(stores[side]->name(names[side]));
        row.pairs = tally.pairs;
        row.timeUs = tally.timeUs;
        rows.push_back(std::move(row));
    }
    std::sort(rows.begin(), rows.end(), [](const MatchedKernels& a, const MatchedKernels& b) {
        const double stakeA = std::abs(a.differenceUs());
        const double stakeB = std::abs(b.differenceUs());
        if (stakeA != stakeB)
            return stakeA > stakeB;
        const double totalA = a.timeUs[0] + a.timeUs[1];
        const double totalB = b.timeUs[0] + b.timeUs[1];
        if (totalA != totalB)
            return totalA > totalB;
        return a.names < b.names;
    });
    return rows;
}

} // namespace fusiondiff
