#pragma once

#include "model/opreport.h"
#include "ops/attribution/opoccurrences.h"

#include <span>
#include <vector>

namespace fusiondiff {

struct TraceStore;

// One step as the host ran it: from its start to its end on the CPU.
struct HostStep
{
    double begin = 0;
    double end = 0;
    int32_t phase = -1; // into TraceIterations::phases; -1: not compared (the warm-up, no operation)
};

// The steps and phases of one trace, for comparing like with like.
struct TraceIterations
{
    Iterations info;
    // The profiler steps or repeated Python calls, in time order; empty when none were found.
    std::vector<HostStep> steps;
    // Per phase (kind of step), the indices of the occurrences to compare, in order. One phase
    // holding every occurrence when the trace has no profiler steps.
    std::vector<std::vector<uint32_t>> phases;
    std::vector<uint64_t> phaseSignatures; // a phase's distinct operations, hashed
};

// Finds the profiler steps (ops/attribution/profilersteps.h) and assigns each occurrence its step;
// leaves out the first step as warm-up when there are three or more. Without them, the calls of a
// Python function that repeats and holds the operations are the steps (vLLM's execute_model),
// none left out; sorts steps into phases by the
// set of operations they run (a prefill step and a decode step differ). Without steps, looks for a
// cycle that repeats through the whole sequence (the layers of a model) to describe it.
TraceIterations findIterations(const TraceStore& store, std::vector<OpOccurrence>& occurrences);

// Which phase of `b` compares with each phase of `a` (-1: none): the one with the same
// operations, else the one in the same position, else none.
std::vector<int64_t> pairPhases(const TraceIterations& a, const TraceIterations& b);

// pairPhases on the phases' signatures alone (a rank summary's hashed ones, runs/jobsteps.cpp):
// each of `a`'s pairs with an equal one of `b`'s not yet taken, else with the free one in its
// position, else with none (-1).
template<typename Signature>
std::vector<int64_t> pairPhaseSignatures(const std::vector<Signature>& a, const std::vector<Signature>& b)
{
    std::vector<int64_t> partner(a.size(), -1);
    std::vector<bool> taken(b.size(), false);
    for (size_t i = 0; i < a.size(); ++i) {
        for (size_t j = 0; j < b.size(); ++j) {
            if (!taken[j] && a[i] == b[j]) {
                partner[i] = int64_t(j);
                taken[j] = true;
                break;
            }
        }
    }
    for (size_t i = 0; i < a.size(); ++i) {
        if (partner[i] < 0 && i < b.size() && !taken[i]) {
            partner[i] = int64_t(i);
            taken[i] = true;
        }
    }
    return partner;
}

// The most likely cycle length of a sequence (0 if none): the spacing of the rarest operation that
// repeats at least three times, if the sequence mostly repeats with it.
uint64_t repeatingCycle(std::span<const uint32_t> symbols, uint64_t& repeats);

} // namespace fusiondiff
