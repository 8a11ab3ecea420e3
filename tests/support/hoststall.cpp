#include "hoststall.h"

#include "model/tracestore.h"
#include "ops/timegap/hosttimeline.h"
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
#include <unordered_set>
#include <vector>

namespace fusiondiff::test {

namespace {

constexpr std::string_view kStepPrefix = "ProfilerStep#";
constexpr double kLatencyCapUs = 10.0;
// An enqueueing call this much longer than its name's median (and at least this long) waited for the GPU.
constexpr double kQueueWaitFactor = 4.0;
constexpr double kQueueWaitUs = 50.0;

// Where a host event nests among those that start and end with it, as the host timeline takes
// them (ops/timegap/hosttimeline.cpp): a region outside a module call, that outside a Python
// frame, that outside an operator, that outside a runtime call; two of one kind in the trace's
// order, the later inside (index: into the kind's events; -1 where that order is not known).
struct Nesting
{
    int rank;
    int64_t index = -1;
    bool inside(const Nesting& outer) const
    {
        return rank > outer.rank || (rank == outer.rank && outer.index >= 0 && index > outer.index);
    }
};
constexpr int kRegionRank = 0;
constexpr int kModuleRank = 1;
constexpr int kPythonRank = 2;
constexpr int kOperatorRank = 3;
constexpr int kRuntimeRank = 4;

struct StallPoint
{
    double at; // the call's start
    double callEnd;
    Nesting nesting;
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

// The launching threads, those that launch the most GPU work first.
std::vector<ThreadId> launchingThreads(const TraceStore& store)
{
    std::map<ThreadId, uint64_t> launches;
    for (const RuntimeEvent& call : store.runtimeCalls) {
        if (call.correlation != kNoId)
            ++launches[{ call.pid, call.tid }];
    }
    std::vector<std::pair<uint64_t, ThreadId>> byCount;
    for (const auto& [thread, count] : launches)
        byCount.emplace_back(count, thread);
    std::stable_sort(byCount.begin(), byCount.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    std::vector<ThreadId> threads;
    for (const auto& [count, thread] : byCount)
        threads.push_back(thread);
    return threads;
}

constexpr std::string_view kModuleName = "nn.Module: ";
constexpr std::string_view kBackwardNode = "autograd::engine::evaluate_function";

// A call of a candidate: its name, where it runs, and whether it is one `site` stalls.
struct Call
{
    std::string name;
    bool isOperator;
    double ts;
    double end;
    Nesting nesting { kPythonRank };
};

// The calls on `thread` that `site` can stall, in no particular order.
std::vector<Call> callsAt(const TraceStore& store, const ThreadId& thread, StallSite site)
{
    std::vector<Call> calls;
    const auto onThread = [&thread](int64_t pid, int64_t tid) { return pid == thread.pid && tid == thread.tid; };
    const auto python = std::find(store.pythonThreads.begin(), store.pythonThreads.end(), thread);
    switch (site) {
    case StallSite::Function:
        if (python != store.pythonThreads.end()) {
            const auto index = uint32_t(python - store.pythonThreads.begin());
            for (const PythonFrameEvent& frame : store.pythonFrames) {
                if (frame.thread == index)
                    calls.push_back({ std::string(store.name(frame.name)), false, frame.ts, frame.ts + frame.dur,
                        { kPythonRank } });
            }
            return calls;
        }
        [[fallthrough]];
    case StallSite::Operator:
    case StallSite::OtherThread:
        for (const CpuOpEvent& op : store.cpuOps) {
            if (onThread(op.pid, op.tid))
                calls.push_back({ std::string(store.name(op.name)), true, op.ts, op.ts + op.dur,
                    { kOperatorRank, &op - store.cpuOps.data() } });
        }
        return calls;
    case StallSite::Backward: {
        // The operators inside a backward node on the thread (not the nodes themselves).
        std::vector<std::pair<double, double>> nodes;
        for (const CpuOpEvent& op : store.cpuOps) {
            if (onThread(op.pid, op.tid) && store.name(op.name).starts_with(kBackwardNode))
                nodes.emplace_back(op.ts, op.ts + op.dur);
        }
        std::sort(nodes.begin(), nodes.end());
        for (const CpuOpEvent& op : store.cpuOps) {
            if (!onThread(op.pid, op.tid) || store.name(op.name).starts_with(kBackwardNode))
                continue;
            const auto after = std::upper_bound(
                nodes.begin(), nodes.end(), std::pair { op.ts, std::numeric_limits<double>::infinity() });
            const bool inNode = after != nodes.begin() && op.ts + op.dur <= std::prev(after)->second;
            calls.push_back({ std::string(store.name(op.name)) + (inNode ? "" : "\n"), true, op.ts, op.ts + op.dur,
                { kOperatorRank, &op - store.cpuOps.data() } });
        }
        return calls;
    }
    case StallSite::Region:
        for (const AnnotationEvent& annotation : store.annotations) {
            if (!annotation.onGpu && onThread(annotation.pid, annotation.tid)
                && !store.name(annotation.name).starts_with(kStepPrefix))
                calls.push_back({ std::string(store.name(annotation.name)), false, annotation.ts,
                    annotation.ts + annotation.dur, { kRegionRank, &annotation - store.annotations.data() } });
        }
        return calls;
    case StallSite::Module:
        for (const ModuleEvent& module : store.modules) {
            if (onThread(module.pid, module.tid))
                calls.push_back({ std::string(kModuleName) + std::string(store.name(module.name)), false, module.ts,
                    module.ts + module.dur, { kModuleRank, &module - store.modules.data() } });
        }
        return calls;
    case StallSite::StepTail:
        for (const AnnotationEvent& annotation : store.annotations) {
            if (!annotation.onGpu && onThread(annotation.pid, annotation.tid)
                && store.name(annotation.name).starts_with(kStepPrefix)) {
                // Just before the step's end, so that the step's host part runs longer.
                const double end = annotation.ts + annotation.dur;
                calls.push_back({ std::string(kStepPrefix), false, end - std::min(0.001, annotation.dur / 2), end,
                    { kRegionRank } });
            }
        }
        return calls;
    }
    return calls;
}

} // namespace

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

const char* stallSiteName(StallSite site)
{
    switch (site) {
    case StallSite::Function:
        return "function";
    case StallSite::Operator:
        return "operator";
    case StallSite::Region:
        return "region";
    case StallSite::Module:
        return "module";
    case StallSite::StepTail:
        return "tail";
    case StallSite::OtherThread:
        return "thread2";
    case StallSite::Backward:
        return "backward";
    }
    return "";
}

bool stallSiteOfName(std::string_view name, StallSite& site)
{
    for (const StallSite candidate : { StallSite::Function, StallSite::Operator, StallSite::Region, StallSite::Module,
             StallSite::StepTail, StallSite::OtherThread, StallSite::Backward }) {
        if (name == stallSiteName(candidate)) {
            site = candidate;
            return true;
        }
    }
    return false;
}

HostStall chooseStall(const TraceStore& store, uint64_t seed, size_t rank, double shareOfStep, StallSite site)
{
    const std::vector<ThreadId> threads = launchingThreads(store);
    const size_t threadRank = site == StallSite::OtherThread ? 1 : 0;
    if (threads.size() <= threadRank)
        return {};
    ThreadId thread = threads[threadRank];
    std::vector<std::pair<double, double>> steps = stepsOf(store);
    if (steps.empty()) {
        if (site == StallSite::StepTail)
            return {};
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

    std::vector<Call> calls;
    if (site == StallSite::Backward) {
        // The thread that runs the most operators inside backward nodes.
        size_t most = 0;
        for (const ThreadId& candidate : threads) {
            std::vector<Call> at = callsAt(store, candidate, site);
            const size_t inNodes = size_t(
                std::count_if(at.begin(), at.end(), [](const Call& call) { return !call.name.ends_with('\n'); }));
            if (inNodes > most) {
                most = inNodes;
                thread = candidate;
                calls = std::move(at);
            }
        }
    } else {
        calls = callsAt(store, thread, site);
    }
    if (site == StallSite::StepTail) {
        uint64_t tails = 0;
        for (const Call& call : calls)
            tails += std::any_of(steps.begin(), steps.end(),
                [&call](const auto& step) { return call.end >= step.first && call.end <= step.second; });
        if (tails == 0 || rank > 0)
            return {};
        return { calls.front().name, false, shareOfStep * medianStep, tails, site, thread };
    }

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
    // Calls per name inside the steps.
    std::map<std::pair<std::string, bool>, uint64_t> perName;
    for (const Call& call : calls) {
        if (!inSteps(call.ts))
            continue;
        ++perName[{ call.name, call.isOperator }];
        if (insideCall(call.ts))
            excluded.insert({ call.name, call.isOperator });
    }
    // A backward operator is stalled where all its calls on the thread are inside backward nodes.
    if (site == StallSite::Backward) {
        for (const auto& [key, count] : perName) {
            if (key.first.ends_with('\n')) {
                excluded.insert(key);
                excluded.insert({ key.first.substr(0, key.first.size() - 1), key.second });
            }
        }
    }
    std::vector<HostStall> candidates;
    for (const auto& [key, count] : perName) {
        const double perStep = double(count) / double(steps.size());
        if (perStep >= 1 && perStep <= 8 && !excluded.contains(key))
            candidates.push_back(
                { key.first, key.second, std::max(20.0, shareOfStep * medianStep / perStep), count, site, thread });
    }
    if (rank >= candidates.size())
        return {};
    std::mt19937_64 random(seed);
    std::shuffle(candidates.begin(), candidates.end(), random);
    return candidates[rank];
}

uint64_t stallHost(TraceStore& store, const HostStall& stall)
{
    // The function's calls on the stalled thread: only that thread stalls.
    const ThreadId thread
        = stall.thread.pid == -1 && stall.thread.tid == -1 ? mainLaunchingThread(store) : stall.thread;
    const auto onThread = [&thread](int64_t pid, int64_t tid) { return pid == thread.pid && tid == thread.tid; };
    std::vector<StallPoint> points;
    for (const Call& call : callsAt(store, thread, stall.site)) {
        if (call.name == stall.function && call.isOperator == stall.isOperator)
            points.push_back({ call.ts, call.end, call.nesting });
    }
    std::sort(points.begin(), points.end(), [](const StallPoint& a, const StallPoint& b) { return a.at < b.at; });
    if (stall.everyOtherStep) {
        const std::vector<std::pair<double, double>> steps = stepsOf(store);
        size_t index = 0;
        std::erase_if(points, [&](const StallPoint& point) {
            if (steps.size() < 2)
                return index++ % 2 == 0;
            const auto after = std::upper_bound(
                steps.begin(), steps.end(), std::pair { point.at, std::numeric_limits<double>::infinity() });
            if (after == steps.begin())
                return true;
            const size_t step = size_t(after - steps.begin()) - 1;
            return point.at > steps[step].second || step % 2 == 0;
        });
    }
    const double d = stall.stallUs;

    // How much later the host runs at a moment: d per stall before it, less what the blocking
    // calls that ended by then absorbed (`absorbed`, filled in time order below).
    std::vector<std::pair<double, double>> absorbed; // (a call's end, all the shift taken away by then), by end
    const auto absorbedBy = [&](double t) {
        const auto after = std::upper_bound(absorbed.begin(), absorbed.end(), t,
            [](double ts, const std::pair<double, double>& call) { return ts < call.first; });
        return after == absorbed.begin() ? 0.0 : std::prev(after)->second;
    };
    // The stalls before a moment; at a call's own start, only what runs inside the call comes after:
    // a callee that starts with the call, and one that spans it to the trace's rounding and that
    // the host timeline nests inside it (Nesting: a runtime call, an operator after it in the
    // trace, a region's same-span region after it, its module call or Python frame).
    const auto shiftOfStart = [&](double ts, double end, const Nesting& nesting) {
        auto first = std::lower_bound(
            points.begin(), points.end(), ts, [](const StallPoint& p, double t) { return p.at < t; });
        double shift = d * double(first - points.begin());
        for (; first != points.end() && first->at == ts; ++first) {
            const bool spansIt = end == first->callEnd && nesting.inside(first->nesting);
            if (end < first->callEnd || spansIt)
                shift += d; // a callee that starts with the call
        }
        return shift - absorbedBy(ts);
    };
    const auto shiftOfEnd = [&](double end) {
        const auto first = std::lower_bound(
            points.begin(), points.end(), end, [](const StallPoint& p, double t) { return p.at < t; });
        return d * double(first - points.begin()) - absorbedBy(end);
    };

    // The GPU work: each piece's launch-to-start time.
    IdMap launchOf(store.runtimeCalls.size());
    for (uint32_t i = 0; i < store.runtimeCalls.size(); ++i) {
        if (store.runtimeCalls[i].correlation != kNoId)
            launchOf.findOrInsert(store.runtimeCalls[i].correlation, i);
    }
    struct Work
    {
        double* ts;
        double start; // in A
        double dur;
        int64_t stream;
        int64_t device;
        uint32_t launch;
        double launchToStart;
        double movedEnd = 0;
    };
    std::vector<Work> work;
    const auto addWork = [&](double& ts, double dur, int64_t correlation, int64_t device, int64_t stream) {
        const uint32_t launch = correlation == kNoId ? IdMap::kMissing : launchOf.find(correlation);
        const double launchToStart = launch == IdMap::kMissing ? 0 : ts - store.runtimeCalls[launch].ts;
        work.push_back({ &ts, ts, dur, stream, device, launch, launchToStart });
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

    // The stalled thread's blocking calls, by their end: synchronizations and blocking copies, and
    // the copies whose transfer ended before the call returned (a cudaMemcpyAsync to pageable
    // memory waits for it). Each waited for the GPU work that ended last while it ran, and in B
    // returns as long after that work's new end as it did in A (but not before its new start plus
    // that tail). Where the GPU absorbed the stall, the host so gets its time back.
    struct Blocking
    {
        double begin;
        double end;
    };
    IdMap copyOf(store.gpuCopies.size());
    for (uint32_t i = 0; i < store.gpuCopies.size(); ++i) {
        if (store.gpuCopies[i].correlation != kNoId)
            copyOf.findOrInsert(store.gpuCopies[i].correlation, i);
    }
    // A call that enqueues GPU work (a launch, an async copy) and takes far longer than its name
    // takes as a rule waited for room in the GPU's queue: it too waited for the GPU.
    IdMap enqueued(store.kernels.size() + store.gpuCopies.size());
    for (const KernelEvent& kernel : store.kernels) {
        if (kernel.correlation != kNoId)
            enqueued.findOrInsert(kernel.correlation, 0);
    }
    for (const GpuCopyEvent& copy : store.gpuCopies) {
        if (copy.correlation != kNoId)
            enqueued.findOrInsert(copy.correlation, 0);
    }
    const auto enqueues = [&](const RuntimeEvent& call) {
        return call.correlation != kNoId && enqueued.find(call.correlation) != IdMap::kMissing;
    };
    std::map<StringId, std::vector<double>> enqueueTimes;
    for (const RuntimeEvent& call : store.runtimeCalls) {
        if (onThread(call.pid, call.tid) && enqueues(call))
            enqueueTimes[call.name].push_back(call.dur);
    }
    std::map<StringId, double> usualEnqueue;
    for (auto& [name, times] : enqueueTimes) {
        std::nth_element(times.begin(), times.begin() + std::ptrdiff_t(times.size() / 2), times.end());
        usualEnqueue[name] = times[times.size() / 2];
    }
    std::vector<Blocking> blocking;
    for (const RuntimeEvent& call : store.runtimeCalls) {
        if (!onThread(call.pid, call.tid))
            continue;
        const uint32_t copy = call.correlation == kNoId ? IdMap::kMissing : copyOf.find(call.correlation);
        const bool waitedForItsCopy
            = copy != IdMap::kMissing && store.gpuCopies[copy].ts + store.gpuCopies[copy].dur <= call.ts + call.dur;
        const auto usual = usualEnqueue.find(call.name);
        const bool waitedForRoom = enqueues(call) && usual != usualEnqueue.end()
            && call.dur > std::max(kQueueWaitUs, kQueueWaitFactor * usual->second);
        if (waitedForItsCopy || waitedForRoom || isBlockingCall(store.name(call.name)))
            blocking.push_back({ call.ts, call.ts + call.dur });
    }
    std::sort(blocking.begin(), blocking.end(), [](const Blocking& a, const Blocking& b) { return a.end < b.end; });

    // The GPU in time order, with the blocking calls' ends in between. A piece of work was ready at
    // the latest of the end of the work before it on its stream and its launch plus the launch
    // latency; in B it is ready when those are, moved. Where it started later than that in A it
    // waited for something else: for the work on its device that ended just before it started
    // (another stream's, through an event), and in B it waits for that work's new end; else for
    // something outside the trace, which does not move.
    std::sort(work.begin(), work.end(), [](const Work& a, const Work& b) { return a.start < b.start; });
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
    // The work that ended last so far, by its end in A: what a blocking call ending later waited for.
    std::vector<End> ends; // kept sorted by original end
    size_t nextBlocking = 0;
    const auto endBlockingCallsBefore = [&](double t) {
        for (; nextBlocking < blocking.size() && blocking[nextBlocking].end <= t; ++nextBlocking) {
            const Blocking& call = blocking[nextBlocking];
            const auto after = std::upper_bound(
                ends.begin(), ends.end(), call.end, [](double ts, const End& end) { return ts < end.original; });
            if (after == ends.begin() || std::prev(after)->original <= call.begin)
                continue; // nothing on the GPU to wait for: the call keeps its duration
            const End& awaited = *std::prev(after);
            const double tail = call.end - awaited.original;
            const double shiftBefore = shiftOfEnd(call.begin);
            const double newEnd = std::max(call.begin + shiftBefore + tail, awaited.moved + tail);
            const double take = shiftBefore - (newEnd - call.end);
            if (take > 0)
                absorbed.emplace_back(call.end, take + (absorbed.empty() ? 0.0 : absorbed.back().second));
        }
    };
    for (Work& w : work) {
        const double start = w.start;
        endBlockingCallsBefore(start);
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
        const auto previous = streamEnd.find({ w.device, w.stream });
        if (previous != streamEnd.end())
            after(previous->second);
        if (w.launch != IdMap::kMissing) {
            // Ready once launched; where the work started only after its launch call returned (a
            // first launch that loads the kernel's code), once the call returned.
            const RuntimeEvent& call = store.runtimeCalls[w.launch];
            const double callEnd = call.ts + call.dur;
            if (start >= callEnd) {
                const double launchLatency = std::min(start - callEnd, latency);
                after({ callEnd + launchLatency, callEnd + shiftOfEnd(callEnd) + launchLatency });
            } else {
                const double launchLatency = std::max(0.0, std::min(w.launchToStart, latency));
                after({ call.ts + launchLatency,
                    call.ts + shiftOfStart(call.ts, callEnd, { kRuntimeRank }) + launchLatency });
            }
        }
        const double readyInB = std::isfinite(readyMoved) ? readyMoved : start;
        double moved = start;
        if (std::isfinite(ready) && start - ready <= kLatencyCapUs)
            moved = readyMoved + std::max(0.0, start - ready);
        else if (device.lastFinished && start - device.lastFinished->original <= kLatencyCapUs)
            moved = std::max(readyInB, device.lastFinished->moved + (start - device.lastFinished->original));
        else
            moved = std::max(readyInB, start);
        const End end { start + w.dur, moved + w.dur };
        if (previous == streamEnd.end() || end.original >= previous->second.original)
            streamEnd[{ w.device, w.stream }] = end;
        device.running.push(end);
        ends.insert(std::upper_bound(ends.begin(), ends.end(), end.original,
                        [](double ts, const End& e) { return ts < e.original; }),
            end);
        *w.ts = moved;
    }
    endBlockingCallsBefore(std::numeric_limits<double>::infinity());

    // Then the host: everything it does after a stall happens later, on every thread (what the
    // other threads do waits for the stalled one: the autograd thread runs the backward pass the
    // main thread's step asks for).
    const auto move = [&](double& ts, double& dur, const Nesting& nesting) {
        const double end = ts + dur;
        const double start = ts + shiftOfStart(ts, end, nesting);
        ts = start;
        dur = std::max(0.0, end + shiftOfEnd(end) - start);
    };
    for (RuntimeEvent& call : store.runtimeCalls)
        move(call.ts, call.dur, { kRuntimeRank });
    for (size_t i = 0; i < store.cpuOps.size(); ++i)
        move(store.cpuOps[i].ts, store.cpuOps[i].dur, { kOperatorRank, int64_t(i) });
    for (size_t i = 0; i < store.modules.size(); ++i)
        move(store.modules[i].ts, store.modules[i].dur, { kModuleRank, int64_t(i) });
    for (PythonFrameEvent& frame : store.pythonFrames)
        move(frame.ts, frame.dur, { kPythonRank });
    for (size_t i = 0; i < store.annotations.size(); ++i) {
        AnnotationEvent& annotation = store.annotations[i];
        if (!annotation.onGpu)
            move(annotation.ts, annotation.dur, { kRegionRank, int64_t(i) });
    }
    return points.size();
}

} // namespace fusiondiff::test
