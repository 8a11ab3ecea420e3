#include "ops/attribution/opattribution.h"

#include "model/tracestore.h"
#include "util/bothsides.h"
#include "util/idmap.h"
#include "util/sortedruns.h"

#include <algorithm>
#include <numeric>
#include <tuple>

namespace fusiondiff {

namespace {

// A frame or runtime call on one thread, for the sweep that finds what encloses what. 24 bytes: a
// with_stack trace sweeps a million of them.
struct ThreadEvent
{
    double ts;
    double end;
    uint32_t thread; // ThreadIndex: ordered as the threads' (pid, tid)
    int32_t item; // >= 0: a frame; < 0: the runtime call -1 - item

    bool isFrame() const { return item >= 0; }
    int32_t call() const { return -1 - item; }
};

// By thread and start; an enclosing frame before what it encloses (longer first), frames before
// calls that start at the same time.
constexpr auto sweepOrder = [](const ThreadEvent& a, const ThreadEvent& b) {
    return std::tie(a.thread, a.ts) < std::tie(b.thread, b.ts)
        || (std::tie(a.thread, a.ts) == std::tie(b.thread, b.ts)
            && std::make_tuple(!a.isFrame(), -(a.end - a.ts)) < std::make_tuple(!b.isFrame(), -(b.end - b.ts)));
};

// Numbers the threads of a store's operators, modules, Python frames and runtime calls in
// (pid, tid) order, so that sorting by the number sorts by thread.
class ThreadIndex
{
public:
    explicit ThreadIndex(const TraceStore& store)
    {
        std::vector<ThreadId> threads(store.pythonThreads.begin(), store.pythonThreads.end());
        const auto add = [&threads](int64_t pid, int64_t tid) {
            if (threads.empty() || threads.back().pid != pid || threads.back().tid != tid)
                threads.push_back({ pid, tid });
        };
        for (const CpuOpEvent& op : store.cpuOps)
            add(op.pid, op.tid);
        for (const ModuleEvent& module : store.modules)
            add(module.pid, module.tid);
        for (const RuntimeEvent& call : store.runtimeCalls)
            add(call.pid, call.tid);
        std::sort(threads.begin(), threads.end());
        threads.erase(std::unique(threads.begin(), threads.end()), threads.end());
        m_threads = std::move(threads);
    }

