#include "hoststall.h"

#include "model/tracestore.h"
#include "util/idmap.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <queue>
#include <random>
#include <set>
#include <vector>

namespace fusiondiff::test {

namespace {

constexpr std::string_view kStepPrefix = "ProfilerStep#";
constexpr double kLatencyCapUs = 10.0;

struct StallPoint
{
    double at; // the call's start
    double callEnd;
};

// The thread whose runtime calls launch most GPU work.
ThreadId mainLaunchingThread(const TraceStore& store)
{
    std::map<ThreadId, uint64_t> launches;
    for (const RuntimeEvent& call : store.runtimeCalls) {
        if (call.correlation != kNoId)
            ++launches[{ call.pid, call.tid }];
    }
    ThreadId best;
    uint64_t most = 0;
    for (const auto& [thread, count] : launches) {
        if (count > most) {
            best = thread;
            most = count;
        }
    }
    return best;
}

// The steps as the comparison finds them, roughly: profiler steps, else one step.
std::vector<std::pair<double, double>> stepsOf(const TraceStore& store)
{
    std::vector<std::pair<double, double>> steps;
    for (const AnnotationEvent& annotation : store.annotations) {
        if (!annotation.onGpu && store.name(annotation.name).starts_with(kStepPrefix))
            steps.emplace_back(annotation.ts, annotation.ts + annotation.dur);
    }
    std::sort(steps.begin(), steps.end());
    if (steps.size() >= 3)
        steps.erase(steps.begin()); // the warm-up step, which the comparison leaves out
    return steps;
}

} // namespace

HostStall chooseStall(const TraceStore& store, uint64_t seed, size_t rank, double shareOfStep)
{
    const ThreadId thread = mainLaunchingThread(store);
    std::vector<std::pair<double, double>> steps = stepsOf(store);
    if (steps.empty()) {
        double begin = 0, end = 0;
        for (const RuntimeEvent& call : store.runtimeCalls) {
            if (begin == end)
                begin = end = call.ts;
            begin = std::min(begin, call.ts);
            end = std::max(end, call.ts + call.dur);
        }
        steps.emplace_back(begin, end);
    }
    std::vector<double> lengths;
    lengths.reserve(steps.size());
    for (const auto& [begin, end] : steps)
        lengths.push_back(end - begin);
    std::sort(lengths.begin(), lengths.end());
    const double medianStep = lengths[lengths.size() / 2];
    const auto inSteps = [&](double ts) {
        return std::any_of(
            steps.begin(), steps.end(), [ts](const auto& step) { return ts >= step.first && ts <= step.second; });
    };

    // The thread's runtime calls: a function whose call starts inside one (the profiler's clocks
    // can nest a Python frame in a runtime call) is not stalled, since the stall would stretch the call.
    std::vector<std::pair<double, double>> runtimeCalls;
    for (const RuntimeEvent& call : store.runtimeCalls) {
        if (call.pid == thread.pid && call.tid == thread.tid)
            runtimeCalls.emplace_back(call.ts, call.ts + call.dur);
    }
    std::sort(runtimeCalls.begin(), runtimeCalls.end());
    const auto insideCall = [&](double ts) {
        const auto after = std::upper_bound(
            runtimeCalls.begin(), runtimeCalls.end(), std::pair { ts, std::numeric_limits<double>::infinity() });
        return after != runtimeCalls.begin() && ts < std::prev(after)->second;
    };
    std::set<std::pair<std::string, bool>> excluded;
    // Calls per name inside the steps, on the launching thread.
    std::map<std::pair<std::string, bool>, uint64_t> calls;
    const auto python = std::find(store.pythonThreads.begin(), store.pythonThreads.end(), thread);
    if (python != store.pythonThreads.end()) {
        const auto index = uint32_t(python - store.pythonThreads.begin());
        for (const PythonFrameEvent& frame : store.pythonFrames) {
            if (frame.thread == index && inSteps(frame.ts)) {
                ++calls[{ std::string(store.name(frame.name)), false }];
                if (insideCall(frame.ts))
                    excluded.insert({ std::string(store.name(frame.name)), false });
            }
        }
    } else {
        for (const CpuOpEvent& op : store.cpuOps) {
            if (op.pid == thread.pid && op.tid == thread.tid && inSteps(op.ts)) {
                ++calls[{ std::string(store.name(op.name)), true }];
                if (insideCall(op.ts))
                    excluded.insert({ std::string(store.name(op.name)), true });
            }
        }
    }
    std::vector<HostStall> candidates;
    for (const auto& [key, count] : calls) {
        const double perStep = double(count) / double(steps.size());
        if (perStep >= 1 && perStep <= 8 && !excluded.contains(key))
            candidates.push_back({ key.first, key.second, std::max(20.0, shareOfStep * medianStep / perStep), count });
    }
    if (rank >= candidates.size())
        return {};
    std::mt19937_64 random(seed);
    std::shuffle(candidates.begin(), candidates.end(), random);
    return candidates[rank];
}

uint64_t stallHost(TraceStore& store, const HostStall& stall)
{
    // The function's calls on the main launching thread: only that thread stalls.
    const ThreadId thread = mainLaunchingThread(store);
    const auto python = std::find(store.pythonThreads.begin(), store.pythonThreads.end(), thread);
    const uint32_t pythonThread = uint32_t(python - store.pythonThreads.begin());
    const auto onThread = [&thread](int64_t pid, int64_t tid) { return pid == thread.pid && tid == thread.tid; };
    std::vector<StallPoint> points;
    for (const PythonFrameEvent& frame : store.pythonFrames) {
        if (!stall.isOperator && frame.thread == pythonThread && store.name(frame.name) == stall.function)
            points.push_back({ frame.ts, frame.ts + frame.dur });
    }
    for (const CpuOpEvent& op : store.cpuOps) {
        if (stall.isOperator && onThread(op.pid, op.tid) && store.name(op.name) == stall.function)
            points.push_back({ op.ts, op.ts + op.dur });
    }
    std::sort(points.begin(), points.end(), [](const StallPoint& a, const StallPoint& b) { return a.at < b.at; });
    const double d = stall.stallUs;
    // The stalls before a moment; at a call's own start, only what runs inside the call comes after.
    const auto shiftOfStart = [&](double ts, double end) {
        auto first = std::lower_bound(
            points.begin(), points.end(), ts, [](const StallPoint& p, double t) { return p.at < t; });
        double shift = d * double(first - points.begin());
        for (; first != points.end() && first->at == ts; ++first) {
            if (end < first->callEnd)
                shift += d; // a callee that starts with the call
        }
        return shift;
    };
    const auto shiftOfEnd = [&](double end) {
        const auto first = std::lower_bound(
            points.begin(), points.end(), end, [](const StallPoint& p, double t) { return p.at < t; });
        return d * double(first - points.begin());
    };
    const auto move = [&](double& ts, double& dur) {
        const double end = ts + dur;
        const double start = ts + shiftOfStart(ts, end);
        ts = start;
        dur = std::max(0.0, end + shiftOfEnd(end) - start);
    };

    // The GPU work before the host moves: each piece's launch-to-start time.
    IdMap launchOf(store.runtimeCalls.size());
    for (uint32_t i = 0; i < store.runtimeCalls.size(); ++i) {
        if (store.runtimeCalls[i].correlation != kNoId)
            launchOf.findOrInsert(store.runtimeCalls[i].correlation, i);
    }
    struct Work
    {
        double* ts;
        double dur;
        int64_t stream;
        int64_t device;
        uint32_t launch;
        double launchToStart;
    };
    std::vector<Work> work;
    const auto addWork = [&](double& ts, double dur, int64_t correlation, int64_t device, int64_t stream) {
        const uint32_t launch = correlation == kNoId ? IdMap::kMissing : launchOf.find(correlation);
        const double launchToStart = launch == IdMap::kMissing ? 0 : ts - store.runtimeCalls[launch].ts;
        work.push_back({ &ts, dur, stream, device, launch, launchToStart });
    };
    for (KernelEvent& kernel : store.kernels)
        addWork(kernel.ts, kernel.dur, kernel.correlation, kernel.device, kernel.stream);
    for (GpuCopyEvent& copy : store.gpuCopies)
        addWork(copy.ts, copy.dur, copy.correlation, copy.device, copy.stream);
    std::vector<double> latencies;
    for (const Work& w : work) {
        if (w.launch != IdMap::kMissing && w.launchToStart > 0)
            latencies.push_back(w.launchToStart);
    }
    std::sort(latencies.begin(), latencies.end());
    // Launch-to-start times also hold the time work waited in the queue (and any offset between
    // the host's and the device's clocks): the latency is their 10th percentile, at most 10 us.
    const double latency = std::min(kLatencyCapUs, latencies.empty() ? 0 : latencies[latencies.size() / 10]);

    // The stalled thread moves.
    for (RuntimeEvent& call : store.runtimeCalls) {
        if (onThread(call.pid, call.tid))
            move(call.ts, call.dur);
    }
    for (CpuOpEvent& op : store.cpuOps) {
        if (onThread(op.pid, op.tid))
            move(op.ts, op.dur);
    }
    for (ModuleEvent& module : store.modules) {
        if (onThread(module.pid, module.tid))
            move(module.ts, module.dur);
    }
    for (PythonFrameEvent& frame : store.pythonFrames) {
        if (frame.thread == pythonThread)
            move(frame.ts, frame.dur);
    }
    for (AnnotationEvent& annotation : store.annotations) {
        if (!annotation.onGpu && onThread(annotation.pid, annotation.tid))
            move(annotation.ts, annotation.dur);
    }

    // Then the GPU, in time order. A piece of work was ready at the latest of: the end of the work
    // before it on its stream, the last end of any work on its device before it started (what it
    // may have waited for on another stream), and its launch plus the launch latency. In B it is
    // ready when those are, moved, and waits beyond that what it waited in A (the GPU's own gaps).
    std::sort(work.begin(), work.end(), [](const Work& a, const Work& b) { return *a.ts < *b.ts; });
    struct End
    {
        double original;
        double moved;
        bool operator>(const End& other) const { return original > other.original; }
    };
    std::map<std::pair<int64_t, int64_t>, End> streamEnd;
    struct Device
    {
        std::priority_queue<End, std::vector<End>, std::greater<End>> running;
        std::optional<End> lastFinished;
    };
    std::map<int64_t, Device> devices;
    for (Work& w : work) {
        const double start = *w.ts;
        Device& device = devices[w.device];
        while (!device.running.empty() && device.running.top().original <= start) {
            if (!device.lastFinished || device.running.top().original >= device.lastFinished->original)
                device.lastFinished = device.running.top();
            device.running.pop();
        }
        double ready = -std::numeric_limits<double>::infinity();
        double readyMoved = ready;
        const auto after = [&](const End& end) {
            ready = std::max(ready, end.original);
            readyMoved = std::max(readyMoved, end.moved);
        };
        if (device.lastFinished)
            after(*device.lastFinished);
        const auto previous = streamEnd.find({ w.device, w.stream });
        if (previous != streamEnd.end())
            after(previous->second);
        if (w.launch != IdMap::kMissing) {
            const double launchLatency = std::max(0.0, std::min(w.launchToStart, latency));
            after({ start - w.launchToStart + launchLatency, store.runtimeCalls[w.launch].ts + launchLatency });
        }
        const double moved = std::isfinite(ready) ? readyMoved + std::max(0.0, start - ready) : start;
        const End end { start + w.dur, moved + w.dur };
        if (previous == streamEnd.end() || end.original >= previous->second.original)
            streamEnd[{ w.device, w.stream }] = end;
        device.running.push(end);
        *w.ts = moved;
    }
    return points.size();
}

} // namespace fusiondiff::test

