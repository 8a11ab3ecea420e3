#include "load/pythonframes.h"

#include "model/tracestore.h"
#include "util/sortedruns.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <utility>
#include <vector>

namespace fusiondiff {

namespace {

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

bool isHexDigit(char c)
{
    return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

// Where "(123): " starts in `name`, and its length without the ": ".
bool findLineNumber(std::string_view name, size_t& open, size_t& length)
{
    const size_t close = name.find("): ");
    if (close == std::string_view::npos || close == 0)
        return false;
    size_t first = close;
    while (first > 0 && isDigit(name[first - 1]))
        --first;
    if (first == close || first == 0 || name[first - 1] != '(')
        return false;
    open = first - 1;
    length = close + 1 - open;
    return true;
}

} // namespace

std::string_view pythonFrameKey(std::string_view name, std::string& scratch)
{
    size_t start = 0;
    for (const std::string_view packages : { std::string_view("site-packages/"), std::string_view("dist-packages/") }) {
        const size_t at = name.rfind(packages);
        if (at != std::string_view::npos && name.find("): ") > at)
            start = std::max(start, at + packages.size());
    }
    size_t open = 0;
    size_t length = 0;
    const bool hasLine = findLineNumber(name, open, length);
    const size_t address = name.find(" at 0x");
    if (start == 0 && !hasLine && address == std::string_view::npos)
        return name;

    scratch.clear();
    for (size_t i = start; i < name.size();) {
        if (hasLine && i == open) {
            i += length;
            continue;
        }
        if (i == address) {
            size_t end = i + 6;
            while (end < name.size() && isHexDigit(name[end]))
                ++end;
            i = end;
            continue;
        }
        scratch += name[i++];
    }
    return scratch;
}

void storePythonFramesThatHoldSomething(TraceStore& store, const std::deque<PythonFrameEvent>& frames)
{
    store.pythonFrames.clear();
    if (frames.empty())
        return;
    // The start times of operators, modules and runtime calls on each of the frames' threads.
    std::map<ThreadId, uint32_t> threadIndex;
    for (uint32_t i = 0; i < store.pythonThreads.size(); ++i)
        threadIndex.emplace(store.pythonThreads[i], i);
    std::vector<std::vector<double>> starts(store.pythonThreads.size());
    std::optional<ThreadId> lastThread; // events come thread by thread: look each thread up once
    uint32_t lastIndex = UINT32_MAX;
    auto add = [&](int64_t pid, int64_t tid, double ts) {
        const ThreadId thread { pid, tid };
        if (thread != lastThread) {
            const auto found = threadIndex.find(thread);
            lastThread = thread;
            lastIndex = found == threadIndex.end() ? UINT32_MAX : found->second;
        }
        if (lastIndex != UINT32_MAX)
            starts[lastIndex].push_back(ts);
    };
    // Each kind comes mostly in time order on a thread: sorted and merged in kind by kind.
    std::vector<size_t> kindBegin(starts.size(), 0);
    const auto endKind = [&] {
        for (size_t t = 0; t < starts.size(); ++t) {
            mergeSortedRun(starts[t], kindBegin[t]);
            kindBegin[t] = starts[t].size();
        }
    };
    for (const CpuOpEvent& op : store.cpuOps)
        add(op.pid, op.tid, op.ts);
    endKind();
    for (const ModuleEvent& module : store.modules)
        add(module.pid, module.tid, module.ts);
    endKind();
    for (const RuntimeEvent& call : store.runtimeCalls)
        add(call.pid, call.tid, call.ts);
    endKind();

    // The first start at or after each frame's: files list a thread's frames by start time, so a
    // cursor per thread moves forward (a binary search where a frame starts earlier than the last).
    std::vector<size_t> cursor(starts.size(), 0);
    std::vector<double> lastStart(starts.size(), -std::numeric_limits<double>::infinity());
    std::vector<uint8_t> holds(frames.size(), 0);
    size_t kept = 0;
    auto hold = holds.begin();
    for (const PythonFrameEvent& frame : frames) {
        const std::vector<double>& thread = starts[frame.thread];
        size_t& at = cursor[frame.thread];
        if (frame.ts >= lastStart[frame.thread]) {
            while (at < thread.size() && thread[at] < frame.ts)
                ++at;
        } else {
            at = size_t(std::lower_bound(thread.begin(), thread.end(), frame.ts) - thread.begin());
        }
        lastStart[frame.thread] = frame.ts;
        *hold = at < thread.size() && thread[at] <= frame.ts + frame.dur;
        kept += *hold++;
    }
    // Thread by thread (in ThreadId order), each thread's frames in file order: the order in
    // which attributeKernels sweeps them, which then needs no sort.
    std::vector<uint32_t> threadOrder(store.pythonThreads.size());
    for (uint32_t i = 0; i < threadOrder.size(); ++i)
        threadOrder[i] = i;
    std::sort(threadOrder.begin(), threadOrder.end(),
        [&store](uint32_t a, uint32_t b) { return store.pythonThreads[a] < store.pythonThreads[b]; });
    std::vector<size_t> next(threadOrder.size(), 0); // where the thread's next kept frame goes
    hold = holds.begin();
    for (const PythonFrameEvent& frame : frames)
        next[frame.thread] += *hold++;
    size_t offset = 0;
    for (const uint32_t thread : threadOrder)
        offset += std::exchange(next[thread], offset);
    store.pythonFrames.resize(kept);
    hold = holds.begin();
    for (const PythonFrameEvent& frame : frames) {
        if (*hold++)
            store.pythonFrames[next[frame.thread]++] = frame;
    }
}

} // namespace fusiondiff
