#include "ops/comparison/opcomparison.h"

#include "classify/kerneltypes.h"
#include "model/tracestore.h"
#include "ops/alignment/opalignment.h"
#include "ops/attribution/nearphases.h"
#include "ops/attribution/opattribution.h"
#include "ops/comparison/collectivepart.h"
#include "ops/comparison/findingparts.h"
#include "ops/comparison/kernelcomparison.h"
#include "ops/comparison/layertimes.h"
#include "util/bothsides.h"
#include "util/phaseorder.h"
#include "util/textformat.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace fusiondiff {

namespace {

// One matched pair of operation occurrences (or graph launches), as each side names it.
struct PairNames
{
    std::array<std::string, 2> ops;
    std::array<int32_t, 2> frames { -1, -1 }; // in each side's KernelAttribution, -1 if none
    std::string alignedOn; // the alignment level's key
    int32_t layer = -1; // the layer's index in the step (trace 1's), -1 outside layers
    std::string phase; // the compared phase of trace 1's occurrence, as LayerTimes::phase names it
};

// Occurrences of one pattern: the same operation with the same kernel types on each side.
struct Pattern
{
    std::string op;
    PairNames names; // of the first occurrence
    std::array<std::vector<std::vector<uint32_t>>, 2> occurrences; // kernel lists per occurrence
    std::array<double, 2> firstTs {};
    bool isGraph = false; // a matched pair of graph launches, not operations matched by name
    std::vector<uint32_t> layers; // the layers of its occurrences, by index in the step
    std::vector<std::pair<std::string, uint32_t>> phaseLayers; // the same with each one's phase
};

// "aten::linear", or "aten::linear / vendor::gemm" where the two sides name it differently.
std::string combinedName(const std::array<std::string, 2>& ops)
{
    if (ops[0] == ops[1] || ops[1].empty())
        return ops[0];
    if (ops[0].empty())
        return ops[1];
    return ops[0] + " / " + ops[1];
}

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
    void addPair(const PairNames& names, const std::array<const std::vector<uint32_t>*, 2>& kernels,
        std::array<double, 2> ts, bool isGraph)
    {
        const std::string op = combinedName(names.ops);
        OpSummary& summary = summaryOf(op);
        ++summary.occurrences;
        const int32_t index = opIndex(op);
        if (kernels[0]->size() == kernels[1]->size())
            m_kernelPairs.addByPosition(stores(), kernels);
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
            m_patterns.push_back({ op, names, {}, ts, isGraph, {}, {} });
        Pattern& pattern = m_patterns[it->second];
        for (size_t side = 0; side < 2; ++side)
            pattern.occurrences[side].push_back(*kernels[side]);
        if (names.layer >= 0) {
            pattern.layers.push_back(uint32_t(names.layer));
            pattern.phaseLayers.emplace_back(names.phase, uint32_t(names.layer));
        }
    }

    OpComparison finish(OpAlignment alignment, std::array<Iterations, 2> iterations)
    {
        OpComparison result;
        result.alignment = std::move(alignment);
        result.iterations = std::move(iterations);
        std::vector<ExtraKernels> extras(m_classifier.categories().size());
        for (size_t t = 0; t < extras.size(); ++t)
            extras[t].type = CategoryId(t);
        for (const Pattern& pattern : m_patterns) {
            OpFinding finding = findingOf(pattern, extras);
            // Kernel counts that differ only in communication kernels: a collective difference.
            if (!differsOnlyInCollectives(finding)) {
                result.findings.push_back(std::move(finding));
                continue;
            }
            // Its other kernels run on both sides: their difference is speed, with an entry of its own.
            for (size_t side = 0; side < 2; ++side) {
                for (const std::vector<uint32_t>& kernels : pattern.occurrences[side]) {
                    for (const uint32_t k : kernels) {
                        if (m_roles.role[side][k] == KernelRole::Aligned)
                            m_roles.role[side][k] = KernelRole::Paired;
                    }
                }
            }
        }
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
            summary.differenceUs = pairedDifferenceSpread(m_summaryTimes[op][0], m_summaryTimes[op][1]);
            result.byOperation.push_back(summary);
        }
        std::sort(result.byOperation.begin(), result.byOperation.end(), summaryRanksBefore);
        for (const ExtraKernels& extra : extras) {
            if (extra.kernels[0] + extra.kernels[1] > 0)
                result.extraKernels.push_back(extra);
        }
        result.kernelPairs = std::move(m_kernelPairs); // findingOf added the aligned kernels
        return result;
    }

