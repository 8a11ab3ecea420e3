#include "ops/alignment/opalignment.h"

#include "model/tracestore.h"
#include "ops/alignment/alignmentkeys.h"
#include "ops/alignment/cascadealignment.h"
#include "ops/alignment/gappairs.h"
#include "ops/alignment/layers.h"
#include "ops/alignment/sequencealignment.h"
#include "ops/attribution/stepparts.h"
#include "util/bothsides.h"
#include "util/textformat.h"

#include <algorithm>
#include <map>
#include <string_view>
#include <tuple>
#include <unordered_map>

namespace fusiondiff {

namespace {

// Below this share of matched occurrences, the traces are not taken to run the same work.
constexpr double kComparableShare = 0.5;
// The share that pairs made on kernel signatures (names differing) must reach instead.
constexpr double kComparableByKernelsShare = 0.8;
// Below this many operations on the larger side, the shares say nothing about the work (on Pi0 the
// work is in graph launches: 1 and 2 operations launch kernels); what pairs is compared.
constexpr uint64_t kFewestOccurrencesForVerdict = 20;

// "Python frames 96%, kernel signatures 4%": the levels that paired occurrences, for the verdict.
std::string levelsUsed(const OpAlignment& alignment)
{
    static const std::map<std::string, std::string> kLabels { { "stack", "whole call stacks" },
        { "python", "Python frames" }, { "module_operator", "operator names in their modules" },
        { "module", "module paths" }, { "operator", "operator names" }, { "renamed_operator", "renamed operators" },
        { "kernels", "kernel signatures" }, { "first_kernel", "first kernels between paired neighbours" } };
    std::string text;
    for (const AlignmentLevel& level : alignment.levels) {
        if (level.matched == 0)
            continue;
        const auto label = kLabels.find(level.key);
        text += (text.empty() ? "" : ", ") + (label != kLabels.end() ? label->second : level.key) + " "
            + fixed(level.share * 100, level.share < 0.01 ? 1 : 0) + "%";
    }
    return text;
}

// "layer by layer (24 calls of nn.Module: Qwen2DecoderLayer a step on each side) ", or "".
std::string layersUsed(const LayerAlignment& layers, const std::array<std::string, 2>& sideNames)
{
    if (layers.perStep == 0)
        return "";
    const std::string calls = std::to_string(layers.perStep) + " calls";
    const std::string by = layerNoun(layers, false) + " by " + layerNoun(layers, false);
    if (layers.unit[0] == layers.unit[1])
        return by + " (" + calls + " of " + layers.unit[0] + " a step on each side) ";
    return by + " (" + calls + " a step: " + layers.unit[0] + " in " + sideNames[0] + ", " + layers.unit[1] + " in "
        + sideNames[1] + ") ";
}

std::string verdictOf(
    const OpAlignment& alignment, const std::array<uint64_t, 2>& compared, const std::array<std::string, 2>& sideNames)
{
    const uint64_t larger = std::max(alignment.occurrences[0], alignment.occurrences[1]);
    if (larger == 0)
        return "No kernel could be attributed to a CPU operation (the traces hold no CPU operators, or no runtime "
               "launches): operations cannot be compared.";
    const std::string share = fixed(alignment.matchedShare * 100, 0) + "%";
    const std::string used = alignment.level == OpLevel::Auto && alignment.matched > 0
        ? " Aligned " + layersUsed(alignment.layers, sideNames) + "on " + levelsUsed(alignment) + "."
        : "";
    if (larger < kFewestOccurrencesForVerdict)
        return "Only " + withThousands(int64_t(alignment.occurrences[0])) + " and "
            + withThousands(int64_t(alignment.occurrences[1])) + " operations launch kernels (" + sideNames[0] + ", "
            + sideNames[1] + "): too few to tell whether the traces run the same work; the pairs they make ("
            + withThousands(int64_t(alignment.matched)) + ") are compared." + used;
    if (!alignment.comparable)
        return "Only " + share + " of the operations line up between " + sideNames[0] + " and " + sideNames[1]
            + ": the traces do not appear to run the same model or workload, so operation-level findings are not "
              "meaningful."
            + used;
    const bool allCompared = compared == alignment.occurrences;
    return share + " of the operations line up (" + withThousands(int64_t(alignment.matched)) + " of "
        + withThousands(int64_t(compared[0])) + " and " + withThousands(int64_t(compared[1]))
        + (allCompared ? "" : " in the compared steps") + "): the traces run the same work." + used;
}

std::vector<uint32_t> gather(const std::vector<uint32_t>& keys, const std::vector<uint32_t>& which)
{
    std::vector<uint32_t> result;
    result.reserve(which.size());
    for (const uint32_t i : which)
        result.push_back(keys[i]);
    return result;
}

// What the levels align on: each occurrence's key at each level, and its kernels.
struct LevelKeys
{
    std::array<std::vector<std::vector<uint32_t>>, 2> keys; // [side][level][occurrence]
    std::array<std::vector<KernelSignature>, 2> kernels; // [side][occurrence]
};

// The occurrences `first` and `second` paired level by level (alignByLevels) on
// `keys.keys[side][level]`, and on how many kernels they share where a level is scored.
void cascade(const std::vector<uint32_t>& first, const std::vector<uint32_t>& second, const LevelKeys& keys,
    std::vector<PhaseMatch>& matches)
{
    const size_t levelCount = keys.keys[0].size();
    std::vector<std::array<std::vector<uint32_t>, 2>> phaseKeys(levelCount);
    std::vector<CascadeLevel> levels(levelCount);
    for (size_t l = 0; l < levelCount; ++l) {
        const AlignmentLevelSpec& spec = autoAlignmentLevels()[l];
        phaseKeys[l] = { gather(keys.keys[0][l], first), gather(keys.keys[1][l], second) };
        levels[l] = { { phaseKeys[l][0], phaseKeys[l][1] }, spec.maxStretch, spec.equalCountsOnly, {}, 0 };
        if (spec.scoredStretch > 0) {
            levels[l].similarity = [&](size_t a, size_t b) {
                return sharedKernels(keys.kernels[0][first[a]], keys.kernels[1][second[b]]);
            };
            levels[l].scoredStretch = spec.scoredStretch;
            levels[l].scoreLongRuns = spec.scoreLongRuns;
        }
    }
    for (const CascadeMatch& match : alignByLevels(levels, first.size(), second.size()))
        matches.push_back({ first[match.first], second[match.second], match.level, {} });
}

// Each occurrence's part of its training step (stepparts.h), per side.
using StepParts = std::array<std::vector<StepPart>, 2>;

// Whether both sides of a pair of phases run a backward pass: training steps, whose forward,
// backward and optimizer parts are aligned part with part.
bool isTrainingPhase(const std::array<const std::vector<uint32_t>*, 2>& phases, const StepParts& parts)
{
    for (size_t side = 0; side < 2; ++side) {
        if (std::none_of(phases[side]->begin(), phases[side]->end(),
                [&](uint32_t o) { return parts[side][o] == StepPart::Backward; }))
            return false;
    }
    return true;
}

// The stretches aligned on their own: the pairs of phases, and inside a phase the layer segments
// where `layers` found layers on both sides (a layer call with the other side's call at the same
// place in the same step; what lies between calls with what lies between the same calls). In
// training steps, each step's forward, backward and optimizer parts are segments of their own too
// (a backward GEMM is never paired with a forward one, and a long step is aligned part by part).
std::vector<AlignedSegment> alignedSegments(const std::array<PreparedSide, 2>& sides,
    const std::vector<int64_t>& partners, const std::vector<LayerPairing>& layers, const StepParts& parts)
{
    std::vector<AlignedSegment> result;
    for (size_t phase = 0; phase < partners.size(); ++phase) {
        if (partners[phase] < 0)
            continue;
        const std::array<const std::vector<uint32_t>*, 2> phases { &sides[0].iterations.phases[phase],
            &sides[1].iterations.phases[size_t(partners[phase])] };
        const bool byLayers = !layers.empty() && layers[phase].paired();
        const bool training = isTrainingPhase(phases, parts);
        if (!byLayers && !training) {
            result.push_back({ *phases[0], *phases[1] });
            continue;
        }
        std::map<uint64_t, AlignedSegment> segments;
        for (size_t side = 0; side < 2; ++side) {
            uint64_t rank = 0; // the step's rank in the phase
            for (size_t p = 0; p < phases[side]->size(); ++p) {
                const uint32_t occurrence = (*phases[side])[p];
                if (p > 0
                    && sides[side].occurrences[occurrence].step != sides[side].occurrences[(*phases[side])[p - 1]].step)
                    ++rank;
                uint64_t segment = byLayers ? layers[phase].sides[side].segmentOf[p] : rank << 32;
                if (training)
                    segment |= uint64_t(parts[side][occurrence]) << 60;
                segments[segment][side].push_back(occurrence);
            }
        }
        for (auto& [segment, occurrences] : segments)
            result.push_back(std::move(occurrences));
    }
    return result;
}

// Where layers end differently on the two sides (a residual add inside one stack's layer module
// and after it in the other's), an operation and its partner fall in neighbouring segments and
// stay unpaired. So the phases aligned by layers are aligned once more, level by level, in each
// stretch between two consecutive pairs that spans more than one segment, with what is left there.
void alignAcrossLayerEnds(const std::array<PreparedSide, 2>& sides, const std::vector<int64_t>& partners,
    const std::vector<LayerPairing>& layers, const StepParts& parts, const LevelKeys& keys,
    std::vector<PhaseMatch>& matches)
{
    std::array<std::vector<int64_t>, 2> partnerOf;
    std::vector<uint32_t> positionInPhase(sides[1].occurrences.size(), 0);
    for (size_t side = 0; side < 2; ++side)
        partnerOf[side].assign(sides[side].occurrences.size(), -1);
    for (const PhaseMatch& match : matches) {
        partnerOf[0][match.first] = match.second;
        partnerOf[1][match.second] = match.first;
    }
    for (size_t phase = 0; phase < partners.size(); ++phase) {
        if (partners[phase] < 0 || !layers[phase].paired())
            continue;
        const std::vector<uint32_t>& first = sides[0].iterations.phases[phase];
        const std::vector<uint32_t>& second = sides[1].iterations.phases[size_t(partners[phase])];
        const std::array<const std::vector<uint64_t>*, 2> segmentOf { &layers[phase].sides[0].segmentOf,
            &layers[phase].sides[1].segmentOf };
        for (size_t p = 0; p < second.size(); ++p)
            positionInPhase[second[p]] = uint32_t(p);
        size_t nextFirst = 0, nextSecond = 0;
        auto stretchUpTo = [&](size_t firstEnd, size_t secondEnd) {
            if (nextFirst == firstEnd || nextSecond == secondEnd)
                return; // nothing left on one side
            // Inside one segment on both sides the segment's own alignment has tried it already.
            const uint64_t segment = (*segmentOf[0])[nextFirst];
            bool spansSegments = false;
            for (size_t p = nextFirst; p < firstEnd; ++p)
                spansSegments = spansSegments || (*segmentOf[0])[p] != segment;
            for (size_t p = nextSecond; p < secondEnd; ++p)
                spansSegments = spansSegments || (*segmentOf[1])[p] != segment;
            if (!spansSegments)
                return;
            // Part by part of the training step: a layer's end is never aligned across parts.
            for (const StepPart part : { StepPart::Forward, StepPart::Backward, StepPart::Optimizer }) {
                std::vector<uint32_t> leftFirst, leftSecond;
                for (size_t p = nextFirst; p < firstEnd; ++p) {
                    if (parts[0][first[p]] == part)
                        leftFirst.push_back(first[p]);
                }
                for (size_t p = nextSecond; p < secondEnd; ++p) {
                    if (parts[1][second[p]] == part)
                        leftSecond.push_back(second[p]);
                }
                cascade(leftFirst, leftSecond, keys, matches);
            }
        };
        for (size_t p = 0; p < first.size(); ++p) {
            if (partnerOf[0][first[p]] < 0)
                continue;
            const size_t q = positionInPhase[size_t(partnerOf[0][first[p]])];
            if (q < nextSecond)
                continue; // not in order with the previous pair (the alignment makes none such)
            stretchUpTo(p, q);
            nextFirst = p + 1;
            nextSecond = q + 1;
        }
        stretchUpTo(first.size(), second.size());
    }
}

std::vector<PhaseMatch> cascadeBySegment(const std::vector<AlignedSegment>& segments, const LevelKeys& keys)
{
    std::vector<PhaseMatch> matches;
    for (const AlignedSegment& segment : segments)
        cascade(segment[0], segment[1], keys, matches);
    return matches;
}

// The layers of each pair of phases (pairLayers), each occurrence's layer (PreparedSide::layerOf)
// and what the report says of them.
std::vector<LayerPairing> findLayers(std::array<PreparedSide, 2>& sides, const std::vector<int64_t>& partners,
    const std::array<std::string, 2>& sideNames, OpAlignment& alignment, bool sidesInParallel)
{
    std::vector<LayerPairing> layers(partners.size());
    for (PreparedSide& side : sides)
        side.layerOf.assign(side.occurrences.size(), -1);
    std::array<uint64_t, 2> inLayers {}, compared {};
    size_t widest = 0; // the phase with the most operations that was aligned by layers
    for (size_t phase = 0; phase < partners.size(); ++phase) {
        if (partners[phase] < 0)
            continue;
        const std::array<std::span<const uint32_t>, 2> phases { sides[0].iterations.phases[phase],
            sides[1].iterations.phases[size_t(partners[phase])] };
        layers[phase]
            = pairLayers({ LayerSide { sides[0].store, sides[0].attribution, sides[0].occurrences, phases[0] },
                             LayerSide { sides[1].store, sides[1].attribution, sides[1].occurrences, phases[1] } },
                sideNames, sidesInParallel);
        for (size_t side = 0; side < 2; ++side)
            compared[side] += phases[side].size();
        const LayerPairing& pairing = layers[phase];
        const std::string where = partners.size() > 1
            ? " in phase " + std::to_string(phase + 1) + " of " + std::to_string(partners.size())
            : "";
        const std::string note = "No layers in common" + where + ": " + pairing.reason + "; "
            + (where.empty() ? "the" : "that phase's") + " operations were aligned without layers";
        if (!pairing.reason.empty()
            && std::find(alignment.notes.begin(), alignment.notes.end(), note) == alignment.notes.end())
            alignment.notes.push_back(note);
        if (!pairing.paired())
            continue;
        for (size_t side = 0; side < 2; ++side) {
            const PhaseLayers& found = pairing.sides[side];
            alignment.layers.calls[side] += found.calls;
            for (size_t p = 0; p < phases[side].size(); ++p) {
                if (isLayerSegment(found.segmentOf[p])) {
                    sides[side].layerOf[phases[side][p]] = int32_t(layerIndexOf(found.segmentOf[p]));
                    ++inLayers[side];
                }
            }
        }
        if (alignment.layers.perStep == 0 || phases[0].size() > sides[0].iterations.phases[widest].size()) {
            widest = phase;
            alignment.layers.perStep = pairing.sides[0].perStep;
            alignment.layers.unit = { pairing.sides[0].unit, pairing.sides[1].unit };
            alignment.layers.graphPieces
                = isCompiledGraphPiece(pairing.sides[0].unit) || isCompiledGraphPiece(pairing.sides[1].unit);
        }
    }
    for (size_t side = 0; side < 2; ++side)
        alignment.layers.share[side] = compared[side] > 0 ? double(inLayers[side]) / double(compared[side]) : 0.0;
    return layers;
}

// Trace 1's operator names as trace 2 calls them: a name of trace 1 whose pairs mostly
// (kRenamingShare) go to one name of trace 2 that mostly pairs with it. A name that splits over
// several (one operator replaced by different ones at different call sites) is left out: aligning
// on it would pair calls across layers. Pairs made on the first kernel alone (the last level, a
// guess between neighbours) and pairs of kernel signatures that are alike but not equal (a
// scored level) are no evidence.
std::unordered_map<uint32_t, uint32_t> operatorRenaming(
    const std::array<PreparedSide, 2>& sides, const std::vector<PhaseMatch>& matches, const LevelKeys& keys)
{
    constexpr double kRenamingShare = 0.6;
    const size_t guessLevel = autoAlignmentLevels().size() - 1;
    std::map<std::pair<uint32_t, uint32_t>, uint64_t> counts;
    std::unordered_map<uint32_t, uint64_t> totalOfFirst, totalOfSecond;
    for (const PhaseMatch& match : matches) {
        if (match.level == guessLevel
            || (autoAlignmentLevels()[match.level].scoredStretch > 0
                && keys.keys[0][match.level][match.first] != keys.keys[1][match.level][match.second]))
            continue;
        const uint32_t first = sides[0].occurrences[match.first].symbol;
        const uint32_t second = sides[1].occurrences[match.second].symbol;
        ++counts[{ first, second }];
        ++totalOfFirst[first];
        ++totalOfSecond[second];
    }
    std::unordered_map<uint32_t, uint32_t> renaming;
    for (const auto& [names, count] : counts) {
        if (double(count) >= kRenamingShare * double(totalOfFirst[names.first])
            && double(count) >= kRenamingShare * double(totalOfSecond[names.second]))
            renaming.emplace(names.first, names.second);
    }
    return renaming;
}

// Backward operators paired through their forward operators: an autograd node is named after the
// operator that recorded it (AddmmBackward0 after aten::addmm, a vendor's Op7Backward0 after
// vendor::op_7). Where trace 1's forward operator is renamed to one of trace 2's, the node named
// after it is renamed to the node named after that one, with the same suffix, unless the pairs
// made say otherwise already. Returns how many names it added.
size_t renameNodesAfterTheirOperators(
    const std::array<std::vector<std::string_view>, 2>& nameOf, std::unordered_map<uint32_t, uint32_t>& renaming)
{
    // Per side: operator symbols by forward stem, node symbols by (stem, suffix, wrapped).
    std::array<std::map<std::string, std::vector<uint32_t>>, 2> operatorsOfStem;
    std::array<std::map<std::tuple<std::string, std::string, bool>, uint32_t>, 2> nodeOf;
    std::array<std::vector<std::pair<uint32_t, AutogradNode>>, 2> nodes;
    for (size_t side = 0; side < 2; ++side) {
        for (uint32_t symbol = 0; symbol < nameOf[side].size(); ++symbol) {
            if (nameOf[side][symbol].empty())
                continue;
            AutogradNode node = autogradNodeOf(nameOf[side][symbol]);
            if (!node.isNode) {
                operatorsOfStem[side][forwardStemOf(nameOf[side][symbol])].push_back(symbol);
            } else if (!node.forwardStem.empty()) {
                nodeOf[side].emplace(std::make_tuple(node.forwardStem, node.suffix, node.wrapped), symbol);
                nodes[side].emplace_back(symbol, std::move(node));
            }
        }
    }
    size_t added = 0;
    for (const auto& [symbol, node] : nodes[0]) {
        if (renaming.contains(symbol))
            continue;
        const auto forwards = operatorsOfStem[0].find(node.forwardStem);
        if (forwards == operatorsOfStem[0].end())
            continue;
        // The nodes of trace 2 named after what trace 1's operators of that stem are renamed to:
        // only one may answer.
        std::vector<uint32_t> answers;
        for (const uint32_t forward : forwards->second) {
            const auto renamed = renaming.find(forward);
            if (renamed == renaming.end() || renamed->second >= nameOf[1].size())
                continue;
            const auto other
                = nodeOf[1].find(std::make_tuple(forwardStemOf(nameOf[1][renamed->second]), node.suffix, node.wrapped));
            if (other != nodeOf[1].end() && std::find(answers.begin(), answers.end(), other->second) == answers.end())
                answers.push_back(other->second);
        }
        if (answers.size() == 1) {
            renaming.emplace(symbol, answers.front());
            ++added;
        }
    }
    return added;
}

// Each symbol's operator name on one side (empty for symbols the side does not use).
std::vector<std::string_view> symbolNames(const PreparedSide& side)
{
    std::vector<std::string_view> names;
    for (const OpOccurrence& occurrence : side.occurrences) {
        if (occurrence.frame < 0)
            continue;
        if (names.size() <= occurrence.symbol)
            names.resize(occurrence.symbol + 1);
        if (names[occurrence.symbol].empty())
            names[occurrence.symbol] = side.store.name(side.attribution.frames[size_t(occurrence.frame)].name);
    }
    return names;
}

// The occurrences of the two traces paired, phase by phase: on the names of `level` alone, or,
// for OpLevel::Auto, level by level (autoAlignmentLevels) where the finer ones leave gaps.
// Fills `alignment.levels` with what each level paired.
std::vector<PhaseMatch> alignPhases(std::array<PreparedSide, 2>& sides, OpLevel level,
    const std::array<std::string, 2>& sideNames, OpAlignment& alignment, std::vector<AlignedSegment>& segments,
    bool sidesInParallel)
{
    std::vector<PhaseMatch> matches;
    const std::vector<int64_t> partners = pairPhases(sides[0].iterations, sides[1].iterations);
    if (level != OpLevel::Auto) {
        alignment.levels.push_back({ opLevelKey(level), "operation names at the chosen level", 0, 0 });
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
                    matches.push_back({ first[size_t(pair.first)], second[size_t(pair.second)], 0, {} });
            }
        }
        alignment.levels.front().matched = matches.size();
        return matches;
    }

