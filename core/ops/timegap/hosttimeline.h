#pragma once

#include "model/steptime.h"
#include "model/stringtable.h"

#include <cstdint>
#include <map>
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
    std::vector<HostCode> take() { return std::move(m_codes); }
    const std::vector<HostCode>& codes() const { return m_codes; }

private:
    std::unordered_map<uint64_t, int32_t> m_byId; // name << 3 | kind
    std::map<std::pair<std::string, int>, int32_t> m_byName;
    std::vector<HostCode> m_codes;
};

// What one host thread was running at each moment: the innermost of its Python frames, operators
// and runtime calls, as consecutive segments. A frame that ends after its parent is cut at the
// parent's end (the profiler's clock can make nested events overlap by a microsecond).
struct HostSegment
{
    double begin = 0;
    double end = 0;
    int32_t code = -1; // into HostCodes; -1: no recorded host code
    bool blocking = false; // a runtime call that waits for the GPU (isBlockingCall)
};

std::vector<HostSegment> innermostTimeline(const TraceStore& store, const ThreadId& thread, HostCodes& codes);

// True for a runtime call in which the host waits for the GPU: stream, device and event
// synchronization, and copies that block (cudaMemcpy, hipMemcpyWithStream, cuMemcpyDtoH; not the
// ...Async ones).
bool isBlockingCall(std::string_view name);

// A runtime call's name without its API prefix ("cudaStreamSynchronize", "hipStreamSynchronize"
// -> "StreamSynchronize"), so that calls pair across vendors; every kernel launch entry point is
// "LaunchKernel" and every graph launch "GraphLaunch".
std::string_view withoutApiPrefix(std::string_view name);

} // namespace fusiondiff
