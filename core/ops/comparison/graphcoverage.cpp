#include "ops/comparison/graphcomparer.h"

#include "classify/kerneltypes.h"
#include "model/tracestore.h"
#include "ops/alignment/sequencealignment.h"
#include "ops/comparison/graphtail.h"
#include "util/plural.h"
#include "util/textformat.h"

#include <algorithm>
#include <map>

namespace fusiondiff {

namespace {

constexpr size_t kStatementParts = 8;
// An edge part shorter than this share of the longest part for the same kind holds only some of its work.
constexpr double kPartialShare = 0.6;

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

} // namespace

// Each covering launch, part by part: which kernels of it do the work of which launch of the
// other trace, compared kernel by kernel.
void GraphComparer::compareCoverage()
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
            const std::vector<uint32_t> own(launch.kernels.begin() + ranges[p], launch.kernels.begin() + ranges[p + 1]);
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
void GraphComparer::addUnrecordedTail(const Covering& covering, GraphCoverage& coverage)
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
std::vector<uint32_t> GraphComparer::partBoundaries(const Covering& covering) const
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

std::string GraphComparer::statementOf(const GraphCoverage& coverage) const
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
        + countedNoun(coverage.kernels, "kernel", "kernels") + ", " + formatDuration(coverage.timeUs) + ") covers "
        + other + "'s graph launches " + numberRanges(covered) + ":";
    for (size_t p = 0; p < coverage.parts.size(); ++p) {
        const GraphCoveragePart& part = coverage.parts[p];
        if (p == kStatementParts) {
            text += " ... (" + std::to_string(coverage.parts.size() - p) + " more parts)";
            break;
        }
        text += std::string(p == 0 ? " " : "; ") + "launch " + std::to_string(part.otherLaunch) + " (kind "
            + std::to_string(part.otherKind) + ", " + countedNoun(part.kernels[o], "kernel", "kernels") + ", "
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
            text += ": the time for " + work + " (" + formatDuration(coverage.unrecordedOtherUs) + " on " + other + ", "
                + formatDuration(coverage.unrecordedEstimateUs) + " at " + own + "'s speed in the whole parts above)";
    }
    if (!coverage.uncovered.empty())
        text += "; " + other + "'s graph launches " + numberRanges(coverage.uncovered) + " have no counterpart in "
            + own + "'s trace";
    return text + ".";
}

} // namespace fusiondiff