    const std::span<const AlignmentLevelSpec> specs = autoAlignmentLevels();
    for (const AlignmentLevelSpec& spec : specs)
        alignment.levels.push_back({ spec.key, spec.description, 0, 0 });
    // Each side's keys in a table of its own, then one table for both, its ids given as interning
    // side 0's keys and then side 1's on one thread would give them.
    std::array<AlignmentKeyTable, 2> ownTables;
    LevelKeys keys;
    StepParts parts;
    forBothSides(sidesInParallel, [&](size_t side) {
        const PreparedSide& own = sides[side];
        together(
            [&] {
                std::vector<uint32_t> all(own.occurrences.size());
                for (uint32_t i = 0; i < all.size(); ++i)
                    all[i] = i;
                keys.keys[side]
                    = alignmentKeys(own.store, own.types, own.attribution, own.occurrences, all, ownTables[side]);
            },
            [&] {
                parts[side] = stepPartsOf(own.store, own.attribution, own.occurrences);
                keys.kernels[side] = kernelSignatures(own.store, own.types, own.occurrences);
            });
    });
    AlignmentKeyTable table;
    for (size_t side = 0; side < 2; ++side) {
        const std::vector<uint32_t> shared = table.adopt(ownTables[side]);
        for (std::vector<uint32_t>& keysAtLevel : keys.keys[side]) {
            for (uint32_t& key : keysAtLevel) {
                if (key != kNoKey)
                    key = shared[key];
            }
        }
    }
    const std::vector<LayerPairing> layers = findLayers(sides, partners, sideNames, alignment, sidesInParallel);
    segments = alignedSegments(sides, partners, layers, parts);
    matches = cascadeBySegment(segments, keys);
    alignAcrossLayerEnds(sides, partners, layers, parts, keys, matches);
    const size_t renamed = renamedOperatorLevel();
    const bool byKernels
        = std::any_of(matches.begin(), matches.end(), [&](const PhaseMatch& match) { return match.level > renamed; });
    std::unordered_map<uint32_t, uint32_t> renaming = operatorRenaming(sides, matches, keys);
    const size_t nodesRenamed
        = renameNodesAfterTheirOperators({ symbolNames(sides[0]), symbolNames(sides[1]) }, renaming);
    if (byKernels || nodesRenamed > 0) {
        // Operators renamed consistently (a vendor's custom operators): learn the renaming from the
        // pairs made, and align again with it, before kernels alone, which cannot tell two
        // elementwise operators apart.
        for (size_t i = 0; i < sides[0].occurrences.size(); ++i) {
            const auto it = renaming.find(sides[0].occurrences[i].symbol);
            keys.keys[0][renamed][i] = it != renaming.end() ? it->second : kNoKey;
        }
        for (size_t i = 0; i < sides[1].occurrences.size(); ++i)
            keys.keys[1][renamed][i] = sides[1].occurrences[i].symbol;
        matches = cascadeBySegment(segments, keys);
        alignAcrossLayerEnds(sides, partners, layers, parts, keys, matches);
    }
    for (const PhaseMatch& match : matches) {
        ++alignment.levels[match.level].matched;
        if (sides[0].layerOf[match.first] >= 0)
            ++alignment.layers.matched;
    }
    return matches;
}