private:
    std::array<const TraceStore*, 2> stores() const { return { &m_sides[0].store, &m_sides[1].store }; }

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
        finding.sideOps = pattern.names.ops;
        finding.alignedOn = pattern.names.alignedOn;
        finding.layerIndices = pattern.layers;
        std::sort(finding.layerIndices.begin(), finding.layerIndices.end());
        finding.layerIndices.erase(
            std::unique(finding.layerIndices.begin(), finding.layerIndices.end()), finding.layerIndices.end());
        finding.phaseLayers = pattern.phaseLayers;
        std::sort(finding.phaseLayers.begin(), finding.phaseLayers.end(), phaseLayerBefore);
        finding.phaseLayers.erase(
            std::unique(finding.phaseLayers.begin(), finding.phaseLayers.end()), finding.phaseLayers.end());
        finding.layers = phaseLayerRanges(finding.phaseLayers);
        for (size_t side = 0; side < 2; ++side) {
            const PreparedSide& named = m_sides[side];
            if (pattern.names.frames[side] < 0)
                continue;
            for (const int32_t f : named.attribution.operationStackOf(pattern.names.frames[side]))
                finding.sideStacks[side].push_back(frameName(named.store, named.attribution.frames[size_t(f)]));
        }
        finding.stack = finding.sideStacks[0].empty() ? finding.sideStacks[1] : finding.sideStacks[0];
        std::array<std::vector<double>, 2> times;
        std::array<std::vector<bool>, 2> collectives;
        for (size_t side = 0; side < 2; ++side) {
            const PreparedSide& prepared = m_sides[side];
            const auto& occurrences = pattern.occurrences[side];
            finding.kernels[side] = findingKernels(prepared.store, prepared.types, occurrences);
            if (!occurrences.empty())
                finding.firstKernels[side] = occurrences.front();
            collectives[side] = collectivePositions(finding.kernels[side], m_naming);
            times[side] = occurrenceTimes(prepared.store, occurrences, collectives[side]);
            finding.timeUs[side] = spreadOf(times[side]);
        }
        setCollectiveKernels(finding, stores(), pattern.occurrences, collectives);
        setFusedSideAndSaving(finding, times);

        KernelListComparison comparison = compareKernelLists(finding.kernels, m_naming);
        finding.alignment = std::move(comparison.alignment);
        for (size_t o = 0; o < finding.occurrences; ++o)
            m_kernelPairs.addAligned(
                stores(), { &pattern.occurrences[0][o], &pattern.occurrences[1][o] }, finding.alignment);
        finding.typeAgreement = typeAgreement(finding.kernels, finding.alignment);
        const std::array<double, 2> extraTime
            = addExtraKernels(finding, { &m_sides[0].store, &m_sides[1].store }, pattern.occurrences, extras,
                collectives, [&](size_t side, uint32_t k) { m_roles.role[side][k] = KernelRole::Extra; });
        splitSaving(finding, times, extraTime);
        finding.extraRuns = std::move(comparison.runs);
        finding.summary
            = findingSummary(finding, m_naming, kCallNoun, finding.isGraph) + collectiveText(finding, m_naming);
        return finding;
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
    KernelPairTally m_kernelPairs;
};

} // namespace

