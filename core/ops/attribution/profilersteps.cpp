#include "ops/attribution/profilersteps.h"

#include "model/tracestore.h"

#include <algorithm>
#include <charconv>
#include <string_view>

namespace fusiondiff {

namespace {

constexpr std::string_view kStepPrefix = "ProfilerStep#";

// N of "ProfilerStep#N"; -1 when what follows the prefix is not a number.
int64_t stepNumber(std::string_view name)
{
    const std::string_view digits = name.substr(kStepPrefix.size());
    int64_t number = -1;
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), number);
    return error == std::errc() && end == digits.data() + digits.size() && number >= 0 ? number : -1;
}

} // namespace

std::vector<StepSpan> profilerSteps(const TraceStore& store)
{
    std::vector<StepSpan> steps;
    for (const AnnotationEvent& annotation : store.annotations) {
        const std::string_view name = store.name(annotation.name);
        if (!annotation.onGpu && name.starts_with(kStepPrefix))
            steps.push_back({ annotation.ts, annotation.ts + annotation.dur, stepNumber(name) });
    }
    for (const CpuOpEvent& op : store.cpuOps) {
        const std::string_view name = store.name(op.name);
        if (name.starts_with(kStepPrefix))
            steps.push_back({ op.ts, op.ts + op.dur, stepNumber(name) });
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
