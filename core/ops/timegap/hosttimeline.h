#pragma once

#include "model/steptime.h"
#include "model/stringtable.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace fusiondiff {

struct ThreadId;
struct TraceStore;

// Host code names of one trace, as StepTimeSide::codes lists them: each Python frame, operator
// or runtime call name once.
class HostCodes
{
public:
    int32_t of(StringId name, HostCodeKind kind, const TraceStore& store);
    int32_t named(const std::string& name, HostCodeKind kind); // a code that is no event's name (a reason)
    // A call of `code` of `us` ran inside `caller` (HostCode::caller is the one with the most time).
    void addTimeIn(int32_t code, int32_t caller, double us)
    {
        m_timeIn[uint64_t(uint32_t(code)) << 32 | uint32_t(caller)] += us;
    }
    std::vector<HostCode> take(); // the codes, each with its caller

    const std::vector<HostCode>& codes() const { return m_codes; }

private:
    std::unordered_map<uint64_t, int32_t> m_byId; // name << 3 | kind
    std::map<std::pair<std::string, int>, int32_t> m_byName;
    std::vector<HostCode> m_codes;
    std::unordered_map<uint64_t, double> m_timeIn; // code << 32 | caller -> the time of its calls there
};

// One piece of what a host thread was running (HostTimeline).
struct HostSegment
{
    double begin = 0;
    double end = 0;
    int32_t code = -1; // into HostCodes; -1: no recorded host code
    bool blocking = false; // a runtime call that waits for the GPU (isBlockingCall)
};

// The host code name of an nn.Module call ("nn.Module: Linear_77"), as the profiler names its event.
inline constexpr std::string_view kModuleCodePrefix = "nn.Module: ";

// A profiler step's annotation ("ProfilerStep#12"): a step, not host code.
bool isProfilerStepName(std::string_view name);

// What one host thread was running at each moment, from its first event's start to its last
// event's end: the innermost of its record_function regions (user annotations other than the
// profiler's steps), nn.Module calls, Python frames, operators and runtime calls, as consecutive
// segments. A frame that ends after its parent is cut at the parent's end (the profiler's clock
// can make nested events overlap by a microsecond). Each segment begins where the one before it
// ends, so that a segment is held in 12 bytes and a bit: its start, its code and whether it blocks.
class HostTimeline
{
public:
    size_t size() const { return m_codes.size(); }
    HostSegment operator[](size_t i) const { return { m_bounds[i], m_bounds[i + 1], m_codes[i], m_blocking[i] }; }
    // The first segment that ends after `ts` (size() if none).
    size_t firstEndingAfter(double ts) const
    {
        return m_codes.empty()
            ? 0
            : size_t(std::upper_bound(m_bounds.begin() + 1, m_bounds.end(), ts) - (m_bounds.begin() + 1));
    }

    void reserve(size_t segments);
    // The next piece, [from, to): where it runs the same code as the last one, that one is extended.
    void append(double from, double to, int32_t code, bool blocking)
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

private:
    std::vector<double> m_bounds; // segment i is [m_bounds[i], m_bounds[i + 1])
    std::vector<int32_t> m_codes;
    std::vector<bool> m_blocking;
};

HostTimeline innermostTimeline(const TraceStore& store, const ThreadId& thread, HostCodes& codes);

// True for a runtime call in which the host waits for the GPU: stream, device and event
// synchronization, and copies that block (cudaMemcpy, hipMemcpyWithStream, cuMemcpyDtoH; not the
// ...Async ones).
bool isBlockingCall(std::string_view name);

// A runtime call's name without its API prefix ("cudaStreamSynchronize", "hipStreamSynchronize"
// -> "StreamSynchronize"), so that calls pair across vendors; every kernel launch entry point is
// "LaunchKernel" and every graph launch "GraphLaunch".
std::string_view withoutApiPrefix(std::string_view name);

} // namespace fusiondiff
