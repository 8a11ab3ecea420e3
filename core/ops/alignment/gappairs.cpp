#include "ops/alignment/gappairs.h"

#include "model/tracestore.h"
#include "ops/alignment/alignmentkeys.h"
#include "ops/attribution/opattribution.h"

#include <algorithm>
#include <span>
#include <unordered_map>
#include <utility>

namespace fusiondiff {

namespace {

// Larger gaps are not one piece of work done differently: a stretch of a model one side runs and
// the other does not (a step the other trace does not hold, a different model).
constexpr size_t kLargestGap = 8;

// What the alignment left between two consecutive pairs of a segment (or a pair and its ends).
struct Gap
{
    std::array<std::vector<uint32_t>, 2> left; // occurrences of each side, in order
    int32_t before = -1; // the pairs around it, -1 at the segment's start or end
    int32_t after = -1;
};

// How far apart, in gaps, an operation and its usual partner may be left: each pair between
// them is one operation the two traces run in another order.
constexpr size_t kGapsApart = 2;

using UsualPartners = std::array<std::unordered_map<uint32_t, uint32_t>, 2>; // per side: symbol -> symbol

// Each operation's usual partner: the other side's operation it is paired with by name (or by
// learned renaming) in most of its pairs so made, where that operation's usual partner is it in
// turn.
UsualPartners usualPartners(const std::array<PreparedSide, 2>& sides, const std::vector<PhaseMatch>& matches)
{
    std::array<std::unordered_map<uint32_t, std::unordered_map<uint32_t, uint64_t>>, 2> pairedWith;
    for (const PhaseMatch& match : matches) {
        if (match.level > renamedOperatorLevel())
            continue; // kernels alone pair what names would not (a 1-kernel `clamp_` with a 1-kernel `log`)
        const uint32_t first = sides[0].occurrences[match.first].symbol;
        const uint32_t second = sides[1].occurrences[match.second].symbol;
        ++pairedWith[0][first][second];
        ++pairedWith[1][second][first];
    }
    std::array<std::unordered_map<uint32_t, uint32_t>, 2> mostOften;
    for (size_t side = 0; side < 2; ++side) {
        for (const auto& [symbol, partners] : pairedWith[side]) {
            uint64_t total = 0, most = 0;
            uint32_t partner = 0;
            for (const auto& [other, count] : partners) {
                total += count;
                if (count > most || (count == most && other < partner)) {
                    most = count;
                    partner = other;
                }
            }
            if (2 * most > total)
                mostOften[side].emplace(symbol, partner);
        }
    }
    UsualPartners usual;
    for (const auto& [symbol, partner] : mostOften[0]) {
        const auto back = mostOften[1].find(partner);
        if (back != mostOften[1].end() && back->second == symbol) {
            usual[0].emplace(symbol, partner);
            usual[1].emplace(partner, symbol);
        }
    }
    return usual;
}

// Pairs made on kernels alone whose operations have other usual partners: A's `sqrt` against B's
// `add_` where one trace ran `sqrt` before a neighbour and the other after it, and both kernel
// sequences start with an elementwise kernel. Names paired everywhere else say more than one
// shared first kernel; left to the gaps, each finds its usual partner or what replaced it.
void dissolvePairsAgainstTheUsualPartners(
    const std::array<PreparedSide, 2>& sides, const UsualPartners& usual, std::vector<PhaseMatch>& matches)
{
    auto hasAnother = [&](size_t side, uint32_t symbol, uint32_t partner) {
        const auto found = usual[side].find(symbol);
        return found != usual[side].end() && found->second != partner;
    };
    std::erase_if(matches, [&](const PhaseMatch& match) {
        if (match.level <= renamedOperatorLevel())
            return false;
        const uint32_t first = sides[0].occurrences[match.first].symbol;
        const uint32_t second = sides[1].occurrences[match.second].symbol;
        return hasAnother(0, first, second) || hasAnother(1, second, first);
    });
}

class GapPairer
{
public:
    GapPairer(
        const std::array<PreparedSide, 2>& sides, UsualPartners usual, std::vector<PhaseMatch>& matches, uint32_t level)
        : m_sides(sides)
        , m_usualPartner(std::move(usual[0]))
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
        std::vector<Gap> gaps;
        size_t previousFirst = 0, previousSecond = 0;
        int32_t previousMatch = -1;
        auto gapUpTo = [&](size_t first, size_t second, int32_t match) {
            if (second >= previousSecond) { // pairs never cross; if they did, there would be no gap
                Gap left { {}, previousMatch, match };
                for (size_t p = previousFirst; p < first; ++p) {
                    if (m_matchOf[0][segment[0][p]] < 0)
                        left.left[0].push_back(segment[0][p]);
                }
                for (size_t p = previousSecond; p < second; ++p) {
                    if (m_matchOf[1][segment[1][p]] < 0)
                        left.left[1].push_back(segment[1][p]);
                }
                gaps.push_back(std::move(left));
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
        pairTheReordered(gaps);
        for (const Gap& left : gaps)
            gap({ left.left[0], left.left[1] }, left.before, left.after);
    }

    GapPairing result() const { return m_result; }

private:
    // One trace runs two neighbouring operations in the other order (independent operations a
    // stack schedules otherwise): the alignment pairs one of them and leaves the other on each side,
    // in the same gap or in the two around the pair (further apart where names repeat nearby). Grouped with whatever
    // else is left there (B's split `add_` after A's `sqrt`), it would make a finding of work that is no different;
    // paired with its usual partner at most kGapsApart gaps away, it is what it is everywhere else. Only in gaps of at
    // most kLargestGap operations a side (larger ones are work one side runs alone). These pairs are no bound of the
    // gaps: what is left around them stays where it was.
    void pairTheReordered(std::vector<Gap>& gaps)
    {
        auto small
            = [&](size_t g) { return gaps[g].left[0].size() <= kLargestGap && gaps[g].left[1].size() <= kLargestGap; };
        for (size_t g = 0; g < gaps.size(); ++g) {
            if (!small(g))
                continue;
            std::vector<uint32_t>& own = gaps[g].left[0];
            // The gap itself first, then those before and after it, nearest first.
            std::vector<size_t> near { g };
            for (size_t distance = 1; distance <= kGapsApart; ++distance) {
                if (g >= distance)
                    near.push_back(g - distance);
                if (g + distance < gaps.size())
                    near.push_back(g + distance);
            }
            for (size_t i = 0; i < own.size();) {
                const auto partner = m_usualPartner.find(symbolOf(0, own[i]));
                bool paired = false;
                for (const size_t n : near) {
                    if (partner == m_usualPartner.end() || paired || !small(n))
                        continue;
                    std::vector<uint32_t>& other = gaps[n].left[1];
                    const auto found = std::find_if(other.begin(), other.end(),
                        [&](uint32_t occurrence) { return symbolOf(1, occurrence) == partner->second; });
                    if (found == other.end())
                        continue;
                    m_matches.push_back({ own[i], *found, m_level + 2, {} });
                    ++m_result.reordered;
                    other.erase(found);
                    paired = true;
                }
                if (paired)
                    own.erase(own.begin() + std::ptrdiff_t(i));
                else
                    ++i;
            }
        }
    }

    uint32_t symbolOf(size_t side, uint32_t occurrence) const { return m_sides[side].occurrences[occurrence].symbol; }

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
    std::unordered_map<uint32_t, uint32_t> m_usualPartner; // symbol of side 0 -> symbol of side 1
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
    UsualPartners usual = usualPartners(sides, matches);
    dissolvePairsAgainstTheUsualPartners(sides, usual, matches);
    GapPairer pairer(sides, std::move(usual), matches, level);
    for (const AlignedSegment& segment : segments)
        pairer.segment(segment);
    return pairer.result();
}

} // namespace fusiondiff