// The traces run the same work if most operations pair up. Pairs made on kernels alone count only
// when names paired a fair share too and kernels pair nearly everything: two different models
// share many kernel sequences (GEMM, norm, GEMM ...) but not the whole sequence in order.
bool isComparable(double matchedShare, double byNameShare)
{
    if (byNameShare >= kComparableShare)
        return true;
    return matchedShare >= kComparableByKernelsShare;
}

// Notes on structure one side lacks, so that the user knows what the alignment could not use.
void describeStructure(
    const std::array<PreparedSide, 2>& sides, const std::array<std::string, 2>& sideNames, OpAlignment& alignment)
{
    std::array<bool, 2> python {}, modules {}, launches {}, steps {};
    for (size_t side = 0; side < 2; ++side) {
        python[side] = !sides[side].store.pythonFrames.empty();
        modules[side] = !sides[side].store.modules.empty();
        launches[side] = !sides[side].occurrences.empty();
        steps[side] = sides[side].iterations.info.method == "ProfilerStep annotations";
    }
    auto oneSide = [&](const std::array<bool, 2>& has, const std::string& what, const std::string& instead) {
        if (has[0] == has[1])
            return;
        const size_t without = has[0] ? 1 : 0;
        alignment.notes.push_back(
            sideNames[without] + " has no " + what + " (" + sideNames[1 - without] + " has): " + instead);
    };
    if (alignment.level == OpLevel::Auto) {
        oneSide(python, "Python frames (recorded with with_stack=True)",
            "operations were aligned on modules, operator names and kernels instead");
        oneSide(modules, "nn.Module frames",
            "operations were aligned on Python frames, operator names and kernels instead");
    }
    oneSide(steps, "ProfilerStep annotations", "each trace was aligned as one sequence of operations");
    for (size_t side = 0; side < 2; ++side) {
        if (!launches[side] && !sides[side].store.kernels.empty())
            alignment.notes.push_back(sideNames[side]
                + " has no kernel whose launch is in the trace (no runtime calls or CPU operators): only its kernel "
                  "types and graph groups are compared");
    }
}

} // namespace

