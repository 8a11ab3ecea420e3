#include "ops/comparison/graphcomparer.h"

#include "classify/kerneltypes.h"
#include "model/tracestore.h"
#include "ops/alignment/affinealignment.h"
#include "util/textformat.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace fusiondiff {

namespace {

// Kernel pairs the alignment of the two launch sequences may score (its memory in bytes).
constexpr double kWindowCells = 8e6;
// A launch is a part of a covering launch if this share of its kernels lines up inside it...
constexpr double kPartShare = 0.1;
// ... and nearly all of its kernels that line up at all do (a launch whose kernels straddle two
// launches of the other side is not a part of either: the two traces' launches are cut differently).
constexpr double kWholeShare = 0.9;
// Launches pair one to one if most of the kernels that line up go to each other.
constexpr double kMostShare = 0.5;
// Launches paired one to one share at least this share of the longer one's kernels by type (a
// 600-kernel graph and a 60-kernel one that only share the 60 are not the same work).
constexpr double kPairShare = 0.2;

uint64_t totalKernels(const TraceGraphs& graphs)
{
    uint64_t total = 0;
    for (const GraphLaunch& launch : graphs.launches)
        total += launch.kernels.size();
    return total;
}

} // namespace

// Aligns the kernel types of the first launches of both traces (the same share of each
// trace's graph kernels, as many as kWindowCells allows) and derives which launch does the
// work of which.
void GraphComparer::alignWindows()
{
    std::array<uint64_t, 2> total { totalKernels(m_sides[0].graphs), totalKernels(m_sides[1].graphs) };
    const double share = std::min(1.0, std::sqrt(kWindowCells / (double(total[0]) * double(total[1]))));
    std::array<std::vector<uint16_t>, 2> sequence;
    std::array<std::vector<float>, 2> durations;
    std::array<std::vector<uint32_t>, 2> launchOf;
    for (size_t s = 0; s < 2; ++s) {
        PreparedSide& side = m_sides[s];
        const double budget = std::max(1.0, share * double(total[s]));
        for (const GraphLaunch& launch : side.graphs.launches) {
            if (side.window > 0 && double(sequence[s].size() + launch.kernels.size()) > budget)
                break;
            for (const uint32_t k : launch.kernels) {
                sequence[s].push_back(side.input.types.ofKernel[k]);
                durations[s].push_back(float(side.input.store.kernels[k].dur));
                launchOf[s].push_back(uint32_t(side.window));
            }
            ++side.window;
        }
        m_result.comparison.alignedLaunches[s] = side.window;
    }
    if (double(sequence[0].size()) * double(sequence[1].size()) > 2 * kWindowCells) {
        m_result.comparison.notes.push_back("The first graph launches hold too many kernels ("
            + withThousands(int64_t(sequence[0].size())) + " and " + withThousands(int64_t(sequence[1].size()))
            + ") to align: graph kinds are matched by their kernel types alone, and no coverage is looked for.");
        m_sides[0].window = m_sides[1].window = 0;
        m_result.comparison.alignedLaunches = { 0, 0 };
        return;
    }
    // Kernels of the same type paired between two launches.
    std::map<std::pair<uint32_t, uint32_t>, uint64_t> weight;
    std::array<std::vector<uint64_t>, 2> matched { std::vector<uint64_t>(m_sides[0].window, 0),
        std::vector<uint64_t>(m_sides[1].window, 0) };
    for (const AlignedPair& pair : alignAffine(sequence[0], sequence[1], durations[0], durations[1])) {
        if (!pair.isMatch() || sequence[0][size_t(pair.first)] != sequence[1][size_t(pair.second)])
            continue;
        const uint32_t a = launchOf[0][size_t(pair.first)];
        const uint32_t b = launchOf[1][size_t(pair.second)];
        ++weight[{ a, b }];
        ++matched[0][a];
        ++matched[1][b];
        m_positionPartner[{ a, b }].push_back({ uint32_t(pair.first), uint32_t(pair.second) });
    }
    m_windowStart = { startsOf(0), startsOf(1) };
    m_matched = matched;
    m_weight = std::move(weight);
    // Each launch's partners, in order: the alignment pairs a launch with a few others only.
    for (size_t s = 0; s < 2; ++s)
        m_neighbours[s].resize(m_sides[s].window);
    for (const auto& [launches, w] : m_weight) {
        m_neighbours[0][launches.first].emplace_back(launches.second, w);
        m_neighbours[1][launches.second].emplace_back(launches.first, w);
    }
    for (auto& lists : m_neighbours) {
        for (auto& list : lists)
            std::sort(list.begin(), list.end());
    }
    findCoverage();
    pairLaunches();
    dropInconsistentCoverage();
}

