#include "ops/opcomparison.h"

#include "classify/kerneltypes.h"
#include "model/tracestore.h"
#include "ops/iterations.h"
#include "ops/kernelcomparison.h"
#include "ops/opattribution.h"
#include "ops/opoccurrences.h"
#include "ops/sequencealignment.h"
#include "util/textformat.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace fusiondiff {

namespace {

// Below this share of matched occurrences, the traces are not taken to run the same work.
constexpr double kComparableShare = 0.5;

struct PreparedSide
{
    const TraceStore& store;
    const KernelTypes& types;
    const KernelAttribution& attribution;
    std::vector<OpOccurrence> occurrences;
    TraceIterations iterations;
};

// Occurrences of one pattern: the same operation with the same kernel types on each side.
struct Pattern
{
    std::string op;
    int32_t frame = -1; // of the first occurrence on trace 1 (or trace 2 for graphs without one)
    Side frameSide = Side::Trace1;
    std::array<std::vector<std::vector<uint32_t>>, 2> occurrences; // kernel lists per occurrence
    std::array<double, 2> firstTs {};
    bool isGraph = false; // a matched pair of graph launches, not operations matched by name
};

uint64_t countOf(const std::vector<uint32_t>& kernels)
{
    return kernels.size();
}

double timeOf(const TraceStore& store, const std::vector<uint32_t>& kernels)
{
    double total = 0;
    for (const uint32_t k : kernels)
        total += store.kernels[k].dur;
    return total;
}

std::string typeKey(const KernelTypes& types, const std::vector<uint32_t>& kernels)
{
    std::string key;
    for (const uint32_t k : kernels) {
        key += std::to_string(types.ofKernel[k]);
        key += ',';
    }
    return key;
}

// Which phase of B compares with each phase of A: the one with the same operations, else the
// one in the same position, else none.
std::vector<int64_t> pairPhases(const TraceIterations& a, const TraceIterations& b)
{
    std::vector<int64_t> partner(a.phases.size(), -1);
    std::vector<bool> taken(b.phases.size(), false);
    for (size_t i = 0; i < a.phases.size(); ++i) {
        for (size_t j = 0; j < b.phases.size(); ++j) {
            if (!taken[j] && a.phaseSignatures[i] == b.phaseSignatures[j]) {
                partner[i] = int64_t(j);
                taken[j] = true;
                break;
            }
        }
    }
    for (size_t i = 0; i < a.phases.size(); ++i) {
        if (partner[i] < 0 && i < b.phases.size() && !taken[i]) {
            partner[i] = int64_t(i);
            taken[i] = true;
        }
    }
    return partner;
}

class Comparer
{
public:
    Comparer(std::array<PreparedSide, 2>& sides, const Classifier& classifier,
        const std::array<std::string, 2>& sideNames, KernelRoles& roles)
        : m_sides(sides)
        , m_classifier(classifier)
        , m_naming { classifier.categories(), classifier.tags(), sideNames }
        , m_roles(roles)
    { }

    int32_t opIndex(const std::string& op)
    {
        const auto [it, inserted] = m_opIndex.try_emplace(op, int32_t(m_roles.opNames.size()));
        if (inserted)
            m_roles.opNames.push_back(op);
        return it->second;
    }

    void markOneSide(size_t side, const std::string& op, const std::vector<uint32_t>& kernels)
    {
        const int32_t index = opIndex(op);
        for (const uint32_t k : kernels) {
            m_roles.role[side][k] = KernelRole::OneSide;
            m_roles.op[side][k] = index;
        }
    }

