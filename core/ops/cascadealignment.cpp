#include "ops/cascadealignment.h"

#include "ops/sequencealignment.h"

#include <algorithm>

namespace fusiondiff {

namespace {

// Keys of elements without one: distinct on each side and between sides, so they never pair.
constexpr uint32_t kUnkeyedBase = 0x80000000u;

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
        std::vector<uint32_t> first = slice(keys.keys[0], firstBegin, firstEnd, 0);
        std::vector<uint32_t> second = slice(keys.keys[1], secondBegin, secondEnd, 1);
        size_t nextFirst = firstBegin; // the unpaired stretch starts here on each side
        size_t nextSecond = secondBegin;
        for (const AlignedPair& pair : alignSymbols(first, second)) {
            if (!pair.isMatch())
                continue;
            const size_t a = firstBegin + size_t(pair.first);
            const size_t b = secondBegin + size_t(pair.second);
            align(level + 1, nextFirst, a, nextSecond, b);
            m_matches.push_back({ uint32_t(a), uint32_t(b), uint32_t(level) });
            nextFirst = a + 1;
            nextSecond = b + 1;
        }
        align(level + 1, nextFirst, firstEnd, nextSecond, secondEnd);
    }

    std::vector<CascadeMatch> take() { return std::move(m_matches); }

private:
    static std::vector<uint32_t> slice(std::span<const uint32_t> keys, size_t begin, size_t end, uint32_t side)
    {
        std::vector<uint32_t> result(keys.begin() + std::ptrdiff_t(begin), keys.begin() + std::ptrdiff_t(end));
        for (size_t i = 0; i < result.size(); ++i) {
            if (result[i] == kNoKey || result[i] >= kUnkeyedBase)
                result[i] = kUnkeyedBase + uint32_t(2 * (i % (kUnkeyedBase / 2 - 1)) + side);
        }
        return result;
    }

    std::span<const CascadeLevel> m_levels;
    std::vector<CascadeMatch> m_matches;
};

} // namespace

std::vector<CascadeMatch> alignByLevels(std::span<const CascadeLevel> levels, size_t firstCount, size_t secondCount)
{
    Cascade cascade(levels);
    cascade.align(0, 0, firstCount, 0, secondCount);
    return cascade.take();
}

} // namespace fusiondiff
