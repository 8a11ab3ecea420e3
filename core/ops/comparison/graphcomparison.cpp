#include "ops/comparison/graphcomparison.h"

#include "classify/kerneltypes.h"
#include "model/tracestore.h"
#include "ops/alignment/affinealignment.h"
#include "ops/alignment/sequencealignment.h"
#include "ops/comparison/collectivepart.h"
#include "ops/comparison/findingparts.h"
#include "ops/comparison/graphfindings.h"
#include "ops/comparison/graphtail.h"
#include "ops/comparison/repeatedblocks.h"
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
// Kinds matched by similarity align at least this share of their kernels by type.
constexpr double kKindAgreement = 0.5;
constexpr size_t kStatementParts = 8;
// An edge part shorter than this share of the longest part for the same kind holds only some of its work.
constexpr double kPartialShare = 0.6;

struct PreparedSide
{
    const GraphComparisonTrace& input;
    TraceGraphs graphs;
    std::vector<int32_t> capturedOfKind; // index into the capture's graphs, -1 if none
    size_t window = 0; // launches whose kernels were aligned
    std::vector<int32_t> pairedKind; // per kind: the other side's kind it is matched with, -1 if none
};

uint64_t totalKernels(const TraceGraphs& graphs)
{
    uint64_t total = 0;
    for (const GraphLaunch& launch : graphs.launches)
        total += launch.kernels.size();
    return total;
}

// The launches (1-based, ascending) a "within" pattern is about.
struct PatternLaunches
{
    size_t side = 0; // the covering side
    uint32_t coveringKind = 0;
    uint32_t coveredKind = 0;
    std::vector<uint32_t> covering;
    std::vector<uint32_t> covered;
};

// "launch 3", "launches 3–6", "launches 1, 3–4": consecutive numbers as ranges; more than three
// ranges as "12 launches from 2 to 24".
std::string launchNumbers(const std::vector<uint32_t>& numbers)
{
    size_t ranges = 0;
    for (size_t i = 0; i < numbers.size(); ++i)
        ranges += i == 0 || numbers[i] != numbers[i - 1] + 1;
    if (ranges > 3)
        return countWithThousands(numbers.size()) + " launches from " + std::to_string(numbers.front()) + " to "
            + std::to_string(numbers.back());
    return (numbers.size() == 1 ? "launch " : "launches ") + numberRanges(numbers);
}

class GraphComparer
{
    struct Covering
    {
        size_t side;
        uint32_t launch;
        std::vector<uint32_t> parts; // the other side's launches it does the work of, in order
    };

public:
    GraphComparer(const std::array<GraphComparisonTrace, 2>& traces, const Classifier& classifier,
        const std::array<std::string, 2>& sideNames)
        : m_sides { PreparedSide { traces[0], {}, {}, 0, {} }, PreparedSide { traces[1], {}, {}, 0, {} } }
        , m_classifier(classifier)
        , m_naming { classifier.categories(), classifier.tags(), sideNames }
        , m_extras(classifier.categories().size())
    {
        for (size_t t = 0; t < m_extras.size(); ++t)
            m_extras[t].type = CategoryId(t);
    }

    GraphComparisonResult run()
    {
        GraphComparison& out = m_result.comparison;
        for (size_t s = 0; s < 2; ++s) {
            PreparedSide& side = m_sides[s];
            side.graphs = findGraphLaunches(side.input.store, side.input.types, side.input.shared);
            side.capturedOfKind = mapKindsToCaptures(side.input.store, side.graphs, side.input.capture);
            side.pairedKind.assign(side.graphs.kinds.size(), -1);
            describeKinds(s);
            if (side.input.capture)
                out.captureFiles[s] = side.input.capture->fileName;
        }
        noteStructure();
        if (m_sides[0].graphs.launches.empty() || m_sides[1].graphs.launches.empty()) {
            // Nothing to compare graph against graph: the kernels stay with the operations.
            m_result.graphKernels = {};
        } else {
            alignWindows();
            matchRemainingKinds();
            comparePairs();
            compareCoverage();
        }
        finish();
        return std::move(m_result);
    }

private:
    GraphSide side(size_t s) const { return { m_sides[s].input.store, m_sides[s].input.types }; }