    // One matched pair of kernel lists (two occurrences, or two graph groups).
    void addPair(const std::string& op, int32_t frame, Side frameSide,
        const std::array<const std::vector<uint32_t>*, 2>& kernels, std::array<double, 2> ts, bool isGraph)
    {
        OpSummary& summary = summaryOf(op);
        ++summary.occurrences;
        const int32_t index = opIndex(op);
        for (size_t side = 0; side < 2; ++side) {
            for (const uint32_t k : *kernels[side]) {
                // findingOf turns the kernels without a counterpart into Extra.
                m_roles.role[side][k]
                    = kernels[0]->size() == kernels[1]->size() ? KernelRole::Paired : KernelRole::Aligned;
                m_roles.op[side][k] = index;
            }
            summary.kernels[side] += countOf(*kernels[side]);
            m_summaryTimes[op][side].push_back(timeOf(m_sides[side].store, *kernels[side]));
        }
        if (kernels[0]->size() == kernels[1]->size())
            return; // same launches: no fusion difference (kernel choices may still differ)
        ++summary.differing;
        const std::string key
            = op + "|" + typeKey(m_sides[0].types, *kernels[0]) + "|" + typeKey(m_sides[1].types, *kernels[1]);
        const auto [it, inserted] = m_patternOfKey.try_emplace(key, m_patterns.size());
        if (inserted)
            m_patterns.push_back({ op, frame, frameSide, {}, ts, isGraph });
        Pattern& pattern = m_patterns[it->second];
        for (size_t side = 0; side < 2; ++side)
            pattern.occurrences[side].push_back(*kernels[side]);
    }

    OpComparison finish(OpAlignment alignment, std::array<Iterations, 2> iterations)
    {
        OpComparison result;
        result.alignment = std::move(alignment);
        result.iterations = std::move(iterations);
        std::vector<ExtraKernels> extras(m_classifier.categories().size());
        for (size_t t = 0; t < extras.size(); ++t)
            extras[t].type = CategoryId(t);
        for (const Pattern& pattern : m_patterns)
            result.findings.push_back(findingOf(pattern, extras));
        std::stable_sort(result.findings.begin(), result.findings.end(), [](const OpFinding& a, const OpFinding& b) {
            if (a.savingUs != b.savingUs)
                return a.savingUs > b.savingUs;
            return a.launchDifference * int64_t(a.occurrences) > b.launchDifference * int64_t(b.occurrences);
        });
        for (const OpFinding& finding : result.findings)
            summaryOf(finding.op).savingUs += finding.savingUs;
        for (auto& [op, summary] : m_summaries) {
            for (size_t side = 0; side < 2; ++side)
                summary.timeUs[side] = spreadOf(m_summaryTimes[op][side]);
            result.byOperation.push_back(summary);
        }
        std::sort(result.byOperation.begin(), result.byOperation.end(), [](const OpSummary& a, const OpSummary& b) {
            if (a.savingUs != b.savingUs)
                return a.savingUs > b.savingUs;
            const double totalA = a.timeUs[0].total + a.timeUs[1].total;
            const double totalB = b.timeUs[0].total + b.timeUs[1].total;
            return totalA != totalB ? totalA > totalB : a.op < b.op;
        });
        for (const ExtraKernels& extra : extras) {
            if (extra.kernels[0] + extra.kernels[1] > 0)
                result.extraKernels.push_back(extra);
        }
        return result;
    }

private:
    OpSummary& summaryOf(const std::string& op)
    {
        OpSummary& summary = m_summaries[op];
        summary.op = op;
        return summary;
    }

