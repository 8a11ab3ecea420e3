#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace fusiondiff {

struct TraceStore;

// A span of host time that is one step of the run.
struct StepSpan
{
    double begin = 0;
    double end = 0;
    int64_t number = -1; // N of ProfilerStep#N; -1 for a step found otherwise or without a number
};

// The profiler's steps, in time order: the `ProfilerStep#N` spans on the CPU, recorded as user
// annotations or, in the 2021 schema, as operators. Every view that counts steps (the operation
// comparison's iterations, the graph launches' steps, the step time through the iterations) reads
// them here, so that they all find the same steps.
std::vector<StepSpan> profilerSteps(const TraceStore& store);

// The step that holds host time `ts` (its index in `steps`, which are in time order), -1 if none.
int32_t stepAt(std::span<const StepSpan> steps, double ts);

} // namespace fusiondiff