    // What a kind of graph runs: the captured graph's name where a capture trace maps it, else its
    // (at most three) kernel types that take the most time in its first launch.
    std::string kindContent(size_t s, uint32_t kind) const
    {
        const PreparedSide& side = m_sides[s];
        const int32_t captured = side.capturedOfKind[kind];
        if (captured >= 0)
            return side.input.capture->graphs[size_t(captured)].name;
        const GraphLaunch& first = side.graphs.launches[side.graphs.kinds[kind].launches.front()];
        std::vector<std::pair<double, CategoryId>> byType;
        for (const uint32_t k : first.kernels) {
            const CategoryId type = side.input.types.ofKernel[k];
            auto it = std::find_if(byType.begin(), byType.end(), [type](const auto& t) { return t.second == type; });
            if (it == byType.end())
                it = byType.insert(byType.end(), { 0.0, type });
            it->first += side.input.store.kernels[k].dur;
        }
        std::stable_sort(byType.begin(), byType.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
        std::string content;
        for (size_t i = 0; i < std::min<size_t>(3, byType.size()); ++i)
            content += (i == 0 ? "" : "/") + m_naming.typeNames[byType[i].second];
        return content.empty() ? "empty" : content;
    }

    // "GEMM/Attention/Norm (B kind 2, 1,510 kernels, 10 launches)": what the graph runs, then which
    // kind of which side it is and how often it runs. `launches` overrides the kind's launch count
    // with the launch numbers a finding is about ("launches 3–4").
    std::string kindLabel(size_t s, uint32_t kind, const std::string& launches = {}) const
    {
        const GraphLaunchKind& k = m_sides[s].graphs.kinds[kind];
        const size_t kernels = m_sides[s].graphs.launches[k.launches.front()].kernels.size();
        return kindContent(s, kind) + " (" + (s == 0 ? "A" : "B") + " kind " + std::to_string(kind + 1) + ", "
            + withThousands(int64_t(kernels)) + (kernels == 1 ? " kernel, " : " kernels, ")
            + (launches.empty()
                    ? withThousands(int64_t(k.launches.size())) + (k.launches.size() == 1 ? " launch" : " launches")
                    : launches)
            + ")";
    }

    void describeKinds(size_t s)
    {
        PreparedSide& side = m_sides[s];
        GraphComparison& out = m_result.comparison;
        out.launches[s] = side.graphs.launches.size();
        for (const GraphLaunch& launch : side.graphs.launches) {
            out.kernels[s] += launch.kernels.size();
            out.timeUs[s] += launch.timeUs;
            m_result.graphKernels[s].insert(
                m_result.graphKernels[s].end(), launch.kernels.begin(), launch.kernels.end());
        }
        for (size_t k = 0; k < side.graphs.kinds.size(); ++k) {
            const GraphLaunchKind& kind = side.graphs.kinds[k];
            GraphKind row;
            row.number = uint32_t(k + 1);
            row.launches = kind.launches.size();
            row.kernels = uint32_t(kind.names.size());
            row.types = kind.types;
            std::vector<double> times;
            uint64_t inSteps = 0;
            for (const uint32_t l : kind.launches) {
                times.push_back(side.graphs.launches[l].timeUs);
                inSteps += side.graphs.launches[l].step >= 0;
            }
            row.timeUs = spreadOf(std::move(times));
            row.launchesPerIteration = side.graphs.steps > 0 ? double(inSteps) / double(side.graphs.steps) : 0;
            const GraphLaunch& first = side.graphs.launches[kind.launches.front()];
            row.firstCorrelation = first.correlation;
            row.launchRecorded = first.recorded;
            if (side.capturedOfKind[k] >= 0) {
                row.captured = side.input.capture->graphs[size_t(side.capturedOfKind[k])].name;
                ++out.capturedKinds[s];
            }
            out.kinds[s].push_back(std::move(row));
        }
    }

    void noteStructure()
    {
        GraphComparison& out = m_result.comparison;
        for (size_t s = 0; s < 2; ++s) {
            const PreparedSide& side = m_sides[s];
            const PreparedSide& other = m_sides[1 - s];
            const std::string letter = s == 0 ? "A" : "B";
            if (side.graphs.launches.empty() && !other.graphs.launches.empty())
                out.notes.push_back(letter + " launches no CUDA/HIP graphs while " + (s == 0 ? "B" : "A") + " launches "
                    + withThousands(int64_t(other.graphs.launches.size()))
                    + ": graphs are not compared as units; their kernels are compared with the operations that "
                      "launched them, and in the kernel types.");
            if (side.graphs.launchesWithoutKernels > 0)
                out.notes.push_back(letter + " has " + withThousands(int64_t(side.graphs.launchesWithoutKernels))
                    + " graph launch calls whose kernels are not in the trace (they ran after the profiler stopped).");
            uint64_t unrecorded = 0;
            for (const GraphLaunch& launch : side.graphs.launches)
                unrecorded += !launch.recorded;
            if (unrecorded > 0)
                out.notes.push_back(letter + " has " + withThousands(int64_t(unrecorded))
                    + " groups of kernels that share a correlation id without a launch call in the trace: taken as "
                      "graph launches.");
            if (side.input.capture) {
                const uint64_t captured = out.capturedKinds[s];
                // One note, built once. NOLINTBEGIN(performance-inefficient-string-concatenation)
                out.notes.push_back(letter + "'s capture trace " + side.input.capture->fileName + " holds "
                    + withThousands(int64_t(side.input.capture->graphs.size()))
                    + (side.input.capture->graphs.size() == 1 ? " captured graph; " : " captured graphs; ")
                    + withThousands(int64_t(captured)) + " of " + withThousands(int64_t(side.graphs.kinds.size()))
                    + " graph kinds of " + letter + " replay one of them"
                    + (captured < side.graphs.kinds.size() ? " (the others have no capture with the same kernels)" : "")
                    + ".");
                // NOLINTEND(performance-inefficient-string-concatenation)
            }
        }
    }

    // Aligns the kernel types of the first launches of both traces (the same share of each
    // trace's graph kernels, as many as kWindowCells allows) and derives which launch does the
    // work of which.
    void alignWindows()
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

    std::vector<uint32_t> startsOf(size_t s) const
    {
        std::vector<uint32_t> starts;
        uint32_t position = 0;
        for (size_t l = 0; l < m_sides[s].window; ++l) {
            starts.push_back(position);
            position += uint32_t(m_sides[s].graphs.launches[l].kernels.size());
        }
        return starts;
    }

    uint64_t weightOf(size_t s, uint32_t own, uint32_t other) const
    {
        const auto it = m_weight.find(s == 0 ? std::pair { own, other } : std::pair { other, own });
        return it == m_weight.end() ? 0 : it->second;
    }

    // The other side's launches that do their work inside launch `own` of side `s`.
    std::vector<uint32_t> partsOf(size_t s, uint32_t own) const
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

    void findCoverage()
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
            for (const uint32_t p : parts) {
                sameType += weightOf(s, l, p);
                partKernels += m_sides[1 - s].graphs.launches[p].kernels.size();
            }
            const uint64_t own = m_sides[s].graphs.launches[l].kernels.size();
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
    void dropInconsistentCoverage()
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

    void pairLaunches()
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
        std::array<std::vector<std::pair<int32_t, uint64_t>>, 2> bestVote {
            std::vector<std::pair<int32_t, uint64_t>>(m_sides[0].graphs.kinds.size(), { -1, 0 }),
            std::vector<std::pair<int32_t, uint64_t>>(m_sides[1].graphs.kinds.size(), { -1, 0 })
        };
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

    void addKindPair(uint32_t ka, uint32_t kb, const char* how)
    {
        m_sides[0].pairedKind[ka] = int32_t(kb);
        m_sides[1].pairedKind[kb] = int32_t(ka);
        GraphKindPair pair;
        pair.kind = { ka, kb };
        pair.matchedBy = how;
        m_result.comparison.pairs.push_back(std::move(pair));
    }

    bool kindInCoverage(size_t s, uint32_t kind) const
    {
        for (const uint32_t l : m_sides[s].graphs.kinds[kind].launches) {
            if (l < m_sides[s].window && !m_involved[s].empty() && m_involved[s][l])
                return true;
        }
        return false;
    }

    // Kinds not matched through the aligned launches (outside the window, or only in it on one
    // side): matched by how well their kernel types align, best first.
    void matchRemainingKinds()
    {
        struct Candidate
        {
            double agreement;
            double perStepDifference; // launches per profiler step: equal counts do the same job
            uint64_t kernels;
            uint32_t a;
            uint32_t b;
        };
        std::vector<Candidate> candidates;
        const size_t typeCount = m_classifier.categories().size();
        const auto& kindsA = m_sides[0].graphs.kinds;
        const auto& kindsB = m_sides[1].graphs.kinds;
        std::vector<uint32_t> freeA, freeB;
        for (uint32_t k = 0; k < kindsA.size(); ++k) {
            if (m_sides[0].pairedKind[k] < 0 && !kindInCoverage(0, k))
                freeA.push_back(k);
        }
        for (uint32_t k = 0; k < kindsB.size(); ++k) {
            if (m_sides[1].pairedKind[k] < 0 && !kindInCoverage(1, k))
                freeB.push_back(k);
        }
        if (freeA.size() * freeB.size() > 250000)
            return; // too many to try every pair; the notes say how many kinds are unmatched
        for (const uint32_t a : freeA) {
            for (const uint32_t b : freeB) {
                const double sizeA = double(kindsA[a].types.size());
                const double sizeB = double(kindsB[b].types.size());
                if (std::max(sizeA, sizeB) > 2 * std::min(sizeA, sizeB))
                    continue;
                const double agreement = kindAgreement(kindsA[a], kindsB[b], typeCount);
                if (agreement >= kKindAgreement)
                    candidates.push_back({ agreement,
                        std::fabs(m_result.comparison.kinds[0][a].launchesPerIteration
                            - m_result.comparison.kinds[1][b].launchesPerIteration),
                        uint64_t(sizeA + sizeB), a, b });
            }
        }
        std::stable_sort(candidates.begin(), candidates.end(), [](const Candidate& x, const Candidate& y) {
            if (x.agreement != y.agreement)
                return x.agreement > y.agreement;
            if (x.perStepDifference != y.perStepDifference)
                return x.perStepDifference < y.perStepDifference;
            return x.kernels > y.kernels;
        });
        for (const Candidate& candidate : candidates) {
            if (m_sides[0].pairedKind[candidate.a] < 0 && m_sides[1].pairedKind[candidate.b] < 0)
                addKindPair(candidate.a, candidate.b, "kind similarity");
        }
    }

    std::vector<const CapturedLaunch*> capturedLaunches(size_t s, uint32_t kind, size_t first, size_t count) const
    {
        const PreparedSide& side = m_sides[s];
        std::vector<const CapturedLaunch*> launches(count, nullptr);
        const int32_t captured = side.capturedOfKind[kind];
        if (captured < 0)
            return launches;
        const CapturedGraph& graph = side.input.capture->graphs[size_t(captured)];
        for (size_t p = 0; p < count && first + p < graph.launches.size(); ++p)
            launches[p] = &graph.launches[first + p];
        return launches;
    }

    // The launches of each matched kind pair, the i-th with the i-th, compared kernel by kernel.
    void comparePairs()
    {
        for (GraphKindPair& pair : m_result.comparison.pairs) {
            const auto& kindA = m_sides[0].graphs.kinds[pair.kind[0]];
            const auto& kindB = m_sides[1].graphs.kinds[pair.kind[1]];
            GraphPattern pattern;
            pattern.op = "graph " + kindLabel(0, pair.kind[0]) + " / " + kindLabel(1, pair.kind[1]);
            pair.comparedLaunches = std::min(kindA.launches.size(), kindB.launches.size());
            for (size_t i = 0; i < pair.comparedLaunches; ++i) {
                pattern.occurrences[0].push_back(m_sides[0].graphs.launches[kindA.launches[i]].kernels);
                pattern.occurrences[1].push_back(m_sides[1].graphs.launches[kindB.launches[i]].kernels);
            }
            pattern.captured[0] = capturedLaunches(0, pair.kind[0], 0, kindA.names.size());
            pattern.captured[1] = capturedLaunches(1, pair.kind[1], 0, kindB.names.size());
            addPattern(pattern, &pair);
        }
    }

    // Records a pattern: its summary row, and a finding if the kernel counts differ.
    void addPattern(const GraphPattern& pattern, GraphKindPair* pair)
    {
        const size_t occurrences = pattern.occurrences[0].size();
        if (occurrences == 0)
            return;
        OpSummary summary;
        summary.op = pattern.op;
        summary.occurrences = occurrences;
        std::array<std::vector<double>, 2> times;
        for (size_t s = 0; s < 2; ++s) {
            for (const auto& kernels : pattern.occurrences[s])
                summary.kernels[s] += kernels.size();
            times[s] = occurrenceTimes(m_sides[s].input.store, pattern.occurrences[s]);
            summary.timeUs[s] = spreadOf(times[s]);
        }
        summary.differenceUs = pairedDifferenceSpread(times[0], times[1]);
        const bool differ = pattern.occurrences[0].front().size() != pattern.occurrences[1].front().size();
        double agreement = 0;
        const auto patternIndex = uint32_t(m_result.patternNames.size());
        m_result.patternNames.push_back(pattern.op);
        const std::array<const TraceStore*, 2> stores { &m_sides[0].input.store, &m_sides[1].input.store };
        if (differ) {
            OpFinding finding = graphFinding(pattern, { side(0), side(1) }, m_naming, m_extras);
            for (size_t o = 0; o < occurrences; ++o)
                m_result.kernelPairs.addAligned(
                    stores, { &pattern.occurrences[0][o], &pattern.occurrences[1][o] }, finding.alignment);
            // Positions the alignment leaves unpaired are extra, the others aligned.
            for (size_t s = 0; s < 2; ++s) {
                std::vector<bool> extra(pattern.occurrences[s].front().size(), false);
                for (const AlignedPair& p : finding.alignment) {
                    if (!p.isMatch() && (s == 0 ? p.first : p.second) >= 0)
                        extra[size_t(s == 0 ? p.first : p.second)] = true;
                }
                std::vector<bool> work(extra.size(), false);
                if (!finding.workPositions.empty() && sideIndex(moreCopiesSide(finding)) == s) {
                    for (const uint32_t position : finding.workPositions)
                        work[position] = true;
                }
                for (const auto& kernels : pattern.occurrences[s]) {
                    for (size_t position = 0; position < kernels.size(); ++position)
                        m_result.comparedKernels[s].push_back({ kernels[position],
                            work[position]        ? ComparedGraphKernel::Role::Work
                                : extra[position] ? ComparedGraphKernel::Role::Extra
                                                  : ComparedGraphKernel::Role::Aligned,
                            patternIndex });
                }
            }
            summary.differing = occurrences;
            summary.savingUs = finding.savingUs;
            agreement = finding.typeAgreement;
            // Kernel counts that differ only in communication kernels: a collective difference.
            if (!differsOnlyInCollectives(finding)) {
                if (pair)
                    pair->finding = finding.summary;
                m_result.findings.push_back(std::move(finding));
            }
        } else {
            for (size_t s = 0; s < 2; ++s) {
                for (const auto& kernels : pattern.occurrences[s]) {
                    for (const uint32_t k : kernels)
                        m_result.comparedKernels[s].push_back({ k, ComparedGraphKernel::Role::Paired, patternIndex });
                }
            }
            for (size_t o = 0; o < occurrences; ++o)
                m_result.kernelPairs.addByPosition(stores, { &pattern.occurrences[0][o], &pattern.occurrences[1][o] });
            std::array<std::vector<CategoryId>, 2> types;
            for (size_t s = 0; s < 2; ++s)
                types[s] = typesOf(m_sides[s].input.types, pattern.occurrences[s].front());
            size_t same = 0;
            for (const AlignedPair& p : alignGraphKernels(types[0], types[1]))
                same += p.isMatch() && types[0][size_t(p.first)] == types[1][size_t(p.second)];
            agreement = double(same) / double(std::max<size_t>(1, std::max(types[0].size(), types[1].size())));
        }
        if (pair) {
            pair->typeAgreement = agreement;
            pair->timeUs = summary.timeUs;
        }
        m_result.summaries.push_back(std::move(summary));
    }

    // Each covering launch, part by part: which kernels of it do the work of which launch of the
    // other trace, compared kernel by kernel.
    void compareCoverage()
    {
        std::map<std::string, GraphPattern> patterns; // parts with the same kinds and kernel types
        std::vector<std::string> order;
        std::map<std::string, PatternLaunches> launchesOfPattern;
        for (const Covering& covering : m_coverings) {
            const size_t s = covering.side;
            const size_t o = 1 - s;
            const GraphLaunch& launch = m_sides[s].graphs.launches[covering.launch];
            GraphCoverage coverage;
            coverage.coveringSide = s == 0 ? Side::Trace1 : Side::Trace2;
            coverage.launch = covering.launch + 1;
            coverage.correlation = launch.correlation;
            coverage.kind = launch.kind + 1;
            coverage.kernels = launch.kernels.size();
            coverage.timeUs = launch.timeUs;
            const std::vector<uint32_t> ranges = partBoundaries(covering);
            std::map<uint32_t, uint32_t> longestPartOfKind;
            for (size_t p = 0; p < covering.parts.size(); ++p) {
                uint32_t& longest = longestPartOfKind[m_sides[o].graphs.launches[covering.parts[p]].kind];
                longest = std::max(longest, ranges[p + 1] - ranges[p]);
            }
            for (size_t p = 0; p < covering.parts.size(); ++p) {
                const uint32_t other = covering.parts[p];
                const GraphLaunch& covered = m_sides[o].graphs.launches[other];
                GraphCoveragePart part;
                part.otherLaunch = other + 1;
                part.otherCorrelation = covered.correlation;
                part.otherKind = covered.kind + 1;
                part.firstKernel = ranges[p] + 1;
                part.lastKernel = ranges[p + 1];
                const std::vector<uint32_t> own(
                    launch.kernels.begin() + ranges[p], launch.kernels.begin() + ranges[p + 1]);
                part.kernels[s] = own.size();
                part.kernels[o] = covered.kernels.size();
                part.timeUs[s] = occurrenceTimes(m_sides[s].input.store, { own }).front();
                part.timeUs[o] = covered.timeUs;
                part.matchedKernels = weightOf(s, covering.launch, other);
                const bool atEdge = p == 0 || p + 1 == covering.parts.size();
                part.partial = atEdge && double(own.size()) < kPartialShare * double(longestPartOfKind[covered.kind]);

                GraphPattern pattern;
                pattern.isPart = true;
                pattern.occurrences[s].push_back(own);
                pattern.occurrences[o].push_back(covered.kernels);
                pattern.captured[s] = capturedLaunches(s, launch.kind, ranges[p], own.size());
                pattern.captured[o] = capturedLaunches(o, covered.kind, 0, covered.kernels.size());
                std::array<std::vector<FindingKernel>, 2> kernels;
                for (size_t side = 0; side < 2; ++side) {
                    for (const uint32_t k : pattern.occurrences[side].front()) {
                        const KernelEvent& kernel = m_sides[side].input.store.kernels[k];
                        kernels[side].push_back({ std::string(m_sides[side].input.store.name(kernel.name)),
                            m_sides[side].input.types.ofKernel[k], m_sides[side].input.types.tagsOfName[kernel.name],
                            kernel.dur });
                    }
                }
                std::array<std::vector<uint16_t>, 2> types;
                for (size_t side = 0; side < 2; ++side) {
                    for (const FindingKernel& kernel : kernels[side])
                        types[side].push_back(kernel.type);
                }
                for (const ExtraRun& run :
                    compareKernelLists(kernels, alignGraphKernels(types[0], types[1]), m_naming).runs) {
                    part.differences += (part.differences.empty() ? "" : "; ") + run.explanation
                        + (run.repeats > 1 ? " (x" + std::to_string(run.repeats) + ")" : "");
                }
                const bool partial = part.partial;
                coverage.parts.push_back(std::move(part));
                if (partial)
                    continue; // what is missing is cut off, not fused

                std::string key = std::to_string(s) + "|" + std::to_string(covered.kind) + "|";
                for (const uint32_t k : own)
                    key += std::to_string(m_sides[s].input.types.ofKernel[k]) + ",";
                const auto [it, inserted] = patterns.try_emplace(key, pattern);
                if (inserted) {
                    order.push_back(key);
                } else {
                    for (size_t side = 0; side < 2; ++side)
                        it->second.occurrences[side].push_back(pattern.occurrences[side].front());
                }
                PatternLaunches& numbers = launchesOfPattern[key];
                numbers.side = s;
                numbers.coveringKind = launch.kind;
                numbers.coveredKind = covered.kind;
                if (numbers.covering.empty() || numbers.covering.back() != covering.launch + 1)
                    numbers.covering.push_back(covering.launch + 1);
                numbers.covered.push_back(other + 1);
            }
            addUnrecordedTail(covering, coverage);
            for (uint32_t other = 0; other < m_sides[o].window; ++other) {
                if (!m_involved[o][other] && m_sides[o].pairedKind[m_sides[o].graphs.launches[other].kind] < 0
                    && std::find(coverage.unrecordedParts.begin(), coverage.unrecordedParts.end(), other + 1)
                        == coverage.unrecordedParts.end())
                    coverage.uncovered.push_back(other + 1);
            }
            coverage.statement = statementOf(coverage);
            m_result.comparison.coverage.push_back(std::move(coverage));
        }
        // Named once all occurrences are known: two patterns of the same kinds differ in the launches.
        for (const std::string& key : order) {
            const PatternLaunches& numbers = launchesOfPattern[key];
            GraphPattern& pattern = patterns[key];
            pattern.op = "graph " + kindLabel(1 - numbers.side, numbers.coveredKind, launchNumbers(numbers.covered))
                + " within " + kindLabel(numbers.side, numbers.coveringKind, launchNumbers(numbers.covering));
            addPattern(pattern, nullptr);
        }
    }

    // A covering launch whose trace stops recording its kernels before the launch ends (graphtail.h):
    // the other side's launches right after its last part, of kinds its whole parts do, whose work
    // at the covering side's speed fits in the time the GPU ran on, are done in that time. They
    // and a partial last part are not compared kernel by kernel (one side's kernels are missing),
    // but they have a counterpart: the time gap shows them as not compared, under one name.
    void addUnrecordedTail(const Covering& covering, GraphCoverage& coverage)
    {
        const size_t s = covering.side;
        const size_t o = 1 - s;
        const TraceGraphs& own = m_sides[s].graphs;
        const TraceGraphs& other = m_sides[o].graphs;
        const UnrecordedTail tail = unrecordedTail(m_sides[s].input.store, own.launches[covering.launch]);
        if (tail.us <= 0 || coverage.parts.empty())
            return;
        coverage.unrecordedUs = tail.us;
        coverage.waitCall = std::string(m_sides[s].input.store.name(tail.waitCall));
        m_result.comparison.unrecordedUs[s] += tail.us;
        // Per covered kind: the covering side's time and the other side's in the whole parts.
        std::map<uint32_t, std::pair<double, double>> speed;
        std::map<uint32_t, std::vector<double>> wholePart;
        for (const GraphCoveragePart& part : coverage.parts) {
            if (part.partial)
                continue;
            auto& [ownTime, otherTime] = speed[part.otherKind - 1];
            ownTime += part.timeUs[s];
            otherTime += part.timeUs[o];
            wholePart[part.otherKind - 1].push_back(part.timeUs[s]);
        }
        const GraphCoveragePart& last = coverage.parts.back();
        double estimate = 0;
        if (last.partial && wholePart.count(last.otherKind - 1)) {
            std::vector<double>& times = wholePart[last.otherKind - 1];
            std::sort(times.begin(), times.end());
            const double whole = times[times.size() / 2];
            estimate = std::max(0.0, whole - last.timeUs[s]);
            coverage.unrecordedOtherUs = last.timeUs[o] * estimate / std::max(whole, 1e-9);
        }
        std::vector<uint32_t> continued;
        for (uint32_t l = last.otherLaunch; l < other.launches.size(); ++l) {
            if (l < m_sides[o].window && (m_involved[o][l] || m_paired[o][l]))
                break;
            const GraphLaunch& next = other.launches[l];
            const auto found = speed.find(next.kind);
            if (found == speed.end() || found->second.second <= 0)
                break; // work none of the whole parts does: nothing says it is in the unrecorded time
            const double atOwnSpeed = next.timeUs * found->second.first / found->second.second;
            if (estimate + atOwnSpeed / 2 > tail.us)
                break;
            estimate += atOwnSpeed;
            coverage.unrecordedOtherUs += next.timeUs;
            coverage.unrecordedParts.push_back(l + 1);
            continued.push_back(l);
        }
        coverage.unrecordedEstimateUs = estimate;
        if (continued.empty() && !last.partial)
            return;
        // One name for the work whose kernels are missing on one side, for the time gap.
        std::vector<uint32_t> numbers;
        if (last.partial)
            numbers.push_back(last.otherLaunch);
        for (const uint32_t l : continued)
            numbers.push_back(l + 1);
        const auto pattern = uint32_t(m_result.patternNames.size());
        m_result.patternNames.push_back("graph " + launchNumbers(numbers) + " of " + (o == 0 ? "A" : "B") + ", run in "
            + (s == 0 ? "A" : "B") + "'s graph launch " + std::to_string(covering.launch + 1)
            + " after the last kernel its trace records");
        const auto notCompared = [&](size_t side, const std::vector<uint32_t>& kernels) {
            for (const uint32_t k : kernels)
                m_result.comparedKernels[side].push_back({ k, ComparedGraphKernel::Role::NotCompared, pattern });
        };
        if (last.partial) {
            const std::vector<uint32_t>& kernels = own.launches[covering.launch].kernels;
            notCompared(s, std::vector<uint32_t>(kernels.begin() + last.firstKernel - 1, kernels.end()));
            notCompared(o, other.launches[last.otherLaunch - 1].kernels);
        }
        for (const uint32_t l : continued)
            notCompared(o, other.launches[l].kernels);
    }

    // Where each part of a covering launch begins (and, last, where the launch ends): a part runs
    // from its first kernel paired with the covered launch (or a little before, see below) up to the
    // next part; kernels before the first part belong to it.
    std::vector<uint32_t> partBoundaries(const Covering& covering) const
    {
        const size_t s = covering.side;
        const size_t o = 1 - s;
        std::vector<uint32_t> bounds;
        const uint32_t start = m_windowStart[s][covering.launch];
        uint32_t previousLast = 0;
        for (size_t p = 0; p < covering.parts.size(); ++p) {
            const auto key = s == 0 ? std::pair { covering.launch, covering.parts[p] }
                                    : std::pair { covering.parts[p], covering.launch };
            // The covering launch's first and last kernel paired with this part's launch, and how
            // many kernels that launch runs before its own first paired one.
            uint32_t first = UINT32_MAX;
            uint32_t last = 0;
            uint32_t lead = UINT32_MAX;
            for (const auto& [a, b] : m_positionPartner.at(key)) {
                const uint32_t own = (s == 0 ? a : b) - start;
                first = std::min(first, own);
                last = std::max(last, own);
                lead = std::min(lead, (s == 0 ? b : a) - m_windowStart[o][covering.parts[p]]);
            }
            if (p == 0) {
                bounds.push_back(0);
            } else {
                // Unpaired kernels between two parts: as many as the covered launch runs before
                // its first paired kernel belong to this part, the rest to the previous one.
                const uint32_t gapStart = std::max(previousLast + 1, bounds.back());
                const uint32_t moved = std::min(lead, first > gapStart ? first - gapStart : 0);
                bounds.push_back(std::max(first - moved, bounds.back()));
            }
            previousLast = last;
        }
        bounds.push_back(uint32_t(m_sides[s].graphs.launches[covering.launch].kernels.size()));
        return bounds;
    }

    std::string statementOf(const GraphCoverage& coverage) const
    {
        const size_t s = sideIndex(coverage.coveringSide);
        const size_t o = 1 - s;
        const std::string& own = m_naming.sideNames[s];
        const std::string& other = m_naming.sideNames[o];
        std::vector<uint32_t> covered;
        for (const GraphCoveragePart& part : coverage.parts)
            covered.push_back(part.otherLaunch);
        covered.insert(covered.end(), coverage.unrecordedParts.begin(), coverage.unrecordedParts.end());
        std::string text = own + "'s graph launch " + std::to_string(coverage.launch) + " ("
            + withThousands(int64_t(coverage.kernels)) + " kernels, " + formatDuration(coverage.timeUs) + ") covers "
            + other + "'s graph launches " + numberRanges(covered) + ":";
        for (size_t p = 0; p < coverage.parts.size(); ++p) {
            const GraphCoveragePart& part = coverage.parts[p];
            if (p == kStatementParts) {
                text += " ... (" + std::to_string(coverage.parts.size() - p) + " more parts)";
                break;
            }
            text += std::string(p == 0 ? " " : "; ") + "launch " + std::to_string(part.otherLaunch) + " (kind "
                + std::to_string(part.otherKind) + ", " + withThousands(int64_t(part.kernels[o])) + " kernels, "
                + formatDuration(part.timeUs[o]) + ") by kernels " + std::to_string(part.firstKernel) + "\xE2\x80\x93"
                + std::to_string(part.lastKernel) + " (" + withThousands(int64_t(part.kernels[s])) + ", "
                + formatDuration(part.timeUs[s]) + (part.partial ? ", only part of it" : "") + ")";
        }
        if (coverage.unrecordedUs > 0) {
            text += "; " + own + "'s trace records no more of launch " + std::to_string(coverage.launch)
                + ", but the GPU ran on for " + formatDuration(coverage.unrecordedUs) + " until " + coverage.waitCall
                + " returned";
            const std::string work = unrecordedWork(coverage, other);
            if (!work.empty())
                text += ": the time for " + work + " (" + formatDuration(coverage.unrecordedOtherUs) + " on " + other
                    + ", " + formatDuration(coverage.unrecordedEstimateUs) + " at " + own
                    + "'s speed in the whole parts above)";
        }
        if (!coverage.uncovered.empty())
            text += "; " + other + "'s graph launches " + numberRanges(coverage.uncovered) + " have no counterpart in "
                + own + "'s trace";
        return text + ".";
    }

    void finish()
    {
        GraphComparison& out = m_result.comparison;
        std::stable_sort(out.pairs.begin(), out.pairs.end(), [](const GraphKindPair& x, const GraphKindPair& y) {
            return std::max(x.timeUs[0].total, x.timeUs[1].total) > std::max(y.timeUs[0].total, y.timeUs[1].total);
        });
        std::stable_sort(m_result.findings.begin(), m_result.findings.end(),
            [](const OpFinding& x, const OpFinding& y) { return x.savingUs > y.savingUs; });
        for (size_t s = 0; s < 2; ++s) {
            uint64_t unmatched = 0;
            for (uint32_t k = 0; k < m_sides[s].graphs.kinds.size(); ++k)
                unmatched += m_sides[s].pairedKind[k] < 0 && (m_involved[s].empty() || !kindInCoverage(s, k));
            if (unmatched > 0 && !m_sides[1 - s].graphs.launches.empty())
                out.notes.push_back(std::string(s == 0 ? "A" : "B") + ": " + std::to_string(unmatched) + " of "
                    + std::to_string(m_sides[s].graphs.kinds.size())
                    + " graph kinds match no kind of the other trace (their kernels differ too much).");
        }
        for (const GraphCoverage& coverage : out.coverage) {
            if (coverage.unrecordedUs <= 0)
                continue;
            const size_t s = sideIndex(coverage.coveringSide);
            const std::string work = unrecordedWork(coverage, s == 0 ? "B" : "A");
            out.notes.push_back(std::string(s == 0 ? "A" : "B")
                + "'s trace does not hold all the kernels of its graph launch " + std::to_string(coverage.launch)
                + ": the GPU ran on for " + formatDuration(coverage.unrecordedUs)
                + " after the last recorded one, until " + coverage.waitCall
                + " returned, with no other GPU work in "
                  "between (the profiler stopped recording the graph's kernels). "
                + (work.empty() ? std::string("Its kernel and step time here are short by that much.")
                                : "That is the time for " + work
                            + ", which so have a counterpart; they are not "
                              "compared kernel by kernel."));
        }
        m_result.extraKernels = std::move(m_extras);
    }

    std::array<PreparedSide, 2> m_sides;
    const Classifier& m_classifier;
    NamingContext m_naming;
    std::vector<ExtraKernels> m_extras;
    GraphComparisonResult m_result;
    std::map<std::pair<uint32_t, uint32_t>, uint64_t> m_weight;
    std::map<std::pair<uint32_t, uint32_t>, std::vector<std::pair<uint32_t, uint32_t>>> m_positionPartner;
    std::array<std::vector<std::vector<std::pair<uint32_t, uint64_t>>>, 2> m_neighbours; // per side and launch
    std::array<std::vector<uint64_t>, 2> m_matched;
    std::array<std::vector<uint32_t>, 2> m_windowStart;
    std::array<std::vector<bool>, 2> m_involved; // per side and aligned launch: covering or covered
    std::array<std::vector<bool>, 2> m_paired; // paired one to one
    std::vector<Covering> m_coverings;
};

} // namespace

GraphComparisonResult compareGraphs(const std::array<GraphComparisonTrace, 2>& traces, const Classifier& classifier,
    const std::array<std::string, 2>& sideNames)
{
    return GraphComparer(traces, classifier, sideNames).run();
}

} // namespace fusiondiff
