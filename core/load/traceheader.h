#pragma once

#include "model/tracestore.h"

#include <string>
#include <string_view>

namespace fusiondiff {

// The top-level values of a trace that describe the machine it was recorded on.
struct TraceHeader
{
    std::string deviceProperties; // raw JSON, empty if absent
    std::string roctracerVersion; // raw JSON, empty if absent
    std::string distributedInfo; // raw JSON, empty if absent
};

struct PlatformInfo
{
    Platform platform = Platform::NVIDIA;
    std::string gpuName;
    GpuProperties gpu; // the first device's identity, as deviceProperties gives it
};

// Decides platform and GPU name exactly as the seed does: AMD if `roctracer_version` is truthy or
// the first device has a warpSize of 64; the GPU name is the first device's name, or "MI300X"
// (AMD) / "Unknown GPU" (NVIDIA) when it has none. An empty or malformed deviceProperties counts as
// absent (the seed would crash on an empty list).
PlatformInfo detectPlatform(const TraceHeader& header);

// The rank, world size, backend and process groups of `distributedInfo` (absent or malformed
// values stay unknown: -1 and empty).
DistributedInfo readDistributedInfo(const TraceHeader& header);

// "Qwen1.5-0.5B-Chat.h100.json.gz" -> "Qwen1.5-0.5B-Chat.h100"
std::string traceStem(std::string_view fileName);

} // namespace fusiondiff
