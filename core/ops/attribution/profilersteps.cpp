#include "ops/attribution/profilersteps.h"

#include "model/tracestore.h"

#include <algorithm>
#include <string_view>

namespace fusiondiff {

namespace {

constexpr std::string_view kStepPrefix = "ProfilerStep#";

} // namespace

std::vector<StepSpan> profilerSteps(const TraceStore& store)
{
    std::vector<StepSpan> steps;
    for (const AnnotationEvent& annotation : store.annotations) {
        if (!annotation.onGpu && store.name(annotation.name).starts_with(kStepPrefix))
            steps.push_back({ annotation.ts, annotation.ts + annotation.dur });
    }
    for (const CpuOpEvent& op : store.cpuOps) {
        if (store.name(op.name).starts_with(kStepPrefix))
            steps.push_back({ op.ts, op.ts + op.dur });
    }
    std::sort(steps.begin(), steps.end(), [](const StepSpan& a, const StepSpan& b) { return a.begin < b.begin; });
    return steps;
}

int32_t stepAt(std::span<const StepSpan> steps, double ts)
{
    const auto after = std::upper_bound(
        steps.begin(), steps.end(), ts, [](double t, const StepSpan& step) { return t < step.begin; });
    if (after == steps.begin() || ts > std::prev(after)->end)
        return -1;
    return int32_t(std::prev(after) - steps.begin());
}

} // namespace fusiondiff
