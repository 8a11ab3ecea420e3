#include "ops/timegap/hosttimeline.h"

#include "model/tracestore.h"
#include "util/sortedruns.h"

#include <algorithm>
#include <span>
#include <string>
#include <type_traits>

namespace fusiondiff {

int32_t HostCodes::of(StringId name, HostCodeKind kind, const TraceStore& store)
{
    const auto [it, inserted] = m_byId.try_emplace(uint64_t(name) << 3 | uint64_t(kind), int32_t(m_codes.size()));
    if (inserted)
        m_codes.push_back({ std::string(store.name(name)), kind });
    return it->second;
}

int32_t HostCodes::named(const std::string& name, HostCodeKind kind)
{
    const auto [it, inserted] = m_byName.try_emplace({ name, int(kind) }, int32_t(m_codes.size()));
    if (inserted)
        m_codes.push_back({ name, kind });
    return it->second;
}

std::vector<HostCode> HostCodes::take()
{
    std::vector<double> most(m_codes.size(), 0.0);
    std::vector<double> inAny(m_codes.size(), 0.0);
    for (const auto& [codeAndCaller, us] : m_timeIn) {
        const auto code = size_t(codeAndCaller >> 32);
        const auto caller = int32_t(uint32_t(codeAndCaller));
        inAny[code] += us;
        // Ties go to the lower code, whatever the hash order.
        if (us > most[code] || (us == most[code] && caller < m_codes[code].caller)) {
            most[code] = us;
            m_codes[code].caller = caller;
        }
    }
    // A code called from many places (a module's __call__, a dispatcher) has no caller to name:
    // its caller is the one it runs inside for more than half its time, or none.
    for (size_t code = 0; code < m_codes.size(); ++code) {
        if (most[code] <= 0.5 * inAny[code])
            m_codes[code].caller = -1;
    }
    m_timeIn = {};
    return std::move(m_codes);
}

bool isProfilerStepName(std::string_view name)
{
    return name.starts_with("ProfilerStep#");
}

bool isBlockingCall(std::string_view name)
{
    if (name.find("Synchronize") != std::string_view::npos)
        return true;
    return name.find("Memcpy") != std::string_view::npos && name.find("Async") == std::string_view::npos
        && name.find("Peer") == std::string_view::npos;
}

std::string_view withoutApiPrefix(std::string_view name)
{
    // Kernel and graph launches pair whatever entry point launched them (cudaLaunchKernel,
    // hipExtModuleLaunchKernel, cuLaunchKernelEx, ...).
    if (name.find("GraphLaunch") != std::string_view::npos)
        return "GraphLaunch";
    if (name.find("LaunchKernel") != std::string_view::npos)
        return "LaunchKernel";
    for (const std::string_view prefix : { "cuda", "hip", "cu" }) {
        if (name.starts_with(prefix) && name.size() > prefix.size() && name[prefix.size()] >= 'A'
            && name[prefix.size()] <= 'Z')
            return name.substr(prefix.size());
    }
    return name;
}

namespace {

struct HostEvent
{
    double ts;
    double end;
    int32_t code;
    bool blocking;
    bool callOfItsCaller = false; // a runtime call that does not wait for the GPU: its time is its caller's
};

// The sweep's order: by start, the outer (longer) event first.
constexpr auto outerFirst
    = [](const HostEvent& a, const HostEvent& b) { return a.ts != b.ts ? a.ts < b.ts : a.end > b.end; };

} // namespace

void HostTimeline::reserve(size_t segments)
{
    m_bounds.reserve(segments + 1);
    m_codes.reserve(segments);
    m_blocking.reserve(segments);
}

HostTimeline innermostTimeline(const TraceStore& store, const ThreadId& thread, HostCodes& codes)
{
    // A code per name and kind, looked up once.
    std::vector<int32_t> codeOf(store.strings.size() * 3, -2);
    const auto codeFor = [&](StringId name, HostCodeKind kind) {
        int32_t& known = codeOf[size_t(name) * 3 + size_t(kind)];
        if (known == -2)
            known = codes.of(name, kind, store);
        return known;
    };
    // The thread's frames (stored thread by thread), operators and runtime calls, kind by kind,
    // merged as the sweep reads them: on a with_stack trace they are millions, not copied.
    std::span<const PythonFrameEvent> frames;
    const auto pythonThread = std::find(store.pythonThreads.begin(), store.pythonThreads.end(), thread);
    if (pythonThread != store.pythonThreads.end()) {
        const auto index = uint32_t(pythonThread - store.pythonThreads.begin());
        const auto [first, last] = std::equal_range(
            store.pythonFrames.begin(), store.pythonFrames.end(), index, [](const auto& x, const auto& y) {
                if constexpr (std::is_same_v<std::decay_t<decltype(x)>, uint32_t>)
                    return x < y.thread;
                else
                    return x.thread < y;
            });
        frames = std::span(first, last);
    }
    const auto onThread = [&thread](const auto& event) { return event.pid == thread.pid && event.tid == thread.tid; };
    auto python
        = sortedKind<HostEvent>(frames, outerFirst, [&](const PythonFrameEvent& frame, size_t, HostEvent& event) {
              event = { frame.ts, frame.ts + frame.dur, codeFor(frame.name, HostCodeKind::Python), false };
              return true;
          });
    auto operators
        = sortedKind<HostEvent>(store.cpuOps, outerFirst, [&](const CpuOpEvent& op, size_t, HostEvent& event) {
              if (!onThread(op))
                  return false;
              event = { op.ts, op.ts + op.dur, codeFor(op.name, HostCodeKind::Operator), false };
              return true;
          });
    // record_function regions (user annotations, not the profiler's steps) and nn.Module calls are
    // host code too: a user names code exactly to see it. Their codes are named after the others'.
    std::vector<int32_t> regionCode(store.strings.size(), -2);
    const auto regionCodeFor = [&](StringId name) {
        int32_t& known = regionCode[name];
        if (known == -2)
            known = codes.of(name, HostCodeKind::Python, store);
        return known;
    };
    std::vector<int32_t> moduleCode(store.strings.size(), -2);
    const auto moduleCodeFor = [&](StringId name) {
        int32_t& known = moduleCode[name];
        if (known == -2)
            known = codes.named(std::string(kModuleCodePrefix) + std::string(store.name(name)), HostCodeKind::Python);
        return known;
    };
    auto regions = sortedKind<HostEvent>(
        store.annotations, outerFirst, [&](const AnnotationEvent& annotation, size_t, HostEvent& event) {
            if (annotation.onGpu || !onThread(annotation) || isProfilerStepName(store.name(annotation.name)))
                return false;
            event = { annotation.ts, annotation.ts + annotation.dur, regionCodeFor(annotation.name), false };
            return true;
        });
    auto modules
        = sortedKind<HostEvent>(store.modules, outerFirst, [&](const ModuleEvent& module, size_t, HostEvent& event) {
              if (!onThread(module))
                  return false;
              event = { module.ts, module.ts + module.dur, moduleCodeFor(module.name), false };
              return true;
          });
    std::vector<int8_t> blockingName(store.strings.size(), -1); // -1: not known yet
    auto calls = sortedKind<HostEvent>(
        store.runtimeCalls, outerFirst, [&](const RuntimeEvent& call, size_t, HostEvent& event) {
            if (!onThread(call))
                return false;
            int8_t& blocking = blockingName[call.name];
            if (blocking < 0)
                blocking = isBlockingCall(store.name(call.name)) ? 1 : 0;
            event = { call.ts, call.ts + call.dur, codeFor(call.name, HostCodeKind::Runtime), blocking == 1,
                blocking == 0 };
            return true;
        });
    // Prepared in this order, which names the codes: the Python frames', the operators', the calls'.
    python.prepare();
    operators.prepare();
    calls.prepare();
    regions.prepare();
    modules.prepare();
    // Where two events start and end together, a region is taken as outside a module call, and a
    // module call outside its Python frame.
    const auto next
        = [&](HostEvent& event) { return takeNext(event, outerFirst, regions, modules, python, operators, calls); };
    const size_t events = regions.size() + modules.size() + python.size() + operators.size() + calls.size();

    // At most two segments an event (the piece of its parent before it, its own piece after its
    // children); about 1.75 on real traces.
    HostTimeline segments;
    segments.reserve(events * 2);
    // Each piece begins where the one before it ended: `now` moves to the end of every piece.
    const auto emit = [&segments](double from, double to, int32_t code, bool blocking) {
        if (to > from)
            segments.append(from, to, code, blocking);
    };
    std::vector<HostEvent> open;
    // What runs: the innermost open event, except that a runtime call which does not wait for the
    // GPU (a launch, an async copy) is the code that issued it (the operator or Python function
    // a user can change), where one is open around it.
    const auto running = [&open]() -> const HostEvent& {
        for (size_t i = open.size(); i-- > 1;) {
            if (!open[i].callOfItsCaller)
                return open[i];
        }
        return open.front(); // the outermost: a caller, or the call itself where nothing is open around it
    };
    // An event's time inside the code around it (other than its own: a recursive Python function
    // is not its own caller), where it is not a call that counts as its caller's.
    const auto addCaller = [&open, &codes](const HostEvent& inner) {
        if (inner.callOfItsCaller || inner.code < 0)
            return;
        for (size_t i = open.size(); i-- > 0;) {
            if (!open[i].callOfItsCaller && open[i].code != inner.code && open[i].code >= 0) {
                codes.addTimeIn(inner.code, open[i].code, inner.end - inner.ts);
                return;
            }
        }
    };
    HostEvent event {};
    bool more = next(event);
    double now = more ? event.ts : 0;
    for (; more; more = next(event)) {
        while (!open.empty() && open.back().end <= event.ts) {
            emit(now, open.back().end, running().code, running().blocking);
            now = std::max(now, open.back().end);
            open.pop_back();
        }
        if (open.empty())
            emit(now, event.ts, -1, false);
        else
            emit(now, event.ts, running().code, running().blocking);
        now = std::max(now, event.ts);
        HostEvent inner = event;
        if (!open.empty())
            inner.end = std::min(inner.end, open.back().end);
        addCaller(inner);
        open.push_back(inner);
    }
    while (!open.empty()) {
        emit(now, open.back().end, running().code, running().blocking);
        now = std::max(now, open.back().end);
        open.pop_back();
    }
    return segments;
}

} // namespace fusiondiff
