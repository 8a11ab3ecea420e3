#include "multirankrun.h"

#include "classify/kerneltypes.h"
#include "hoststall.h"
#include "load/traceloader.h"
#include "ops/attribution/profilersteps.h"
#include "ops/comparison/collectives.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_map>

namespace fusiondiff::test {

namespace {

// Host spans that hold `at` grow by `by`; every event from `at` on moves by `by`.
template<typename Event>
void shiftHost(std::vector<Event>& events, double at, double by)
{
    for (Event& event : events) {
        if (event.ts >= at)
            event.ts += by;
        else if (event.ts + event.dur > at)
            event.dur += by;
    }
}

template<typename Event>
void shiftDevice(std::vector<Event>& events, double at, double by)
{
    for (Event& event : events) {
        if (event.ts >= at)
            event.ts += by;
    }
}

// The host from `hostAt` on, and the GPU from `gpuAt` on, move by `by`.
void shiftFrom(TraceStore& store, double hostAt, double gpuAt, double by)
{
    shiftDevice(store.kernels, gpuAt, by);
    shiftDevice(store.gpuCopies, gpuAt, by);
    shiftHost(store.runtimeCalls, hostAt, by);
    shiftHost(store.cpuOps, hostAt, by);
    shiftHost(store.annotations, hostAt, by);
    shiftHost(store.modules, hostAt, by);
    shiftHost(store.pythonFrames, hostAt, by);
}

void shiftFrom(TraceStore& store, double at, double by)
{
    shiftFrom(store, at, at, by);
}

// The step boundaries of a store: each step's begin, and the end of time after the last.
std::vector<double> stepStarts(const TraceStore& store)
{
    std::vector<double> starts;
    for (const StepSpan& step : profilerSteps(store))
        starts.push_back(step.begin);
    if (starts.empty())
        starts.push_back(std::numeric_limits<double>::lowest());
    starts.push_back(std::numeric_limits<double>::max());
    return starts;
}

// The end of the last kernel launched in step `s` (started after its begin, before the next's).
double arrivalOf(const TraceStore& store, size_t s, size_t* lastKernel)
{
    const std::vector<double> starts = stepStarts(store);
    double end = std::numeric_limits<double>::lowest();
    for (size_t k = 0; k < store.kernels.size(); ++k) {
        const KernelEvent& kernel = store.kernels[k];
        if (kernel.ts >= starts[s] && kernel.ts < starts[s + 1] && kernel.ts + kernel.dur > end) {
            end = kernel.ts + kernel.dur;
            *lastKernel = k;
        }
    }
    return end;
}

// The communication kernels that start in step `s`, in time order.
std::vector<size_t> collectivesIn(const TraceStore& store, size_t s)
{
    const std::vector<double> starts = stepStarts(store);
    std::vector<size_t> out;
    for (size_t k = 0; k < store.kernels.size(); ++k) {
        const KernelEvent& kernel = store.kernels[k];
        if (kernel.ts >= starts[s] && kernel.ts < starts[s + 1]
            && !collectiveOf(store.name(kernel.name), store.platform).collective.empty())
            out.push_back(k);
    }
    std::sort(out.begin(), out.end(), [&](size_t a, size_t b) { return store.kernels[a].ts < store.kernels[b].ts; });
    return out;
}

// Whether the spec's straggler is slow in step `step` (0-based).
bool slowIn(const MultiRankSpec& spec, size_t step)
{
    return spec.slowSteps.empty() || (step < spec.slowSteps.size() && spec.slowSteps[step]);
}

void slowKernels(TraceStore& store, const MultiRankSpec& spec, const Classifier& classifier)
{
    const KernelTypes types = classifyKernels(store, classifier);
    const std::vector<double> starts = stepStarts(store);
    std::vector<size_t> slowed;
    for (size_t k = 0; k < store.kernels.size(); ++k) {
        if (classifier.categoryName(types.ofKernel[k]) != spec.kernelType)
            continue;
        const auto step = size_t(std::upper_bound(starts.begin(), starts.end(), store.kernels[k].ts) - starts.begin());
        if (step == 0)
            continue; // before the first step
        if (slowIn(spec, step - 1))
            slowed.push_back(k);
    }
    std::sort(
        slowed.begin(), slowed.end(), [&](size_t a, size_t b) { return store.kernels[a].ts < store.kernels[b].ts; });
    for (const size_t k : slowed) {
        const double extra = store.kernels[k].dur * (spec.factor - 1);
        shiftFrom(store, store.kernels[k].ts + store.kernels[k].dur, extra);
        store.kernels[k].dur += extra;
    }
}

// Every n-th kernel of the type, in the slow steps, runs again right after itself.
void addWork(TraceStore& store, const MultiRankSpec& spec, const Classifier& classifier)
{
    const KernelTypes types = classifyKernels(store, classifier);
    const std::vector<double> starts = stepStarts(store);
    std::vector<KernelEvent> copied;
    size_t seen = 0;
    const auto every = size_t(std::max(1.0, std::round(1 / std::max(spec.factor - 1, 1e-3))));
    std::vector<size_t> order(store.kernels.size());
    for (size_t k = 0; k < order.size(); ++k)
        order[k] = k;
    std::sort(
        order.begin(), order.end(), [&](size_t a, size_t b) { return store.kernels[a].ts < store.kernels[b].ts; });
    for (const size_t k : order) {
        if (classifier.categoryName(types.ofKernel[k]) != spec.kernelType)
            continue;
        const auto step = size_t(std::upper_bound(starts.begin(), starts.end(), store.kernels[k].ts) - starts.begin());
        if (step == 0 || !slowIn(spec, step - 1) || ++seen % every != 0)
            continue;
        copied.push_back(store.kernels[k]);
    }
    // Latest first, so that each copy's start is its original's end once the later ones moved.
    for (auto it = copied.rbegin(); it != copied.rend(); ++it) {
        KernelEvent copy = *it;
        copy.ts = it->ts + it->dur;
        shiftFrom(store, copy.ts, copy.dur);
        const auto at = std::upper_bound(store.kernels.begin(), store.kernels.end(), copy.ts,
            [](double ts, const KernelEvent& kernel) { return ts < kernel.ts; });
        store.kernels.insert(at, copy);
    }
}

double medianStepUs(const TraceStore& store)
{
    std::vector<double> times;
    for (const StepSpan& step : profilerSteps(store))
        times.push_back(step.end - step.begin);
    if (times.empty()) {
        double begin = std::numeric_limits<double>::max();
        double end = std::numeric_limits<double>::lowest();
        for (const KernelEvent& kernel : store.kernels) {
            begin = std::min(begin, kernel.ts);
            end = std::max(end, kernel.ts + kernel.dur);
        }
        return std::max(0.0, end - begin);
    }
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
}

// The host stalls `stallUs` just before it launches the last kernel of each slow step that the
// GPU waited for (it started within 20 us of its launch's end: the queue was empty), so the GPU
// idles that long: the host from that launch on, and the GPU from that kernel on, move.
void lateLaunch(TraceStore& store, const MultiRankSpec& spec, size_t steps, double stallUs)
{
    constexpr double kWaitedUs = 20;
    std::unordered_map<int64_t, const RuntimeEvent*> launches;
    for (const RuntimeEvent& call : store.runtimeCalls) {
        if (call.correlation != kNoId)
            launches.emplace(call.correlation, &call);
    }
    for (size_t s = 0; s < steps; ++s) {
        if (!slowIn(spec, s))
            continue;
        const std::vector<double> starts = stepStarts(store);
        double hostAt = std::numeric_limits<double>::lowest();
        double gpuAt = std::numeric_limits<double>::lowest();
        for (const KernelEvent& kernel : store.kernels) {
            if (kernel.ts < starts[s] || kernel.ts >= starts[s + 1] || kernel.ts <= gpuAt)
                continue;
            const auto launch = launches.find(kernel.correlation);
            if (launch != launches.end() && kernel.ts - (launch->second->ts + launch->second->dur) < kWaitedUs) {
                hostAt = launch->second->ts;
                gpuAt = kernel.ts;
            }
        }
        if (gpuAt == std::numeric_limits<double>::lowest())
            continue;
        shiftFrom(store, hostAt, gpuAt, stallUs);
    }
}

} // namespace

MultiRankRun buildMultiRankRun(const std::string& basePath, const MultiRankSpec& spec, const Classifier& classifier)
{
    MultiRankRun run;
    for (size_t r = 0; r < spec.ranks; ++r)
        run.ranks.push_back(loadTrace(basePath));
    run.steps = stepStarts(run.ranks.front()).size() - 1;
    run.waitUs.assign(spec.ranks, 0.0);
    if (spec.straggler >= 0 && size_t(spec.straggler) < spec.ranks) {
        TraceStore& slow = run.ranks[size_t(spec.straggler)];
        if (spec.cause == StragglerCause::SlowerKernels)
            slowKernels(slow, spec, classifier);
        if (spec.cause == StragglerCause::ExtraWork)
            addWork(slow, spec, classifier);
        if (spec.cause == StragglerCause::LateLaunch)
            lateLaunch(slow, spec, run.steps, spec.stallShareOfStep * medianStepUs(slow));
        if (spec.cause == StragglerCause::HostStall) {
            const HostStall stall = chooseStall(slow, 1, 0, spec.stallShareOfStep);
            run.stalledFunction = stall.function;
            if (!stall.function.empty())
                stallHost(slow, stall);
        }
    }
    const auto addDelay = [&](const std::vector<double>& arrival) {
        std::vector<double> sorted = arrival;
        std::sort(sorted.begin(), sorted.end());
        if (spec.straggler >= 0 && spec.ranks > 1 && arrival[size_t(spec.straggler)] == sorted.back())
            run.stragglerDelayUs += sorted.back() - sorted[sorted.size() - 2];
    };
    for (size_t s = 0; s < run.steps; ++s) {
        for (size_t r = 0; r < spec.ranks && r < spec.rankLateUs.size(); ++r) {
            if (spec.rankLateUs[r] > 0)
                shiftFrom(run.ranks[r], stepStarts(run.ranks[r])[s], spec.rankLateUs[r]);
        }
        // The base trace's own collectives in the step: each rank's n-th waits for every rank's.
        for (size_t n = 0;; ++n) {
            std::vector<double> arrival(spec.ranks);
            std::vector<size_t> call(spec.ranks);
            bool found = true;
            for (size_t r = 0; r < spec.ranks && found; ++r) {
                const std::vector<size_t> calls = collectivesIn(run.ranks[r], s);
                found = n < calls.size();
                if (found) {
                    call[r] = calls[n];
                    arrival[r] = run.ranks[r].kernels[call[r]].ts;
                }
            }
            if (!found)
                break;
            const double lastArrival = *std::max_element(arrival.begin(), arrival.end());
            for (size_t r = 0; r < spec.ranks; ++r) {
                KernelEvent& kernel = run.ranks[r].kernels[call[r]];
                const double wait = lastArrival - arrival[r];
                run.waitUs[r] += wait;
                const double end = kernel.ts + kernel.dur;
                if (r == 0)
                    run.transferUs += kernel.dur;
                shiftFrom(run.ranks[r], end, wait);
                kernel.dur += wait;
            }
            addDelay(arrival);
        }
        std::vector<double> arrival(spec.ranks);
        std::vector<size_t> last(spec.ranks, 0);
        for (size_t r = 0; r < spec.ranks; ++r)
            arrival[r] = arrivalOf(run.ranks[r], s, &last[r]);
        const double lastArrival = *std::max_element(arrival.begin(), arrival.end());
        for (size_t r = 0; r < spec.ranks; ++r) {
            TraceStore& store = run.ranks[r];
            const double jitter = spec.endJitterUs * (double((r * 37 + s * 11) % 7) - 3.0) / 3.0;
            const double end = lastArrival + spec.transferUs + jitter;
            run.waitUs[r] += lastArrival - arrival[r];
            KernelEvent collective = store.kernels[last[r]];
            collective.ts = arrival[r];
            collective.dur = end - arrival[r];
            collective.correlation = kNoId;
            collective.externalId = kNoId;
            collective.name = store.strings.intern(
                "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)");
            shiftFrom(store, arrival[r], end - arrival[r]);
            const auto at = std::upper_bound(store.kernels.begin(), store.kernels.end(), collective.ts,
                [](double ts, const KernelEvent& kernel) { return ts < kernel.ts; });
            store.kernels.insert(at, collective);
        }
        run.transferUs += spec.transferUs;
        run.endUs = lastArrival + spec.transferUs;
        addDelay(arrival);
    }
    for (size_t r = 0; r < spec.ranks; ++r) {
        TraceStore& store = run.ranks[r];
        if (r < spec.clockOffsetsUs.size())
            shiftFrom(store, std::numeric_limits<double>::lowest(), spec.clockOffsetsUs[r]);
        store.distributed.rank = int32_t(r);
        store.distributed.worldSize = int32_t(spec.ranks);
        store.distributed.backend = "nccl";
        store.path = basePath + "#rank" + std::to_string(r);
        store.fileName = "rank" + std::to_string(r) + "." + store.fileName;
    }
    return run;
}

} // namespace fusiondiff::test
