#include "ops/attribution/nearphases.h"

#include "ops/attribution/iterations.h"
#include "ops/attribution/opoccurrences.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <string>

namespace fusiondiff {

namespace {

constexpr double kNearPhaseShare = 0.01;

// Whether two steps' operations (in order) differ only in operations that make at most
// kNearPhaseShare of their calls.
bool differInFewCalls(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b)
{
    auto distinct = [](std::vector<uint32_t> symbols) {
        std::sort(symbols.begin(), symbols.end());
        symbols.erase(std::unique(symbols.begin(), symbols.end()), symbols.end());
        return symbols;
    };
    const std::vector<uint32_t> distinctA = distinct(a);
    const std::vector<uint32_t> distinctB = distinct(b);
    std::vector<uint32_t> differing;
    std::set_symmetric_difference(
        distinctA.begin(), distinctA.end(), distinctB.begin(), distinctB.end(), std::back_inserter(differing));
    size_t calls = 0;
    for (const std::vector<uint32_t>* step : { &a, &b }) {
        calls += size_t(std::count_if(step->begin(), step->end(),
            [&](uint32_t symbol) { return std::binary_search(differing.begin(), differing.end(), symbol); }));
    }
    return double(calls) <= std::floor(kNearPhaseShare * double(std::max(a.size(), b.size())));
}

void mergeInto(TraceIterations& iterations, const std::vector<OpOccurrence>& occurrences)
{
    std::vector<std::vector<uint32_t>> stepSymbols(iterations.steps.size());
    for (const OpOccurrence& occurrence : occurrences) {
        if (occurrence.step >= 0 && size_t(occurrence.step) < stepSymbols.size())
            stepSymbols[size_t(occurrence.step)].push_back(occurrence.symbol);
    }
    std::vector<int64_t> firstStepOf(iterations.phases.size(), -1);
    for (size_t step = 0; step < iterations.steps.size(); ++step) {
        const int32_t phase = iterations.steps[step].phase;
        if (phase >= 0 && firstStepOf[size_t(phase)] < 0)
            firstStepOf[size_t(phase)] = int64_t(step);
    }
    if (std::find(firstStepOf.begin(), firstStepOf.end(), -1) != firstStepOf.end())
        return; // a phase without steps (no profiler steps): nothing to merge
    const std::vector<uint32_t>& first = stepSymbols[size_t(firstStepOf[0])];
    for (size_t phase = 1; phase < firstStepOf.size(); ++phase) {
        if (!differInFewCalls(first, stepSymbols[size_t(firstStepOf[phase])]))
            return;
    }
    std::vector<uint32_t> merged;
    for (const std::vector<uint32_t>& phase : iterations.phases)
        merged.insert(merged.end(), phase.begin(), phase.end());
    std::sort(merged.begin(), merged.end()); // occurrences are in the order they started
    uint64_t steps = 0;
    for (HostStep& step : iterations.steps) {
        if (step.phase >= 0) {
            step.phase = 0;
            ++steps;
        }
    }
    iterations.phases = { std::move(merged) };
    iterations.phaseSignatures.resize(1);
    iterations.info.phases = { "phase 1: " + std::to_string(steps) + (steps == 1 ? " step, " : " steps, ")
        + std::to_string(iterations.phases.front().size()) + " operations" };
}

} // namespace

void mergeNearPhases(
    const std::array<TraceIterations*, 2>& sides, const std::array<const std::vector<OpOccurrence>*, 2>& occurrences)
{
    for (size_t side = 0; side < 2; ++side) {
        if (sides[side]->phases.size() > 1 && sides[1 - side]->phases.size() == 1)
            mergeInto(*sides[side], *occurrences[side]);
    }
}

} // namespace fusiondiff