std::vector<uint32_t> GraphComparer::startsOf(size_t s) const
{
    std::vector<uint32_t> starts;
    uint32_t position = 0;
    for (size_t l = 0; l < m_sides[s].window; ++l) {
        starts.push_back(position);
        position += uint32_t(m_sides[s].graphs.launches[l].kernels.size());
    }
    return starts;
}

uint64_t GraphComparer::weightOf(size_t s, uint32_t own, uint32_t other) const
{
    const auto it = m_weight.find(s == 0 ? std::pair { own, other } : std::pair { other, own });
    return it == m_weight.end() ? 0 : it->second;
}

// The other side's launches that do their work inside launch `own` of side `s`.
std::vector<uint32_t> GraphComparer::partsOf(size_t s, uint32_t own) const
{
    std::vector<uint32_t> parts;
    const size_t o = 1 - s;
    for (const auto& [other, w] : m_neighbours[s][own]) {
        const double size = double(m_sides[o].graphs.launches[other].kernels.size());
        if (double(w) >= std::max(1.0, kPartShare * size) && double(w) >= kWholeShare * double(m_matched[o][other]))
            parts.push_back(other);
    }
    return parts;
}

void GraphComparer::findCoverage()
{
    std::array<std::vector<bool>, 2> involved { std::vector<bool>(m_sides[0].window, false),
        std::vector<bool>(m_sides[1].window, false) };
    // The longest launches first: a launch that covers others cannot be a part itself.
    std::vector<std::pair<size_t, uint32_t>> order;
    for (size_t s = 0; s < 2; ++s) {
        for (uint32_t l = 0; l < m_sides[s].window; ++l)
            order.emplace_back(s, l);
    }
    std::stable_sort(order.begin(), order.end(), [&](const auto& x, const auto& y) {
        return m_sides[x.first].graphs.launches[x.second].kernels.size()
            > m_sides[y.first].graphs.launches[y.second].kernels.size();
    });
    for (const auto& [s, l] : order) {
        if (involved[s][l])
            continue;
        std::vector<uint32_t> parts = partsOf(s, l);
        const size_t other = 1 - s; // not `s` in the lambda: clang 14 (clang-tidy) cannot capture a binding
        std::erase_if(parts, [&](uint32_t p) { return involved[other][p]; });
        if (parts.size() < 2)
            continue;
        uint64_t sameType = 0;
        uint64_t partKernels = 0;
        uint64_t largestPart = 0;
        for (const uint32_t p : parts) {
            sameType += weightOf(s, l, p);
            partKernels += m_sides[1 - s].graphs.launches[p].kernels.size();
            largestPart = std::max<uint64_t>(largestPart, m_sides[1 - s].graphs.launches[p].kernels.size());
        }
        const uint64_t own = m_sides[s].graphs.launches[l].kernels.size();
        // A launch no longer than one of its parts would do the others' work with no kernel: the
        // alignment slipped across a launch boundary (runs of kernels of one type tie), and the
        // launch is that part's partner, not a cover.
        if (own <= largestPart)
            continue;
        if (double(sameType) < kMostShare * double(std::min(own, partKernels)))
            continue; // the kernels mostly differ: not the same work split differently
        involved[s][l] = true;
        for (const uint32_t p : parts)
            involved[1 - s][p] = true;
        m_coverings.push_back({ s, l, std::move(parts) });
    }
    m_involved = involved;
}

