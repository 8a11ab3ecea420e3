#pragma once

#include "model/alignedpair.h"
#include "model/opreport.h"

#include <array>
#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

namespace fusiondiff {

struct KernelTypes;
struct TraceStore;

// The kernels the comparison lined up, tallied by the pair of names (model/opreport.h,
// MatchedKernels). The comparers add what they pair; the report gets the rows.
class KernelPairTally
{
public:
    // Kernel `first` of trace 1 paired with kernel `second` of trace 2 (indices into the stores' kernels).
    void add(const std::array<const TraceStore*, 2>& stores, uint32_t first, uint32_t second);
    // Two kernel lists paired position by position (as many kernels on each side).
    void addByPosition(
        const std::array<const TraceStore*, 2>& stores, const std::array<const std::vector<uint32_t>*, 2>& kernels);
    // Two kernel lists paired by an alignment of their positions; gaps pair nothing.
    void addAligned(const std::array<const TraceStore*, 2>& stores,
        const std::array<const std::vector<uint32_t>*, 2>& kernels, std::span<const AlignedPair> alignment);
    void merge(const KernelPairTally& other);

    bool empty() const { return m_pairs.empty(); }
    // One row per pair of names, the largest time difference (B - A, either sign) first, then the
    // largest time on both sides.
    std::vector<MatchedKernels> rows(
        const std::array<const TraceStore*, 2>& stores, const std::array<const KernelTypes*, 2>& types) const;

private:
    struct Tally
    {
        uint64_t pairs = 0;
        std::array<double, 2> timeUs {};
        std::array<uint32_t, 2> example {}; // a kernel of each name, for its type
    };
    std::unordered_map<uint64_t, Tally> m_pairs; // by trace 1's name id << 32 | trace 2's
};

} // namespace fusiondiff