OpComparison compareOperations(const std::array<OpComparisonTrace, 2>& traces, std::span<const GroupKernelsPair> groups,
    const Classifier& classifier, OpLevel level, const std::array<std::string, 2>& sideNames, bool sidesInParallel)
{
    SymbolTable symbols;
    std::array<PreparedSide, 2> sides { PreparedSide {
                                            traces[0].store, traces[0].types, traces[0].attribution, {}, {}, {} },
        PreparedSide { traces[1].store, traces[1].types, traces[1].attribution, {}, {}, {} } };
    OpAlignment alignment;
    alignment.level = level;
    // Each side's operations named in a table of its own, then in one for both (ids as one thread
    // naming side 0's and then side 1's would give them) before anything reads the ids.
    std::array<SymbolTable, 2> ownSymbols;
    forBothSides(sidesInParallel, [&](size_t side) {
        sides[side].occurrences = groupByOperation(sides[side].store, sides[side].attribution, level, ownSymbols[side]);
    });
    for (size_t side = 0; side < 2; ++side) {
        const std::vector<uint32_t> shared = symbols.adopt(ownSymbols[side]);
        for (OpOccurrence& occurrence : sides[side].occurrences)
            occurrence.symbol = shared[occurrence.symbol];
    }
    forBothSides(sidesInParallel,
        [&](size_t side) { sides[side].iterations = findIterations(sides[side].store, sides[side].occurrences); });
    mergeNearPhases({ &sides[0].iterations, &sides[1].iterations }, { &sides[0].occurrences, &sides[1].occurrences });
    for (size_t side = 0; side < 2; ++side) {
        PreparedSide& prepared = sides[side];
        alignment.occurrences[side] = prepared.occurrences.size();
        alignment.attributedKernels[side] = prepared.attribution.attributed;
        alignment.unattributedKernels[side] = prepared.store.kernels.size() - prepared.attribution.attributed;
        for (size_t k = 0; k < prepared.store.kernels.size(); ++k) {
            if (prepared.attribution.launchingFrame[k] >= 0)
                continue;
            alignment.unattributedTimeUs[side] += prepared.store.kernels[k].dur;
            if (prepared.attribution.launchCall[k] >= 0) {
                ++alignment.unattributedLaunchedKernels[side];
                alignment.unattributedLaunchedTimeUs[side] += prepared.store.kernels[k].dur;
            }
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
    const std::vector<PhaseMatch> matches = alignOperations(sides, level, sideNames, alignment, sidesInParallel);
    std::vector<int64_t> phasePartners = pairPhases(sides[0].iterations, sides[1].iterations);
    const std::vector<int32_t> comparedPhase = comparedPhaseOf(sides[0], 0, phasePartners);
    const std::vector<std::pair<size_t, uint32_t>> unpaired = unpairedOccurrences(sides, matches);

    for (const auto& [side, occurrence] : alignment.comparable ? unpaired : decltype(unpaired) {}) {
        const OpOccurrence& alone = sides[side].occurrences[occurrence];
        outsideGroups[side].clear();
        for (const uint32_t k : alone.kernels) {
            if (!inGroups[side][k])
                outsideGroups[side].push_back(k);
        }
        comparer.markOneSide(side, symbols.name(alone.symbol), outsideGroups[side]);
    }
    for (const PhaseMatch& match : alignment.comparable ? matches : std::vector<PhaseMatch> {}) {
        // A pair with occurrences joined to it (ops/alignment/gappairs.h) is named after all of them, in order.
        PairNames names;
        std::array<double, 2> ts {};
        for (size_t side = 0; side < 2; ++side) {
            outsideGroups[side].clear();
            for (const uint32_t o : match.occurrences(side)) {
                const OpOccurrence& occurrence = sides[side].occurrences[o];
                names.ops[side] += (names.ops[side].empty() ? "" : " + ") + symbols.name(occurrence.symbol);
                if (names.frames[side] < 0) {
                    names.frames[side] = occurrence.frame;
                    ts[side] = occurrence.ts;
                }
                for (const uint32_t k : occurrence.kernels) {
                    if (!inGroups[side][k])
                        outsideGroups[side].push_back(k);
                }
            }
        }
        if (outsideGroups[0].empty() && outsideGroups[1].empty())
            continue;
        names.alignedOn = alignment.levels[match.level].key;
        names.layer = sides[0].layerOf.empty() ? -1 : sides[0].layerOf[match.first];
        if (names.layer >= 0)
            names.phase = comparedPhaseName({ &sides[0].iterations, &sides[1].iterations }, comparedPhase[match.first]);
        comparer.addPair(names, { &outsideGroups[0], &outsideGroups[1] }, ts, false);
    }

    for (const GroupKernelsPair& pair : groups) {
        if (!pair.compare)
            continue;
        // A graph is named after the operation around its launch, where the trace has one.
        PairNames names;
        names.alignedOn = "graph";
        std::array<double, 2> ts {};
        for (size_t side = 0; side < 2; ++side) {
            const KernelAttribution& attribution = sides[side].attribution;
            const std::vector<uint32_t>& kernels = pair.kernels[side];
            names.frames[side] = kernels.empty() ? -1 : attribution.launchingFrame[kernels.front()];
            const std::string around = names.frames[side] >= 0
                ? frameName(sides[side].store, attribution.frames[size_t(names.frames[side])])
                : "";
            names.ops[side] = around.empty() ? std::string("graph launch") : "graph launch in " + around;
            ts[side] = kernels.empty() ? 0 : sides[side].store.kernels[kernels.front()].ts;
        }
        if (names.frames[0] < 0 || names.frames[1] < 0)
            names.ops[1] = names.ops[0]; // one side without a launch in the trace: not a different name
        comparer.addPair(names, { &pair.kernels[0], &pair.kernels[1] }, ts, true);
    }
    OpComparison result = comparer.finish(std::move(alignment), { sides[0].iterations.info, sides[1].iterations.info });
    result.roles = std::move(roles);
    result.phasePartners = std::move(phasePartners);
    result.layerTimes = layerTimesByPhase(sides, result.phasePartners);
    for (size_t side = 0; side < 2; ++side)
        result.steps[side] = sides[side].iterations.steps;
    return result;
}

bool summaryRanksBefore(const OpSummary& a, const OpSummary& b)
{
    if (a.savingUs != b.savingUs)
        return a.savingUs > b.savingUs;
    const double totalA = a.timeUs[0].total + a.timeUs[1].total;
    const double totalB = b.timeUs[0].total + b.timeUs[1].total;
    return totalA != totalB ? totalA > totalB : a.op < b.op;
}

} // namespace fusiondiff
