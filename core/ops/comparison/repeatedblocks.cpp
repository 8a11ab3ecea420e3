#include "ops/comparison/repeatedblocks.h"

#include "ops/comparison/kernelcomparison.h"
#include "util/plural.h"
#include "util/textformat.h"

#include <algorithm>
#include <numeric>
#include <string_view>
#include <unordered_map>

namespace fusiondiff {

namespace {

// Type comparisons one list's search may make: a list of tens of thousands of kernels with many
// repeated names stays linear in practice, and an adversarial one stops here.
constexpr size_t kComparisonBudget = size_t(1) << 26;

// Positions of a copy that may hold another type than the first copy's: a compiler schedules two
// independent kernels of one copy in another order (Pi0's H200 vision tower: 54 of 408 kernels of
// its first image swap a GEMM and an elementwise kernel).
constexpr double kMinPositionAgreement = 0.75;

// Whether the `length` kernels from `b` are a copy of those from `a`: the same kernels by type, in
// the same order but for some swapped neighbours.
bool isCopy(const std::vector<FindingKernel>& kernels, uint32_t a, uint32_t b, uint32_t length, size_t& budget)
{
    if (budget < length)
        return false;
    budget -= length;
    std::unordered_map<CategoryId, int64_t> balance;
    uint32_t agree = 0;
    for (uint32_t i = 0; i < length; ++i) {
        const CategoryId x = kernels[a + i].type;
        const CategoryId y = kernels[b + i].type;
        agree += x == y;
        ++balance[x];
        --balance[y];
    }
    if (double(agree) < kMinPositionAgreement * double(length))
        return false;
    return std::all_of(balance.begin(), balance.end(), [](const auto& entry) { return entry.second == 0; });
}

std::string timesText(uint32_t copies)
{
    return copies == 1 ? "once" : copies == 2 ? "twice" : std::to_string(copies) + " times";
}

} // namespace

std::optional<RepeatedBlock> longestRepeatedBlock(const std::vector<FindingKernel>& kernels)
{
    std::unordered_map<std::string_view, std::vector<uint32_t>> positions;
    for (uint32_t i = 0; i < kernels.size(); ++i)
        positions[kernels[i].name].push_back(i);
    const auto n = uint32_t(kernels.size());
    size_t budget = kComparisonBudget;
    std::optional<RepeatedBlock> best;
    for (const auto& [name, at] : positions) {
        if (at.size() < 2 || at.size() > kMaxBlockCopies)
            continue;
        // Every call of the block's first kernel starts a copy: a loop whose copies differ (one
        // fused otherwise) is not taken for one that runs fewer times.
        const uint32_t begin = at[0];
        const uint32_t length = at[1] - begin;
        if (length < kMinBlockKernels)
            continue;
        uint32_t copies = 1;
        while (copies < at.size() && at[copies] == begin + copies * length && begin + (copies + 1) * length <= n
            && isCopy(kernels, begin, begin + copies * length, length, budget))
            ++copies;
        if (copies == at.size()
            && (!best || size_t(copies) * length > size_t(best->copies) * best->length
                || (size_t(copies) * length == size_t(best->copies) * best->length && begin < best->begin)))
            best = RepeatedBlock { begin, length, copies };
    }
    return best;
}

std::optional<RepeatDifference> repeatDifference(const std::array<std::vector<FindingKernel>, 2>& kernels)
{
    const std::optional<RepeatedBlock> first = longestRepeatedBlock(kernels[0]);
    const std::optional<RepeatedBlock> second = longestRepeatedBlock(kernels[1]);
    if (!first || !second || first->copies == second->copies)
        return std::nullopt;
    if (kernels[0][first->begin].type != kernels[1][second->begin].type)
        return std::nullopt;
    const double ratio = double(std::max(first->length, second->length)) / std::min(first->length, second->length);
    if (ratio > kMaxBlockLengthRatio)
        return std::nullopt; // a layer on one side against a whole loop body on the other
    RepeatDifference difference;
    difference.blocks = { *first, *second };
    difference.more = first->copies > second->copies ? 0 : 1;
    const RepeatedBlock& more = difference.blocks[difference.more];
    const RepeatedBlock& fewer = difference.blocks[1 - difference.more];
    for (uint32_t k = more.begin + fewer.copies * more.length; k < more.begin + more.copies * more.length; ++k)
        difference.extraPositions.push_back(k);
    return difference;
}

CommonKernels commonKernels(const std::array<std::vector<FindingKernel>, 2>& kernels, const RepeatDifference& repeats)
{
    CommonKernels common;
    for (size_t side = 0; side < 2; ++side) {
        const bool more = side == repeats.more;
        const uint32_t from = more ? repeats.extraPositions.front() : 0;
        const uint32_t to = more ? repeats.extraPositions.back() + 1 : 0;
        for (uint32_t k = 0; k < kernels[side].size(); ++k) {
            if (k >= from && k < to)
                continue;
            common.types[side].push_back(kernels[side][k].type);
            common.positions[side].push_back(k);
        }
    }
    return common;
}

std::vector<AlignedPair> withExtraCopies(
    const std::vector<AlignedPair>& common, const CommonKernels& kernels, const RepeatDifference& repeats)
{
    const auto whole = [&kernels](size_t side, int64_t index) {
        return index < 0 ? int64_t(-1) : int64_t(kernels.positions[side][size_t(index)]);
    };
    const auto firstExtra = int64_t(repeats.extraPositions.front());
    std::vector<AlignedPair> alignment;
    alignment.reserve(common.size() + repeats.extraPositions.size());
    bool inserted = false;
    const auto insertExtras = [&] {
        for (const uint32_t k : repeats.extraPositions)
            alignment.push_back(repeats.more == 0 ? AlignedPair { int64_t(k), -1 } : AlignedPair { -1, int64_t(k) });
        inserted = true;
    };
    for (const AlignedPair& pair : common) {
        const AlignedPair mapped { whole(0, pair.first), whole(1, pair.second) };
        const int64_t onMore = repeats.more == 0 ? mapped.first : mapped.second;
        if (!inserted && onMore > firstExtra)
            insertExtras();
        alignment.push_back(mapped);
    }
    if (!inserted)
        insertExtras();
    return alignment;
}

std::string repeatDifferenceText(
    const OpFinding& finding, const RepeatDifference& repeats, const NamingContext& naming, double workUs)
{
    const size_t more = repeats.more;
    const size_t fewer = 1 - more;
    const RepeatedBlock& many = repeats.blocks[more];
    const RepeatedBlock& few = repeats.blocks[fewer];
    std::vector<uint32_t> block(many.length);
    std::iota(block.begin(), block.end(), many.begin);
    const uint32_t extra = many.copies - few.copies;
    return naming.sideNames[more] + " runs a block of " + withThousands(int64_t(many.length)) + " kernels ("
        + describeTypes(finding.kernels[more], block, naming.typeNames, 4) + ") " + timesText(many.copies) + " where "
        + naming.sideNames[fewer] + " runs its " + withThousands(int64_t(few.length)) + " kernels "
        + timesText(few.copies) + " (a layer stack, or a loop over images or requests, of another length): the extra "
        + (extra == 1 ? "copy" : withThousands(int64_t(extra)) + " copies") + " ("
        + countedNoun(repeats.extraPositions.size(), "kernel", "kernels") + ", " + formatDuration(workUs)
        + (extra == 1 ? ") is" : ") are") + " a difference in the work, counted neither as extra kernels nor as speed";
}

Side moreCopiesSide(const OpFinding& finding)
{
    return finding.blockCopies[0] > finding.blockCopies[1] ? Side::Trace1 : Side::Trace2;
}

} // namespace fusiondiff
