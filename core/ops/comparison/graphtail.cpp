#include "ops/comparison/graphtail.h"

#include "model/graphreport.h"
#include "model/tracestore.h"
#include "ops/comparison/graphlaunches.h"
#include "util/textformat.h"

#include <algorithm>

namespace fusiondiff {

namespace {

// A wait that returns this long after the last recorded kernel is more than the return's own
// latency (a few to a few tens of microseconds after a kernel that was recorded)...
constexpr double kMinTailUs = 100;
// ... and than this share of the launch's recorded GPU time.
constexpr double kMinTailShare = 0.05;

} // namespace

UnrecordedTail unrecordedTail(const TraceStore& store, const GraphLaunch& launch)
{
    UnrecordedTail tail;
    if (!launch.recorded || launch.kernels.empty())
        return tail;
    double end = 0;
    int64_t device = -1;
    for (const uint32_t k : launch.kernels) {
        const KernelEvent& kernel = store.kernels[k];
        if (kernel.ts + kernel.dur >= end) {
            end = kernel.ts + kernel.dur;
            device = kernel.device;
        }
    }
    double returns = end;
    for (const RuntimeEvent& call : store.runtimeCalls) {
        if (call.pid != launch.pid || call.ts > end || call.ts + call.dur <= returns
            || store.name(call.name).find("Synchronize") == std::string_view::npos)
            continue;
        returns = call.ts + call.dur;
        tail.waitCall = call.name;
    }
    const double us = returns - end;
    if (us < std::max(kMinTailUs, kMinTailShare * launch.timeUs))
        return {};
    const auto startsBetween
        = [&](double ts, int64_t onDevice) { return onDevice == device && ts >= end && ts < returns; };
    for (const KernelEvent& kernel : store.kernels) {
        if (kernel.correlation != launch.correlation && startsBetween(kernel.ts, kernel.device))
            return {};
    }
    for (const GpuCopyEvent& copy : store.gpuCopies) {
        if (startsBetween(copy.ts, copy.device))
            return {};
    }
    tail.us = us;
    return tail;
}

std::string unrecordedWork(const GraphCoverage& coverage, const std::string& otherName)
{
    const bool partial = !coverage.parts.empty() && coverage.parts.back().partial;
    if (coverage.unrecordedUs <= 0 || (!partial && coverage.unrecordedParts.empty()))
        return {};
    std::string work = partial
        ? "the rest of " + otherName + "'s launch " + std::to_string(coverage.parts.back().otherLaunch)
        : std::string();
    if (!coverage.unrecordedParts.empty()) {
        work += partial ? " and its " : otherName + "'s ";
        work += (coverage.unrecordedParts.size() == 1 ? "launch " : "launches ")
            + numberRanges(coverage.unrecordedParts);
    }
    return work;
}

std::array<std::vector<NotRecordedSpan>, 2> notRecordedSpans(
    const GraphComparison& graphs, const std::array<const TraceStore*, 2>& stores)
{
    std::array<std::vector<NotRecordedSpan>, 2> spans;
    for (const GraphCoverage& coverage : graphs.coverage) {
        if (coverage.unrecordedUs <= 0)
            continue;
        const size_t s = sideIndex(coverage.coveringSide);
        // From where unrecordedTail measured it: the launch's last recorded kernel's end.
        double begin = -1;
        for (const KernelEvent& kernel : stores[s]->kernels) {
            if (kernel.correlation == coverage.correlation)
                begin = std::max(begin, kernel.ts + kernel.dur);
        }
        if (begin >= 0)
            spans[s].push_back({ begin, begin + coverage.unrecordedUs, coverage.correlation });
    }
    for (std::vector<NotRecordedSpan>& side : spans)
        std::sort(side.begin(), side.end(),
            [](const NotRecordedSpan& a, const NotRecordedSpan& b) { return a.begin < b.begin; });
    return spans;
}

std::string unrecordedWorkLead(const GraphComparison& graphs, const std::array<std::string, 2>& names)
{
    std::string text;
    for (const GraphCoverage& coverage : graphs.coverage) {
        if (coverage.unrecordedUs <= 0)
            continue;
        const size_t s = sideIndex(coverage.coveringSide);
        const std::string work = unrecordedWork(coverage, names[1 - s]);
        text += names[s] + "'s trace holds only part of its GPU work: its graph launch "
            + std::to_string(coverage.launch) + " ran " + formatDuration(coverage.unrecordedUs)
            + " past its last recorded kernel (until " + coverage.waitCall + " returned)"
            + (work.empty() ? "" : ", the time for " + work) + ". ";
    }
    if (text.empty())
        return text;
    // The step ends when the GPU is done, and the launch's unrecorded kernels ran at most that long.
    return text
        + "The times below count it as \"not recorded\" GPU time (in the GPU kernel time too, an upper bound "
          "for the kernels that ran in it). ";
}

} // namespace fusiondiff