    OpFinding findingOf(const Pattern& pattern, std::vector<ExtraKernels>& extras)
    {
        OpFinding finding;
        finding.op = pattern.op;
        finding.occurrences = pattern.occurrences[0].size();
        finding.firstTs = pattern.firstTs;
        finding.isGraph = pattern.isGraph;
        const PreparedSide& frameSide = m_sides[sideIndex(pattern.frameSide)];
        if (pattern.frame >= 0) {
            for (const int32_t f : frameSide.attribution.stackOf(pattern.frame))
                finding.stack.push_back(frameName(frameSide.store, frameSide.attribution.frames[size_t(f)]));
        }
        std::array<std::vector<double>, 2> times;
        for (size_t side = 0; side < 2; ++side) {
            const PreparedSide& prepared = m_sides[side];
            const auto& occurrences = pattern.occurrences[side];
            const std::vector<uint32_t>& first = occurrences.front();
            for (size_t position = 0; position < first.size(); ++position) {
                const KernelEvent& kernel = prepared.store.kernels[first[position]];
                std::vector<double> durations;
                for (const auto& kernels : occurrences)
                    durations.push_back(prepared.store.kernels[kernels[position]].dur);
                finding.kernels[side].push_back(
                    { std::string(prepared.store.name(kernel.name)), prepared.types.ofKernel[first[position]],
                        prepared.types.tagsOfName[kernel.name], spreadOf(durations).median });
            }
            for (const auto& kernels : occurrences)
                times[side].push_back(timeOf(prepared.store, kernels));
            finding.timeUs[side] = spreadOf(times[side]);
        }
        const size_t count1 = finding.kernels[0].size();
        const size_t count2 = finding.kernels[1].size();
        finding.fusedSide = count1 > count2 ? Side::Trace2 : Side::Trace1;
        const size_t unfused = sideIndex(otherSide(finding.fusedSide));
        const size_t fused = sideIndex(finding.fusedSide);
        finding.launchDifference = int64_t(finding.kernels[unfused].size()) - int64_t(finding.kernels[fused].size());
        for (size_t o = 0; o < finding.occurrences; ++o)
            finding.savingUs += std::max(0.0, times[unfused][o] - times[fused][o]);

        KernelListComparison comparison = compareKernelLists(finding.kernels, m_naming);
        finding.alignment = std::move(comparison.alignment);
        const auto sameType
            = std::count_if(finding.alignment.begin(), finding.alignment.end(), [&](const AlignedPair& p) {
                  return p.isMatch()
                      && finding.kernels[0][size_t(p.first)].type == finding.kernels[1][size_t(p.second)].type;
              });
        finding.typeAgreement = double(sameType) / double(std::max(count1, count2));
        // Every gap of the alignment, not only the first run of each kind (runs fold repeats).
        std::array<double, 2> extraTime {};
        for (const AlignedPair& pair : finding.alignment) {
            if (pair.isMatch())
                continue;
            const size_t side = pair.first >= 0 ? 0 : 1;
            const size_t position = size_t(side == 0 ? pair.first : pair.second);
            const CategoryId type = finding.kernels[side][position].type;
            extras[type].kernels[side] += finding.occurrences;
            for (const auto& kernels : pattern.occurrences[side]) {
                const uint32_t k = kernels[position];
                const double dur = m_sides[side].store.kernels[k].dur;
                extras[type].timeUs[side] += dur;
                extraTime[side] += dur;
                m_roles.role[side][k] = KernelRole::Extra;
            }
        }
        std::array<double, 2> total {};
        for (size_t side = 0; side < 2; ++side) {
            for (const double t : times[side])
                total[side] += t;
        }
        finding.savingExtraKernelsUs = extraTime[unfused] - extraTime[fused];
        finding.savingSpeedUs = (total[unfused] - extraTime[unfused]) - (total[fused] - extraTime[fused]);
        finding.extraRuns = std::move(comparison.runs);
        finding.summary = summaryText(finding);
        return finding;
    }

    std::string summaryText(const OpFinding& finding) const
    {
        const Side fused = finding.fusedSide;
        const Side unfused = otherSide(fused);
        const auto& u = finding.kernels[sideIndex(unfused)];
        const auto& f = finding.kernels[sideIndex(fused)];
        std::vector<uint32_t> allU(u.size()), allF(f.size());
        for (uint32_t i = 0; i < allU.size(); ++i)
            allU[i] = i;
        for (uint32_t i = 0; i < allF.size(); ++i)
            allF[i] = i;
        const std::string& uName = m_naming.sideNames[sideIndex(unfused)];
        const std::string& fName = m_naming.sideNames[sideIndex(fused)];
        return finding.op + ": " + uName + " runs " + std::to_string(u.size()) + " kernels ("
            + describeTypes(u, allU, m_naming.typeNames) + ") where " + fName + " runs " + std::to_string(f.size())
            + " (" + describeTypes(f, allF, m_naming.typeNames) + "), in " + std::to_string(finding.occurrences)
            + (finding.occurrences == 1 ? " call" : " calls") + "; " + uName + " takes "
            + formatDuration(finding.timeUs[sideIndex(unfused)].median) + " and " + fName + " "
            + formatDuration(finding.timeUs[sideIndex(fused)].median) + " per call (median)"
            + (finding.isGraph && finding.typeAgreement < kComparableShare
                    ? "; only " + fixed(finding.typeAgreement * 100, 0)
                        + "% of the kernels line up by type: these graphs may not run the same model"
                    : "");
    }

