#include "ops/timegap/hosttimeline.h"

#include "model/tracestore.h"
#include "util/sortedruns.h"

#include <algorithm>
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

} // namespace

void HostTimeline::reserve(size_t segments)
{
    m_bounds.reserve(segments + 1);
    m_codes.reserve(segments);
    m_blocking.reserve(segments);
}

void HostTimeline::append(double from, double to, int32_t code, bool blocking)
{
    if (m_codes.empty()) {
        m_bounds.push_back(from);
    } else if (m_codes.back() == code) {
        m_bounds.back() = to;
        return;
    }
    m_bounds.push_back(to);
    m_codes.push_back(code);
    m_blocking.push_back(blocking);
}

HostTimeline innermostTimeline(const TraceStore& store, const ThreadId& thread, HostCodes& codes)
{
    // Each kind's events come mostly in time order: sorted and merged in kind by kind; outer before
    // inner: by start, the longer first. A code per name and kind, looked up once.
    const auto outerFirst
        = [](const HostEvent& a, const HostEvent& b) { return a.ts != b.ts ? a.ts < b.ts : a.end > b.end; };
    std::vector<int32_t> codeOf(store.strings.size() * 3, -2);
    const auto codeFor = [&](StringId name, HostCodeKind kind) {
        int32_t& known = codeOf[size_t(name) * 3 + size_t(kind)];
        if (known == -2)
            known = codes.of(name, kind, store);
        return known;
    };
    std::vector<HostEvent> events;
    size_t kindStart = 0;
    const auto endKind = [&] {
        mergeSortedRun(events, kindStart, outerFirst);
        kindStart = events.size();
    };
    // The thread's frames (stored thread by thread), operators and runtime calls, counted first so
    // that the events are allocated once: on a with_stack trace they are millions.
    auto frames = std::make_pair(store.pythonFrames.end(), store.pythonFrames.end());
    const auto pythonThread = std::find(store.pythonThreads.begin(), store.pythonThreads.end(), thread);
    if (pythonThread != store.pythonThreads.end()) {
        const auto index = uint32_t(pythonThread - store.pythonThreads.begin());
        frames = std::equal_range(
            store.pythonFrames.begin(), store.pythonFrames.end(), index, [](const auto& x, const auto& y) {
                if constexpr (std::is_same_v<std::decay_t<decltype(x)>, uint32_t>)
                    return x < y.thread;
                else
                    return x.thread < y;
            });
    }
    const auto onThread = [&thread](const auto& event) { return event.pid == thread.pid && event.tid == thread.tid; };
    events.reserve(size_t(frames.second - frames.first)
        + size_t(std::count_if(store.cpuOps.begin(), store.cpuOps.end(), onThread))
        + size_t(std::count_if(store.runtimeCalls.begin(), store.runtimeCalls.end(), onThread)));
    for (auto frame = frames.first; frame != frames.second; ++frame)
        events.push_back({ frame->ts, frame->ts + frame->dur, codeFor(frame->name, HostCodeKind::Python), false });
    endKind();
    for (const CpuOpEvent& op : store.cpuOps) {
        if (onThread(op))
            events.push_back({ op.ts, op.ts + op.dur, codeFor(op.name, HostCodeKind::Operator), false });
    }
    endKind();
    std::vector<bool> blockingName(store.strings.size(), false);
    std::vector<bool> blockingKnown(store.strings.size(), false);
    for (const RuntimeEvent& call : store.runtimeCalls) {
        if (!onThread(call))
            continue;
        if (!blockingKnown[call.name]) {
            blockingKnown[call.name] = true;
            blockingName[call.name] = isBlockingCall(store.name(call.name));
        }
        const bool blocking = blockingName[call.name];
        events.push_back(
            { call.ts, call.ts + call.dur, codeFor(call.name, HostCodeKind::Runtime), blocking, !blocking });
    }
    endKind();

    // At most two segments an event (the piece of its parent before it, its own piece after its
    // children); about 1.75 on real traces.
    HostTimeline segments;
    segments.reserve(events.size() * 2);
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
    double now = events.empty() ? 0 : events.front().ts;
    for (const HostEvent& event : events) {
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
