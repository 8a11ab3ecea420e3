#include "ops/alignment/gappairs.h"

#include "model/tracestore.h"
#include "ops/attribution/opattribution.h"

#include <algorithm>
#include <span>

namespace fusiondiff {

namespace {

// Larger gaps are not one piece of work done differently: a stretch of a model one side runs and
// the other does not (a step the other trace does not hold, a different model).
constexpr size_t kLargestGap = 8;

class GapPairer
{
public:
    GapPairer(const std::array<PreparedSide, 2>& sides, std::vector<PhaseMatch>& matches, uint32_t level)
        : m_sides(sides)
        , m_matches(matches)
        , m_level(level)
    {
        for (size_t side = 0; side < 2; ++side) {
            m_matchOf[side].assign(sides[side].occurrences.size(), -1);
            m_position[side].assign(sides[side].occurrences.size(), 0);
            m_segmentOf[side].assign(sides[side].occurrences.size(), -1);
        }
        for (size_t m = 0; m < matches.size(); ++m) {
            m_matchOf[0][matches[m].first] = int32_t(m);
            m_matchOf[1][matches[m].second] = int32_t(m);
        }
    }

    void segment(const AlignedSegment& segment)
    {
        const int32_t number = m_segments++;
        for (size_t side = 0; side < 2; ++side) {
            for (size_t p = 0; p < segment[side].size(); ++p) {
                m_position[side][segment[side][p]] = uint32_t(p);
                m_segmentOf[side][segment[side][p]] = number;
            }
        }
        // The pairs inside the segment in order (they do not cross), then the segment's end as the
        // last bound. Pairs across segments (made where layers do not end alike on both sides) are
        // no bound; their operations are not left over.
        size_t previousFirst = 0, previousSecond = 0;
        int32_t previousMatch = -1;
        auto gapUpTo = [&](size_t first, size_t second, int32_t match) {
            if (second >= previousSecond) { // pairs never cross; if they did, there would be no gap
                std::array<std::vector<uint32_t>, 2> left;
                for (size_t p = previousFirst; p < first; ++p) {
                    if (m_matchOf[0][segment[0][p]] < 0)
                        left[0].push_back(segment[0][p]);
                }
                for (size_t p = previousSecond; p < second; ++p) {
                    if (m_matchOf[1][segment[1][p]] < 0)
                        left[1].push_back(segment[1][p]);
                }
                gap({ left[0], left[1] }, previousMatch, match);
            }
            previousFirst = first + 1;
            previousSecond = std::max(previousSecond, second + 1);
            previousMatch = match;
        };
        for (size_t p = 0; p < segment[0].size(); ++p) {
            const int32_t match = m_matchOf[0][segment[0][p]];
            if (match < 0 || m_matches[size_t(match)].first != segment[0][p])
                continue;
            const uint32_t second = m_matches[size_t(match)].second;
            if (m_segmentOf[1][second] == number)
                gapUpTo(p, m_position[1][second], match);
        }
        gapUpTo(segment[0].size(), segment[1].size(), -1);
    }

    GapPairing result() const { return m_result; }

private:
    void gap(std::array<std::span<const uint32_t>, 2> left, int32_t before, int32_t after)
    {
        // First what continues the neighbouring pairs' own modules (B's split-K reduce operator
        // right after the GEMM, in its Linear): that joins them, whatever the other side left.
        for (size_t side = 0; side < 2; ++side) {
            while (!left[side].empty() && inTheSameUnit(side, left[side].front(), before)) {
                join(side, left[side].front(), before);
                left[side] = left[side].subspan(1);
            }
            while (!left[side].empty() && inTheSameUnit(side, left[side].back(), after)) {
                join(side, left[side].back(), after);
                left[side] = left[side].first(left[side].size() - 1);
            }
        }
        if (left[0].empty() && left[1].empty())
            return;
        if (!left[0].empty() && !left[1].empty()) {
            // Only between two pairs: at a segment's start or end, what one side runs there may be
            // work of its own (the sampling after a forward pass against another stack's head).
            if (before < 0 || after < 0 || left[0].size() > kLargestGap || left[1].size() > kLargestGap)
                return;
            PhaseMatch group { left[0].front(), left[1].front(), m_level, {} };
            for (size_t side = 0; side < 2; ++side)
                group.joined[side].assign(left[side].begin() + 1, left[side].end());
            m_matches.push_back(std::move(group));
            ++m_result.groups;
            return;
        }
        const size_t side = left[0].empty() ? 1 : 0;
        if (left[side].size() > kLargestGap)
            return;
        for (const uint32_t occurrence : left[side]) {
            const int32_t target = neighbourInTheSameUnit(side, occurrence, before, after);
            if (target >= 0)
                join(side, occurrence, target);
        }
    }