    std::array<PreparedSide, 2>& m_sides;
    const Classifier& m_classifier;
    NamingContext m_naming;
    std::vector<Pattern> m_patterns;
    std::unordered_map<std::string, size_t> m_patternOfKey;
    std::map<std::string, OpSummary> m_summaries;
    std::map<std::string, std::array<std::vector<double>, 2>> m_summaryTimes;
    KernelRoles& m_roles;
    std::unordered_map<std::string, int32_t> m_opIndex;
};

std::string verdictOf(const OpAlignment& alignment, const std::array<std::string, 2>& sideNames)
{
    const uint64_t larger = std::max(alignment.occurrences[0], alignment.occurrences[1]);
    if (larger == 0)
        return "No kernel could be attributed to a CPU operation (the traces hold no CPU operators, or no runtime "
               "launches): operations cannot be compared.";
    const std::string share = fixed(alignment.matchedShare * 100, 0) + "%";
    if (!alignment.comparable)
        return "Only " + share + " of the operations line up between " + sideNames[0] + " and " + sideNames[1]
            + ": the traces do not appear to run the same model or workload, so operation-level findings are not "
              "meaningful.";
    return share + " of the operations line up (" + withThousands(int64_t(alignment.matched)) + " of "
        + withThousands(int64_t(alignment.occurrences[0])) + " and " + withThousands(int64_t(alignment.occurrences[1]))
        + "): the traces run the same work.";
}

} // namespace

