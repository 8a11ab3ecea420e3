#pragma once

#include "ops/attribution/opoccurrences.h"
#include "util/idmap.h"

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace fusiondiff {

struct KernelTypes;
struct TraceStore;

// What a kernel does besides its category, recognised by name whatever the vendor: a split-K
// GEMM's reduction, a layout conversion (transpose, NCHW <-> NHWC), a fill, a copy.
enum class KernelNameRole : uint8_t
{
    None,
    SplitKReduce,
    LayoutConversion,
    Fill,
    Copy,
};
KernelNameRole kernelNameRole(std::string_view kernelName);

// The levels of the automatic alignment (OpLevel::Auto), most specific first.
struct AlignmentLevelSpec
{
    const char* key;
    const char* description;
    size_t maxStretch; // tried only between paired neighbours at most this far apart (CascadeLevel)
    bool equalCountsOnly; // CascadeLevel::equalCountsOnly
    // Stretches of at most this many calls a side are aligned on sharedKernels rather than on
    // equal keys (CascadeLevel::similarity); 0: never.
    size_t scoredStretch;
    // Longer stretches that equal keys leave unpaired, about as long on both sides, are aligned
    // on sharedKernels too, in chunks (CascadeLevel::scoreLongRuns).
    bool scoreLongRuns = false;
};
std::span<const AlignmentLevelSpec> autoAlignmentLevels();
// The level whose keys alignmentKeys leaves empty: trace 1's operator names translated into trace
// 2's, which only a first alignment can tell (operatorRenaming in opcomparison.cpp fills it).
size_t renamedOperatorLevel();

// Keys shared by both traces: equal keys mean equal names (or kernel signatures) at a level.
class AlignmentKeyTable
{
public:
    uint32_t intern(uint64_t hash);
    // As SymbolTable::adopt: `other`'s keys interned in the order it gave them ids; their ids here.
    std::vector<uint32_t> adopt(const AlignmentKeyTable& other);

private:
    IdMap m_ids; // hash -> id
    std::vector<uint64_t> m_hashes; // by id
};

// The key of each occurrence of `which` at each level of autoAlignmentLevels(): keys[level][i]
// (kNoKey at renamedOperatorLevel()).
// Python frames and modules are compared by name only (pythonFrameKey, module class), so line
// numbers and instance numbers do not matter; kNoKey where the occurrence has nothing at a level
// (no Python frame around it, no module).
std::vector<std::vector<uint32_t>> alignmentKeys(const TraceStore& store, const KernelTypes& types,
    const KernelAttribution& attribution, const std::vector<OpOccurrence>& occurrences, std::span<const uint32_t> which,
    AlignmentKeyTable& table);

// Each occurrence's kernels as the kernel levels see them (category and role), in time order.
using KernelSignature = std::vector<uint32_t>;
std::vector<KernelSignature> kernelSignatures(
    const TraceStore& store, const KernelTypes& types, const std::vector<OpOccurrence>& occurrences);

// How many kernels two calls share in order (category and role, a longest common subsequence), if
// that is at least half of the longer call's kernels: one kernel split in two or two merged into
// one still agree; else 0. Signatures of more than 64 kernels count only when equal.
uint32_t sharedKernels(std::span<const uint32_t> first, std::span<const uint32_t> second);

} // namespace fusiondiff