std::vector<PhaseMatch> alignOperations(std::array<PreparedSide, 2>& sides, OpLevel level,
    const std::array<std::string, 2>& sideNames, OpAlignment& alignment, bool sidesInParallel)
{
    std::vector<AlignedSegment> segments;
    std::vector<PhaseMatch> matches = alignPhases(sides, level, sideNames, alignment, segments, sidesInParallel);
    alignment.matched = matches.size();
    // The shares are of the operations compared: those of the steps (a warm-up step, left out, is
    // no evidence of different work: with five steps it alone would hold a fifth of them).
    std::array<uint64_t, 2>& compared = alignment.compared;
    compared = {};
    for (size_t side = 0; side < 2; ++side) {
        for (const std::vector<uint32_t>& phase : sides[side].iterations.phases)
            compared[side] += phase.size();
    }
    const uint64_t larger = std::max(alignment.occurrences[0], alignment.occurrences[1]);
    const uint64_t largerCompared = std::max(compared[0], compared[1]);
    alignment.matchedShare = largerCompared > 0 ? double(alignment.matched) / double(largerCompared) : 0.0;
    uint64_t byName = 0; // pairs made on names, not on kernels alone
    for (AlignmentLevel& used : alignment.levels) {
        used.share = largerCompared > 0 ? double(used.matched) / double(largerCompared) : 0.0;
        if (used.key != "kernels" && used.key != "first_kernel")
            byName += used.matched;
    }
    alignment.comparable = larger < kFewestOccurrencesForVerdict
        ? alignment.matched > 0
        : isComparable(alignment.matchedShare, largerCompared > 0 ? double(byName) / double(largerCompared) : 0.0);
    alignment.differentWork = !alignment.comparable && larger >= kFewestOccurrencesForVerdict;
    alignment.verdict = verdictOf(alignment, compared, sideNames);
    describeStructure(sides, sideNames, alignment);
    if (alignment.comparable && larger >= kFewestOccurrencesForVerdict && !segments.empty()) {
        // After the verdict: what is left between pairs says nothing about whether the traces run
        // the same work. Not where too few operations make the pairs themselves a guess.
        const GapPairing gaps = pairTheGaps(sides, segments, matches, uint32_t(alignment.levels.size()));
        alignment.levels.push_back({ "between_pairs",
            "the operations left between two pairs (or a layer's ends) on both sides, compared together as the same "
            "work done differently (at most 8 a side)",
            gaps.groups, largerCompared > 0 ? double(gaps.groups) / double(largerCompared) : 0.0 });
        alignment.levels.push_back({ "joined",
            "operations one side runs between two pairs, compared as part of the neighbouring pair in the same module "
            "or Python function",
            gaps.joined, largerCompared > 0 ? double(gaps.joined) / double(largerCompared) : 0.0 });
        alignment.levels.push_back({ "reordered",
            "operations left on both sides at most two pairs apart, paired as they pair everywhere else (one "
            "trace runs them in another order)",
            gaps.reordered, largerCompared > 0 ? double(gaps.reordered) / double(largerCompared) : 0.0 });
    }
    return matches;
}