    void join(size_t side, uint32_t occurrence, int32_t match)
    {
        m_matches[size_t(match)].joined[side].push_back(occurrence);
        ++m_result.joined;
    }

    // Whether the occurrence's innermost module or Python function is that of the pair's operation
    // on `side`.
    bool inTheSameUnit(size_t side, uint32_t occurrence, int32_t match) const
    {
        if (match < 0)
            return false;
        const int32_t unit = unitOf(side, occurrence);
        return unit >= 0 && unit == unitOf(side, pairedOn(side, match));
    }

    // Of the two neighbouring pairs, the one whose operation on `side` shares the occurrence's
    // innermost module or Python function; -1 if neither does.
    int32_t neighbourInTheSameUnit(size_t side, uint32_t occurrence, int32_t before, int32_t after) const
    {
        const int32_t unit = unitOf(side, occurrence);
        if (unit < 0)
            return -1;
        int32_t best = -1;
        int bestScore = 0;
        for (const int32_t match : { before, after }) {
            if (match < 0)
                continue;
            const uint32_t paired = pairedOn(side, match);
            const int score = unitOf(side, paired) == unit ? 2 : isInside(side, paired, unit) ? 1 : 0;
            if (score > bestScore) {
                best = match;
                bestScore = score;
            }
        }
        return best;
    }

    // The pair's occurrence on `side`.
    uint32_t pairedOn(size_t side, int32_t match) const
    {
        const PhaseMatch& pair = m_matches[size_t(match)];
        return side == 0 ? pair.first : pair.second;
    }

    // The innermost module call around the occurrence's operation; without one, the innermost
    // Python function that is not a built-in (with_stack wraps each operator in a frame of its own,
    // "<built-in method mul of Tensor object>", which says nothing about what belongs together).
    int32_t unitOf(size_t side, uint32_t occurrence) const
    {
        const std::vector<OpFrame>& frames = m_sides[side].attribution.frames;
        const int32_t frame = m_sides[side].occurrences[occurrence].frame;
        int32_t python = -1;
        for (int32_t f = frame >= 0 ? frames[size_t(frame)].parent : -1; f >= 0; f = frames[size_t(f)].parent) {
            const OpFrame& own = frames[size_t(f)];
            if (own.isModule)
                return f;
            if (own.isPython && python < 0 && !m_sides[side].store.name(own.name).starts_with("<built-in"))
                python = f;
        }
        return python;
    }

    // Whether the occurrence's operation runs inside frame `ancestor`.
    bool isInside(size_t side, uint32_t occurrence, int32_t ancestor) const
    {
        const std::vector<OpFrame>& frames = m_sides[side].attribution.frames;
        for (int32_t f = m_sides[side].occurrences[occurrence].frame; f >= 0; f = frames[size_t(f)].parent) {
            if (f == ancestor)
                return true;
        }
        return false;
    }

    const std::array<PreparedSide, 2>& m_sides;
    std::vector<PhaseMatch>& m_matches;
    uint32_t m_level;
    std::array<std::vector<int32_t>, 2> m_matchOf; // per occurrence: the pair it is the anchor of
    std::array<std::vector<uint32_t>, 2> m_position; // per occurrence: its place in its segment
    std::array<std::vector<int32_t>, 2> m_segmentOf; // per occurrence: its segment, in order
    int32_t m_segments = 0;
    GapPairing m_result;
};

} // namespace

GapPairing pairTheGaps(const std::array<PreparedSide, 2>& sides, const std::vector<AlignedSegment>& segments,
    std::vector<PhaseMatch>& matches, uint32_t level)
{
    GapPairer pairer(sides, matches, level);
    for (const AlignedSegment& segment : segments)
        pairer.segment(segment);
    return pairer.result();
}

} // namespace fusiondiff