// Launches that do each other's work one to one vote for matching their kinds.
// A covering launch followed by launches of its own trace that do nothing of the other's work,
// while the other trace has launches left over, is an artefact of aligning different work:
// the alignment squeezed the other side's launches into it. Such coverage is dropped.
void GraphComparer::dropInconsistentCoverage()
{
    auto accounted = [&](size_t s, uint32_t l) { return m_involved[s][l] || m_paired[s][l]; };
    std::erase_if(m_coverings, [&](const Covering& covering) {
        const size_t s = covering.side;
        bool idleAfter = false;
        for (uint32_t l = covering.launch + 1; l < m_sides[s].window; ++l)
            idleAfter = idleAfter || !accounted(s, l);
        bool otherLeft = false;
        for (uint32_t l = 0; l < m_sides[1 - s].window; ++l)
            otherLeft = otherLeft || !accounted(1 - s, l);
        if (!idleAfter || !otherLeft)
            return false;
        m_involved[s][covering.launch] = false;
        for (const uint32_t p : covering.parts)
            m_involved[1 - s][p] = false;
        return true;
    });
}

void GraphComparer::pairLaunches()
{
    m_paired = { std::vector<bool>(m_sides[0].window, false), std::vector<bool>(m_sides[1].window, false) };
    std::map<std::pair<uint32_t, uint32_t>, uint64_t> votes;
    auto best = [&](size_t s, uint32_t own) {
        uint32_t partner = UINT32_MAX;
        uint64_t most = 0;
        for (const auto& [other, w] : m_neighbours[s][own]) {
            if (w > most || (w == most && other < partner)) {
                most = w;
                partner = other;
            }
        }
        return std::pair { partner, most };
    };
    for (uint32_t a = 0; a < m_sides[0].window; ++a) {
        if (m_involved[0][a])
            continue;
        const auto [b, w] = best(0, a);
        if (b == UINT32_MAX || m_involved[1][b] || double(w) < kMostShare * double(m_matched[0][a]))
            continue;
        if (best(1, b).first != a || double(w) < kMostShare * double(m_matched[1][b]))
            continue;
        const size_t longer
            = std::max(m_sides[0].graphs.launches[a].kernels.size(), m_sides[1].graphs.launches[b].kernels.size());
        if (double(w) < kPairShare * double(longer))
            continue; // too little in common: different work that happens to sit in the same place
        ++votes[{ m_sides[0].graphs.launches[a].kind, m_sides[1].graphs.launches[b].kind }];
        m_paired[0][a] = true;
        m_paired[1][b] = true;
    }
    // Each kind's most voted partner, where the choice is mutual.
    std::array<std::vector<std::pair<int32_t, uint64_t>>, 2> bestVote { std::vector<std::pair<int32_t, uint64_t>>(
                                                                            m_sides[0].graphs.kinds.size(), { -1, 0 }),
        std::vector<std::pair<int32_t, uint64_t>>(m_sides[1].graphs.kinds.size(), { -1, 0 }) };
    for (const auto& [kinds, count] : votes) {
        if (count > bestVote[0][kinds.first].second)
            bestVote[0][kinds.first] = { int32_t(kinds.second), count };
        if (count > bestVote[1][kinds.second].second)
            bestVote[1][kinds.second] = { int32_t(kinds.first), count };
    }
    for (uint32_t ka = 0; ka < bestVote[0].size(); ++ka) {
        const int32_t kb = bestVote[0][ka].first;
        if (kb >= 0 && bestVote[1][size_t(kb)].first == int32_t(ka))
            addKindPair(ka, uint32_t(kb), "launch sequence alignment");
    }
}

} // namespace fusiondiff
