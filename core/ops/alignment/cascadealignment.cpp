#include "ops/alignment/cascadealignment.h"

#include "ops/alignment/sequencealignment.h"

#include <algorithm>
#include <array>
#include <unordered_map>

namespace fusiondiff {

namespace {

class Cascade
{
public:
    explicit Cascade(std::span<const CascadeLevel> levels)
        : m_levels(levels)
    { }

    void align(size_t level, size_t firstBegin, size_t firstEnd, size_t secondBegin, size_t secondEnd)
    {
        if (level >= m_levels.size() || firstBegin == firstEnd || secondBegin == secondEnd)
            return;
        const CascadeLevel& keys = m_levels[level];
        if (firstEnd - firstBegin > keys.maxStretch || secondEnd - secondBegin > keys.maxStretch)
            return align(level + 1, firstBegin, firstEnd, secondBegin, secondEnd);
        if (isScored(keys, firstBegin, firstEnd, secondBegin, secondEnd))
            return alignScored(level, firstBegin, firstEnd, secondBegin, secondEnd);
        // Only elements whose key the other side has can pair (a level whose names differ
        // everywhere costs one pass, not a full alignment). The others keep their place as keys
        // that match nothing: where one side runs an operation the other runs differently (a
        // split kernel), the two stand against each other, and a run of look-alike neighbours
        // (single elementwise kernels) is not shifted by one into the gap.
        std::vector<uint32_t> firstIndex, secondIndex;
        std::vector<uint32_t> first = shared(keys.keys[0], firstBegin, firstEnd, keys.keys[1], secondBegin, secondEnd,
            firstIndex, keys.equalCountsOnly, kUnsharedFirst);
        std::vector<uint32_t> second = shared(keys.keys[1], secondBegin, secondEnd, keys.keys[0], firstBegin, firstEnd,
            secondIndex, keys.equalCountsOnly, kUnsharedSecond);
        if (m_sharedCount[0] == 0 || m_sharedCount[1] == 0) {
            first.clear();
            second.clear();
        }
        size_t nextFirst = firstBegin; // the unpaired stretch starts here on each side
        size_t nextSecond = secondBegin;
        for (const AlignedPair& pair : alignSymbols(first, second)) {
            if (!pair.isMatch())
                continue;
            const size_t a = firstIndex[size_t(pair.first)];
            const size_t b = secondIndex[size_t(pair.second)];
            alignBetween(level, nextFirst, a, nextSecond, b);
            m_matches.push_back({ uint32_t(a), uint32_t(b), uint32_t(level) });
            nextFirst = a + 1;
            nextSecond = b + 1;
        }
        alignBetween(level, nextFirst, firstEnd, nextSecond, secondEnd);
    }

    std::vector<CascadeMatch> take() { return std::move(m_matches); }

private:
    static bool isScored(
        const CascadeLevel& keys, size_t firstBegin, size_t firstEnd, size_t secondBegin, size_t secondEnd)
    {
        return keys.similarity && firstEnd - firstBegin <= keys.scoredStretch
            && secondEnd - secondBegin <= keys.scoredStretch;
    }

    // What a level left between two of its pairs on a long stretch: the same level's score where
    // the gap is short enough for it, else the next level.
    void alignBetween(size_t level, size_t firstBegin, size_t firstEnd, size_t secondBegin, size_t secondEnd)
    {
        if (firstBegin == firstEnd || secondBegin == secondEnd)
            return;
        if (isScored(m_levels[level], firstBegin, firstEnd, secondBegin, secondEnd))
            return alignScored(level, firstBegin, firstEnd, secondBegin, secondEnd);
        if (isLongRun(m_levels[level], firstEnd - firstBegin, secondEnd - secondBegin))
            return alignScoredInChunks(level, firstBegin, firstEnd, secondBegin, secondEnd);
        align(level + 1, firstBegin, firstEnd, secondBegin, secondEnd);
    }

    // A long stretch of about the same length on both sides (CascadeLevel::scoreLongRuns).
    static bool isLongRun(const CascadeLevel& keys, size_t n, size_t m)
    {
        return keys.scoreLongRuns && keys.similarity
            && std::min(n, m) * kLongRunBalance[1] >= std::max(n, m) * kLongRunBalance[0];
    }

    // alignScored over consecutive chunks of both sides, cut in proportion to their lengths, each
    // of at most kLongRunChunkCells cells.
    void alignScoredInChunks(size_t level, size_t firstBegin, size_t firstEnd, size_t secondBegin, size_t secondEnd)
    {
        const size_t n = firstEnd - firstBegin;
        const size_t m = secondEnd - secondBegin;
        size_t chunks = 1;
        while ((n / chunks + 1) * (m / chunks + 1) > kLongRunChunkCells)
            ++chunks;
        for (size_t c = 0; c < chunks; ++c) {
            alignScored(level, firstBegin + n * c / chunks, firstBegin + n * (c + 1) / chunks,
                secondBegin + m * c / chunks, secondBegin + m * (c + 1) / chunks);
        }
    }