std::vector<uint32_t> PhaseMatch::occurrences(size_t side) const
{
    std::vector<uint32_t> result = joined[side];
    result.push_back(side == 0 ? first : second);
    std::sort(result.begin(), result.end()); // occurrences are numbered in time order
    return result;
}

// The occurrences of the compared phases that found no partner (side, occurrence): work one side
// runs and the other does not.
std::vector<std::pair<size_t, uint32_t>> unpairedOccurrences(
    const std::array<PreparedSide, 2>& sides, const std::vector<PhaseMatch>& matches)
{
    std::array<std::vector<bool>, 2> paired;
    for (size_t side = 0; side < 2; ++side)
        paired[side].assign(sides[side].occurrences.size(), false);
    for (const PhaseMatch& match : matches) {
        for (size_t side = 0; side < 2; ++side) {
            for (const uint32_t occurrence : match.occurrences(side))
                paired[side][occurrence] = true;
        }
    }
    std::vector<std::pair<size_t, uint32_t>> unpaired;
    const std::vector<int64_t> partners = pairPhases(sides[0].iterations, sides[1].iterations);
    for (size_t phase = 0; phase < partners.size(); ++phase) {
        if (partners[phase] < 0)
            continue;
        const std::array<const std::vector<uint32_t>*, 2> phases { &sides[0].iterations.phases[phase],
            &sides[1].iterations.phases[size_t(partners[phase])] };
        for (size_t side = 0; side < 2; ++side) {
            for (const uint32_t occurrence : *phases[side]) {
                if (!paired[side][occurrence])
                    unpaired.emplace_back(side, occurrence);
            }
        }
    }
    return unpaired;
}

} // namespace fusiondiff