OpComparison compareOperations(const std::array<OpComparisonTrace, 2>& traces, std::span<const GroupKernelsPair> groups,
    const Classifier& classifier, OpLevel level, const std::array<std::string, 2>& sideNames)
{
    SymbolTable symbols;
    std::array<PreparedSide, 2> sides { PreparedSide {
                                            traces[0].store, traces[0].types, traces[0].attribution, {}, {} },
        PreparedSide { traces[1].store, traces[1].types, traces[1].attribution, {}, {} } };
    OpAlignment alignment;
    alignment.level = level;
    for (size_t side = 0; side < 2; ++side) {
        PreparedSide& prepared = sides[side];
        prepared.occurrences = groupByOperation(prepared.store, prepared.attribution, level, symbols);
        prepared.iterations = findIterations(prepared.store, prepared.occurrences);
        alignment.occurrences[side] = prepared.occurrences.size();
        alignment.attributedKernels[side] = prepared.attribution.attributed;
        alignment.unattributedKernels[side] = prepared.store.kernels.size() - prepared.attribution.attributed;
        for (size_t k = 0; k < prepared.store.kernels.size(); ++k) {
            if (prepared.attribution.launchingFrame[k] < 0)
                alignment.unattributedTimeUs[side] += prepared.store.kernels[k].dur;
        }
    }

    KernelRoles roles;
    for (size_t side = 0; side < 2; ++side) {
        const size_t count = sides[side].store.kernels.size();
        roles.role[side].assign(count, KernelRole::NotCompared);
        roles.op[side].assign(count, -1);
        for (size_t k = 0; k < count; ++k) {
            if (sides[side].attribution.launchingFrame[k] < 0)
                roles.role[side][k] = KernelRole::Unattributed;
        }
    }
    Comparer comparer(sides, classifier, sideNames, roles);
    // Kernels of graph launches are compared as matched groups, not as one huge operation.
    std::array<std::vector<bool>, 2> inGroups { std::vector<bool>(sides[0].store.kernels.size(), false),
        std::vector<bool>(sides[1].store.kernels.size(), false) };
    for (const GroupKernelsPair& pair : groups) {
        for (size_t side = 0; side < 2; ++side)
            for (const uint32_t k : pair.kernels[side])
                inGroups[side][k] = true;
    }
    std::array<std::vector<uint32_t>, 2> outsideGroups;

    // Align the operations phase by phase; compare them only if the traces run the same work.
    std::vector<std::pair<uint32_t, uint32_t>> matches;
    std::vector<std::pair<size_t, uint32_t>> unpaired; // side, occurrence: in a compared phase, no partner
    const std::vector<int64_t> partners = pairPhases(sides[0].iterations, sides[1].iterations);
    for (size_t phase = 0; phase < partners.size(); ++phase) {
        if (partners[phase] < 0)
            continue;
        const std::vector<uint32_t>& first = sides[0].iterations.phases[phase];
        const std::vector<uint32_t>& second = sides[1].iterations.phases[size_t(partners[phase])];
        std::vector<uint32_t> firstSymbols, secondSymbols;
        for (const uint32_t o : first)
            firstSymbols.push_back(sides[0].occurrences[o].symbol);
        for (const uint32_t o : second)
            secondSymbols.push_back(sides[1].occurrences[o].symbol);
        for (const AlignedPair& pair : alignSymbols(firstSymbols, secondSymbols)) {
            if (pair.isMatch())
                matches.emplace_back(first[size_t(pair.first)], second[size_t(pair.second)]);
            else if (pair.first >= 0)
                unpaired.emplace_back(0, first[size_t(pair.first)]);
            else
                unpaired.emplace_back(1, second[size_t(pair.second)]);
        }
    }
    alignment.matched = matches.size();
    const uint64_t larger = std::max(alignment.occurrences[0], alignment.occurrences[1]);
    alignment.matchedShare = larger > 0 ? double(alignment.matched) / double(larger) : 0.0;
    alignment.comparable = larger > 0 && alignment.matchedShare >= kComparableShare;
    alignment.verdict = verdictOf(alignment, sideNames);

    for (const auto& [side, occurrence] : alignment.comparable ? unpaired : decltype(unpaired) {}) {
        const OpOccurrence& alone = sides[side].occurrences[occurrence];
        outsideGroups[side].clear();
        for (const uint32_t k : alone.kernels) {
            if (!inGroups[side][k])
                outsideGroups[side].push_back(k);
        }
        comparer.markOneSide(side, symbols.name(alone.symbol), outsideGroups[side]);
    }
    for (const auto& [first, second] : alignment.comparable ? matches : decltype(matches) {}) {
        const OpOccurrence& a = sides[0].occurrences[first];
        const OpOccurrence& b = sides[1].occurrences[second];
        for (size_t side = 0; side < 2; ++side) {
            outsideGroups[side].clear();
            for (const uint32_t k : (side == 0 ? a : b).kernels) {
                if (!inGroups[side][k])
                    outsideGroups[side].push_back(k);
            }
        }
        if (outsideGroups[0].empty() && outsideGroups[1].empty())
            continue;
        comparer.addPair(symbols.name(a.symbol), a.frame, Side::Trace1, { &outsideGroups[0], &outsideGroups[1] },
            { a.ts, b.ts }, false);
    }

    for (const GroupKernelsPair& pair : groups) {
        if (!pair.compare)
            continue;
        // A graph is named after the operation around its launch, where the trace has one.
        const KernelAttribution& attribution = sides[0].attribution;
        const int32_t launching = pair.kernels[0].empty() ? -1 : attribution.launchingFrame[pair.kernels[0].front()];
        const std::string around
            = launching >= 0 ? frameName(sides[0].store, attribution.frames[size_t(launching)]) : "";
        const std::string op = around.empty() ? std::string("graph launch") : "graph launch in " + around;
        const std::array<double, 2> ts { pair.kernels[0].empty() ? 0
                                                                 : sides[0].store.kernels[pair.kernels[0].front()].ts,
            pair.kernels[1].empty() ? 0 : sides[1].store.kernels[pair.kernels[1].front()].ts };
        comparer.addPair(op, launching, Side::Trace1, { &pair.kernels[0], &pair.kernels[1] }, ts, true);
    }
    OpComparison result = comparer.finish(std::move(alignment), { sides[0].iterations.info, sides[1].iterations.info });
    result.roles = std::move(roles);
    return result;
}

} // namespace fusiondiff