    // The pairs in order of the largest total CascadeLevel::similarity, then of the most equal
    // keys (a short stretch: a table of at most scoredStretch x scoredStretch cells).
    void alignScored(size_t level, size_t firstBegin, size_t firstEnd, size_t secondBegin, size_t secondEnd)
    {
        const CascadeLevel& keys = m_levels[level];
        const size_t n = firstEnd - firstBegin;
        const size_t m = secondEnd - secondBegin;
        using Score = std::pair<uint64_t, uint64_t>; // (similarity, pairs of equal keys)
        std::vector<Score> best((n + 1) * (m + 1), Score {});
        std::vector<uint32_t> pairScore(n * m, 0);
        auto at = [&](size_t i, size_t j) -> Score& { return best[i * (m + 1) + j]; };
        for (size_t i = 1; i <= n; ++i) {
            for (size_t j = 1; j <= m; ++j) {
                const size_t a = firstBegin + i - 1;
                const size_t b = secondBegin + j - 1;
                Score score = std::max(at(i - 1, j), at(i, j - 1));
                const uint32_t similarity = keys.similarity(a, b);
                pairScore[(i - 1) * m + (j - 1)] = similarity;
                if (similarity > 0) {
                    const bool equal = keys.keys[0][a] != kNoKey && keys.keys[0][a] == keys.keys[1][b];
                    const Score paired { at(i - 1, j - 1).first + similarity, at(i - 1, j - 1).second + equal };
                    score = std::max(score, paired);
                }
                at(i, j) = score;
            }
        }
        std::vector<std::pair<size_t, size_t>> pairs;
        for (size_t i = n, j = m; i > 0 && j > 0;) {
            const uint32_t similarity = pairScore[(i - 1) * m + (j - 1)];
            const size_t a = firstBegin + i - 1;
            const size_t b = secondBegin + j - 1;
            const bool equal = keys.keys[0][a] != kNoKey && keys.keys[0][a] == keys.keys[1][b];
            if (similarity > 0
                && at(i, j) == Score { at(i - 1, j - 1).first + similarity, at(i - 1, j - 1).second + equal }) {
                pairs.emplace_back(a, b);
                --i;
                --j;
            } else if (at(i, j) == at(i - 1, j)) {
                --i;
            } else {
                --j;
            }
        }
        size_t nextFirst = firstBegin;
        size_t nextSecond = secondBegin;
        for (size_t p = pairs.size(); p-- > 0;) {
            const auto [a, b] = pairs[p];
            align(level + 1, nextFirst, a, nextSecond, b);
            m_matches.push_back({ uint32_t(a), uint32_t(b), uint32_t(level) });
            nextFirst = a + 1;
            nextSecond = b + 1;
        }
        align(level + 1, nextFirst, firstEnd, nextSecond, secondEnd);
    }

    // A long run's shorter side is at least 4/5 of the longer one.
    static constexpr size_t kLongRunBalance[2] = { 4, 5 };
    static constexpr size_t kLongRunChunkCells = size_t(1) << 16;

    // Keys no element has, one per side, so that they match nothing on the other side.
    static constexpr uint32_t kUnsharedFirst = kNoKey - 1;
    static constexpr uint32_t kUnsharedSecond = kNoKey - 2;

    // The keys of [begin, end), with `unshared` for those the other side's [otherBegin, otherEnd)
    // does not have (as often, with `equalCounts`), and where each one is (`where`); the number
    // of shared ones in m_sharedCount.
    std::vector<uint32_t> shared(std::span<const uint32_t> keys, size_t begin, size_t end,
        std::span<const uint32_t> otherKeys, size_t otherBegin, size_t otherEnd, std::vector<uint32_t>& where,
        bool equalCounts, uint32_t unshared)
    {
        m_present.clear();
        for (size_t i = otherBegin; i < otherEnd; ++i) {
            if (otherKeys[i] != kNoKey)
                ++m_present[otherKeys[i]];
        }
        if (equalCounts) {
            for (size_t i = begin; i < end; ++i) {
                if (keys[i] != kNoKey) {
                    const auto it = m_present.find(keys[i]);
                    if (it != m_present.end())
                        --it->second;
                }
            }
        }
        std::vector<uint32_t> result;
        size_t& count = m_sharedCount[unshared == kUnsharedFirst ? 0 : 1];
        count = 0;
        for (size_t i = begin; i < end; ++i) {
            const auto it = keys[i] != kNoKey ? m_present.find(keys[i]) : m_present.end();
            const bool isShared = it != m_present.end() && (!equalCounts || it->second == 0);
            result.push_back(isShared ? keys[i] : unshared);
            where.push_back(uint32_t(i));
            count += isShared;
        }
        return result;
    }

    std::span<const CascadeLevel> m_levels;
    std::vector<CascadeMatch> m_matches;
    std::unordered_map<uint32_t, int64_t> m_present; // key -> count on the other side
    std::array<size_t, 2> m_sharedCount {};
};

} // namespace

std::vector<CascadeMatch> alignByLevels(std::span<const CascadeLevel> levels, size_t firstCount, size_t secondCount)
{
    Cascade cascade(levels);
    cascade.align(0, 0, firstCount, 0, secondCount);
    return cascade.take();
}

} // namespace fusiondiff