#include "model/fusionreport.h"

namespace fusiondiff::test {

StallScore scoreStall(const FusionReport& report, const HostStall& stall)
{
    StallScore score;
    const TimeGap& gap = report.timeGap;
    score.onStepTime = gap.onStepTime;
    score.headlineDeltaUs = -gap.headline().deltaUs;
    if (gap.stepTime)
        score.stepGapUs = gap.stepTime->timeUs[1] - gap.stepTime->timeUs[0];
    for (const StepTimeRow& row : report.stepTime.rows) {
        if (report.stepTime.rows.size() > 1 && row.phase != "all steps")
            continue;
        for (size_t cause = 0; cause < kIdleCauses; ++cause)
            score.idleCausedUs += row.idleByCauseUs[1][cause] * double(row.steps[1])
                - row.idleByCauseUs[0][cause] * double(row.steps[0]);
    }
    if (!report.whereToLookFirst.empty()) {
        const LookFirstEntry& first = report.whereToLookFirst.front();
        score.firstKind = lookFirstKindKey(first.kind);
        score.firstOp = first.op;
        score.firstStakeUs = first.stakeUs;
        score.firstIsStall
            = first.kind == LookFirstKind::Host && first.op == stall.function && first.slowerSide == Side::Trace2;
    }
    return score;
}

} // namespace fusiondiff::test