    // Events come thread by thread: the last one found is tried first.
    uint32_t of(int64_t pid, int64_t tid)
    {
        if (m_last < m_threads.size() && m_threads[m_last].pid == pid && m_threads[m_last].tid == tid)
            return m_last;
        const ThreadId thread { pid, tid };
        m_last = uint32_t(std::lower_bound(m_threads.begin(), m_threads.end(), thread) - m_threads.begin());
        return m_last;
    }

private:
    std::vector<ThreadId> m_threads;
    uint32_t m_last = UINT32_MAX;
};

// The frames: the operators, then the modules, then the Python frames (the loader kept only those
// that hold an operator, a module or a launch), each yet without parent.
std::vector<OpFrame> framesOf(const TraceStore& store)
{
    std::vector<OpFrame> frames;
    frames.reserve(store.cpuOps.size() + store.modules.size() + store.pythonFrames.size());
    for (const CpuOpEvent& op : store.cpuOps)
        frames.push_back({ .ts = op.ts, .end = op.ts + op.dur, .name = op.name });
    for (const ModuleEvent& module : store.modules)
        frames.push_back({ .ts = module.ts, .end = module.ts + module.dur, .name = module.name, .isModule = true });
    for (const PythonFrameEvent& python : store.pythonFrames)
        frames.push_back({ .ts = python.ts, .end = python.ts + python.dur, .name = python.name, .isPython = true });
    return frames;
}

// The sweep over each thread's frames and calls, in start order: each frame's parent and depth (in
// `frames`), and the innermost operator or module enclosing each call (a Python frame only where
// there is neither).
std::vector<int32_t> sweepFramesAndCalls(
    const TraceStore& store, const std::vector<bool>& isProfilerSpanFrame, std::vector<OpFrame>& frames)
{
    std::vector<int32_t> frameOfCall(store.runtimeCalls.size(), -1);
    // Every frame and runtime call as the sweep sees them, category by category (each mostly in
    // order already; a with_stack trace holds a million Python frames), merged as the sweep reads
    // them. Frames are numbered as framesOf lists them. Each category keeps a thread index of its
    // own: its last thread found is tried first.
    const ThreadIndex threads(store);
    const auto modulesBegin = int32_t(store.cpuOps.size());
    const auto pythonBegin = int32_t(store.cpuOps.size() + store.modules.size());
    auto operators = sortedKind<ThreadEvent>(
        store.cpuOps, sweepOrder, [threads = threads](const CpuOpEvent& op, size_t i, ThreadEvent& event) mutable {
            event = { op.ts, op.ts + op.dur, threads.of(op.pid, op.tid), int32_t(i) };
            return true;
        });
    auto modules = sortedKind<ThreadEvent>(store.modules, sweepOrder,
        [threads = threads, modulesBegin](const ModuleEvent& module, size_t i, ThreadEvent& event) mutable {
            event
                = { module.ts, module.ts + module.dur, threads.of(module.pid, module.tid), modulesBegin + int32_t(i) };
            return true;
        });
    auto python = sortedKind<ThreadEvent>(store.pythonFrames, sweepOrder,
        [threads = threads, pythonBegin, &store](const PythonFrameEvent& frame, size_t i, ThreadEvent& event) mutable {
            const ThreadId& thread = store.pythonThreads[frame.thread];
            event = { frame.ts, frame.ts + frame.dur, threads.of(thread.pid, thread.tid), pythonBegin + int32_t(i) };
            return true;
        });
    auto calls = sortedKind<ThreadEvent>(store.runtimeCalls, sweepOrder,
        [threads = threads](const RuntimeEvent& call, size_t i, ThreadEvent& event) mutable {
            event = { call.ts, call.ts + call.dur, threads.of(call.pid, call.tid), -1 - int32_t(i) };
            return true;
        });
    // The frames are listed beside the categories' check when the other trace's analysis has left a
    // core free.
    together(
        [&] {
            operators.prepare();
            modules.prepare();
            python.prepare();
            calls.prepare();
        },
        [&] { frames = framesOf(store); });

    std::vector<int32_t> open; // frames enclosing the current position, innermost last
    ThreadEvent event {};
    for (uint32_t thread = UINT32_MAX; takeNext(event, sweepOrder, operators, modules, python, calls);
         thread = event.thread) {
        if (event.thread != thread)
            open.clear();
        while (!open.empty() && frames[size_t(open.back())].end < event.ts)
            open.pop_back();
        if (event.isFrame()) {
            // A frame that starts inside another but outlives it is not nested in it (clock jitter,
            // or overlapping events from another source): it is a sibling.
            while (!open.empty() && frames[size_t(open.back())].end < event.end)
                open.pop_back();
            OpFrame& frame = frames[size_t(event.item)];
            frame.parent = open.empty() ? -1 : open.back();
            frame.depth = open.empty() ? 0 : frames[size_t(open.back())].depth + 1;
            if (size_t(event.item) >= isProfilerSpanFrame.size() || !isProfilerSpanFrame[size_t(event.item)])
                open.push_back(event.item);
        } else if (!open.empty()) {
            const auto launcher
                = std::find_if(open.rbegin(), open.rend(), [&](int32_t f) { return !frames[size_t(f)].isPython; });
            frameOfCall[size_t(event.call())] = launcher != open.rend() ? *launcher : open.back();
        }
    }
    return frameOfCall;
}

// The operators (cpu ops are frames 0..n-1) by External id, and the runtime calls by correlation.
struct LaunchIds
{
    IdMap frameOfExternalId;
    IdMap callOfCorrelation;
};

LaunchIds launchIds(const TraceStore& store, const std::vector<bool>& isProfilerSpanFrame)
{
    const auto externalIdOf = [&](size_t i) { return isProfilerSpanFrame[i] ? kNoId : store.cpuOps[i].externalId; };
    LaunchIds ids { IdMap(idRangeOf(store.cpuOps.size(), externalIdOf, kNoId)),
        IdMap(idRangeOf(store.runtimeCalls, &RuntimeEvent::correlation, kNoId)) };
    for (size_t i = 0; i < store.cpuOps.size(); ++i) {
        if (externalIdOf(i) != kNoId)
            ids.frameOfExternalId.findOrInsert(externalIdOf(i), uint32_t(i));
    }
    for (size_t i = 0; i < store.runtimeCalls.size(); ++i) {
        if (store.runtimeCalls[i].correlation != kNoId)
            ids.callOfCorrelation.findOrInsert(store.runtimeCalls[i].correlation, uint32_t(i));
    }
    return ids;
}

} // namespace

std::vector<int32_t> KernelAttribution::stackOf(int32_t frame) const
{
    std::vector<int32_t> stack;
    for (int32_t f = frame; f >= 0; f = frames[size_t(f)].parent)
        stack.push_back(f);
    std::reverse(stack.begin(), stack.end());
    return stack;
}

std::vector<int32_t> KernelAttribution::operationStackOf(int32_t frame) const
{
    std::vector<int32_t> stack = stackOf(frame);
    std::erase_if(stack, [this, frame](int32_t f) { return frames[size_t(f)].isPython && f != frame; });
    return stack;
}

KernelAttribution attributeKernels(const TraceStore& store)
{
    KernelAttribution result;
    // Profiler spans recorded as operators (ProfilerStep#N, Optimizer.*#...) enclose nothing and
    // launch nothing: cpu ops are frames 0..n-1.
    std::vector<bool> isProfilerSpanFrame(store.cpuOps.size(), false);
    for (size_t i = 0; i < store.cpuOps.size(); ++i)
        isProfilerSpanFrame[i] = isProfilerSpan(store.name(store.cpuOps[i].name));

    std::vector<int32_t> frameOfCall;
    LaunchIds ids;
    // The id maps are built beside the sweep when the other trace's analysis has left a core free.
    together([&] { frameOfCall = sweepFramesAndCalls(store, isProfilerSpanFrame, result.frames); },
        [&] { ids = launchIds(store, isProfilerSpanFrame); });

    // The operator with the call's External id, when the trace has one, is the exact launcher.
    for (size_t i = 0; i < store.runtimeCalls.size(); ++i) {
        const int64_t externalId = store.runtimeCalls[i].externalId;
        if (externalId == kNoId || externalId == 0)
            continue;
        const uint32_t frame = ids.frameOfExternalId.find(externalId);
        if (frame != IdMap::kMissing)
            frameOfCall[i] = int32_t(frame);
    }
    result.launchingFrame.assign(store.kernels.size(), -1);
    result.launchCall.assign(store.kernels.size(), -1);
    for (size_t k = 0; k < store.kernels.size(); ++k) {
        const KernelEvent& kernel = store.kernels[k];
        int32_t frame = -1;
        if (kernel.correlation != kNoId) {
            const uint32_t call = ids.callOfCorrelation.find(kernel.correlation);
            if (call != IdMap::kMissing) {
                result.launchCall[k] = int32_t(call);
                frame = frameOfCall[call];
            }
        }
        if (frame < 0 && kernel.externalId != kNoId && kernel.externalId != 0) {
            const uint32_t op = ids.frameOfExternalId.find(kernel.externalId);
            if (op != IdMap::kMissing)
                frame = int32_t(op);
        }
        result.launchingFrame[k] = frame;
        result.attributed += frame >= 0;
    }
    return result;
}

bool isProfilerSpan(std::string_view operatorName)
{
    return operatorName.starts_with("ProfilerStep#")
        || (operatorName.starts_with("Optimizer.") && operatorName.find('#') != std::string_view::npos);
}

bool isModuleDispatch(std::string_view pythonFunction)
{
    return pythonFunction.ends_with(": _call_impl") || pythonFunction.ends_with(": _wrapped_call_impl");
}

std::string moduleClassName(std::string_view moduleName)
{
    const auto underscore = moduleName.find_last_of('_');
    if (underscore == std::string_view::npos || underscore + 1 == moduleName.size())
        return std::string(moduleName);
    const std::string_view suffix = moduleName.substr(underscore + 1);
    if (!std::all_of(suffix.begin(), suffix.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return std::string(moduleName);
    return std::string(moduleName.substr(0, underscore));
}

} // namespace fusiondiff
