#include "ops/comparison/graphcomparer.h"

#include "classify/kerneltypes.h"
#include "model/tracestore.h"
#include "ops/alignment/sequencealignment.h"
#include "ops/comparison/collectivepart.h"
#include "ops/comparison/graphtail.h"
#include "ops/comparison/repeatedblocks.h"
#include "util/textformat.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace fusiondiff {

namespace {

// Kinds matched by similarity align at least this share of their kernels by type.
constexpr double kKindAgreement = 0.5;

} // namespace

GraphComparer::GraphComparer(const std::array<GraphComparisonTrace, 2>& traces, const Classifier& classifier,
    const std::array<std::string, 2>& sideNames)
    : m_sides { PreparedSide { traces[0], {}, {}, 0, {} }, PreparedSide { traces[1], {}, {}, 0, {} } }
    , m_classifier(classifier)
    , m_naming { classifier.categories(), classifier.tags(), sideNames }
    , m_extras(classifier.categories().size())
{
    for (size_t t = 0; t < m_extras.size(); ++t)
        m_extras[t].type = CategoryId(t);
}

GraphComparisonResult GraphComparer::run()
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

// What a kind of graph runs: the captured graph's name where a capture trace maps it, else its
// (at most three) kernel types that take the most time in its first launch.
std::string GraphComparer::kindContent(size_t s, uint32_t kind) const
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
std::string GraphComparer::kindLabel(size_t s, uint32_t kind, const std::string& launches) const
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

void GraphComparer::describeKinds(size_t s)
{
    PreparedSide& side = m_sides[s];
    GraphComparison& out = m_result.comparison;
    out.launches[s] = side.graphs.launches.size();
    for (const GraphLaunch& launch : side.graphs.launches) {
        out.kernels[s] += launch.kernels.size();
        out.timeUs[s] += launch.timeUs;
        m_result.graphKernels[s].insert(m_result.graphKernels[s].end(), launch.kernels.begin(), launch.kernels.end());
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
        std::vector<GraphLaunchTime>& launchTimes = m_result.kindLaunches[s].emplace_back();
        for (const uint32_t l : kind.launches) {
            const GraphLaunch& launch = side.graphs.launches[l];
            times.push_back(launch.timeUs);
            launchTimes.push_back({ launch.cpuTs, launch.timeUs });
            inSteps += launch.step >= 0;
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

void GraphComparer::noteStructure()
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

void GraphComparer::addKindPair(uint32_t ka, uint32_t kb, const char* how)
{
    m_sides[0].pairedKind[ka] = int32_t(kb);
    m_sides[1].pairedKind[kb] = int32_t(ka);
    GraphKindPair pair;
    pair.kind = { ka, kb };
    pair.matchedBy = how;
    m_result.comparison.pairs.push_back(std::move(pair));
}

bool GraphComparer::kindInCoverage(size_t s, uint32_t kind) const
{
    for (const uint32_t l : m_sides[s].graphs.kinds[kind].launches) {
        if (l < m_sides[s].window && !m_involved[s].empty() && m_involved[s][l])
            return true;
    }
    return false;
}

// Kinds not matched through the aligned launches (outside the window, or only in it on one
// side): matched by how well their kernel types align, best first.
void GraphComparer::matchRemainingKinds()
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

std::vector<const CapturedLaunch*> GraphComparer::capturedLaunches(
    size_t s, uint32_t kind, size_t first, size_t count) const
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
void GraphComparer::comparePairs()
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
void GraphComparer::addPattern(const GraphPattern& pattern, GraphKindPair* pair)
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
        // Kernel counts that differ only in communication kernels are a collective difference; the
        // other kernels run on both sides, and their difference is speed, with an entry of its own.
        const bool onlyCollectives = differsOnlyInCollectives(finding);
        const auto alignedRole
            = onlyCollectives ? ComparedGraphKernel::Role::Paired : ComparedGraphKernel::Role::Aligned;
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
                                              : alignedRole,
                        patternIndex });
            }
        }
        summary.differing = occurrences;
        summary.savingUs = finding.savingUs;
        agreement = finding.typeAgreement;
        // Kernel counts that differ only in communication kernels: a collective difference.
        if (!onlyCollectives) {
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

void GraphComparer::finish()
{
    GraphComparison& out = m_result.comparison;
    std::stable_sort(out.pairs.begin(), out.pairs.end(), [](const GraphKindPair& x, const GraphKindPair& y) {
        return std::max(x.timeUs[0].total, x.timeUs[1].total) > std::max(y.timeUs[0].total, y.timeUs[1].total);
    });
    std::stable_sort(m_result.findings.begin(), m_result.findings.end(),
        [](const OpFinding& x, const OpFinding& y) { return x.savingUs > y.savingUs; });
    for (size_t s = 0; s < 2; ++s) {
        if (m_sides[1 - s].graphs.launches.empty())
            continue; // no graph is compared: every graph kernel stays with its operation
        // A kind matched with nothing is compared as the work of the operation that launched it, as
        // when the other trace has no graphs: a kernel one stack launches as a graph of its own (a
        // split), or a region one trace captures and the other runs eagerly, shows in its operation.
        const TraceStore& store = m_sides[s].input.store;
        std::vector<bool> toOperations(store.kernels.size(), false);
        uint64_t unmatched = 0;
        for (uint32_t k = 0; k < m_sides[s].graphs.kinds.size(); ++k) {
            if (m_sides[s].pairedKind[k] >= 0 || (!m_involved[s].empty() && kindInCoverage(s, k)))
                continue;
            ++unmatched;
            for (const uint32_t launch : m_sides[s].graphs.kinds[k].launches) {
                for (const uint32_t kernel : m_sides[s].graphs.launches[launch].kernels)
                    toOperations[kernel] = true;
            }
        }
        if (unmatched == 0)
            continue;
        std::erase_if(m_result.graphKernels[s], [&](uint32_t kernel) { return toOperations[kernel]; });
        out.notes.push_back(std::string(s == 0 ? "A" : "B") + ": " + std::to_string(unmatched) + " of "
            + std::to_string(m_sides[s].graphs.kinds.size())
            + " graph kinds match no kind of the other trace (their kernels differ too much): their kernels are "
              "compared with the operations that launched them.");
    }
    for (const GraphCoverage& coverage : out.coverage) {
        if (coverage.unrecordedUs <= 0)
            continue;
        const size_t s = sideIndex(coverage.coveringSide);
        const std::string work = unrecordedWork(coverage, s == 0 ? "B" : "A");
        out.notes.push_back(std::string(s == 0 ? "A" : "B")
            + "'s trace does not hold all the kernels of its graph launch " + std::to_string(coverage.launch)
            + ": the GPU ran on for " + formatDuration(coverage.unrecordedUs) + " after the last recorded one, until "
            + coverage.waitCall
            + " returned, with no other GPU work in "
              "between (the profiler stopped recording the graph's kernels). "
            + (work.empty() ? std::string("Its kernel and step time here are short by that much.")
                            : "That is the time for " + work
                        + ", which so have a counterpart; they are not "
                          "compared kernel by kernel."));
    }
    m_result.extraKernels = std::move(m_extras);
}

GraphComparisonResult compareGraphs(const std::array<GraphComparisonTrace, 2>& traces, const Classifier& classifier,
    const std::array<std::string, 2>& sideNames)
{
    return GraphComparer(traces, classifier, sideNames).run();
}

} // namespace fusiondiff
