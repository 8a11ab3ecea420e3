#pragma once

#include <array>
#include <cstdint>
#include <optional>

namespace fusiondiff {

struct FusionReport;
struct TraceStore;

// Some profilers record the kernels of a replayed CUDA/HIP graph back to back: each kernel starts
// where the one before it on its stream ended (Pi0's MI350 trace: 1,521 gaps inside its graph
// launch, 2 us in all), so the graph's launch bubbles are folded into the kernels' durations. Such
// a side cannot show launch idle inside its graphs, and its kernels' speed includes that idle.
struct SyntheticGraphTiming
{
    uint64_t gaps = 0; // between consecutive kernels of one graph launch on one stream
    double gapsUs = 0; // their total
};

// At least this many gaps, and on average at most kMaxSyntheticGapUs: real graph replays leave a
// microsecond or more between kernels.
inline constexpr uint64_t kMinSyntheticGaps = 100;
inline constexpr double kMaxSyntheticGapUs = 0.01;

// The side's graph kernels if their timing is synthetic, else none.
std::optional<SyntheticGraphTiming> syntheticGraphTiming(const TraceStore& store);

// Says it in the report: a note with the step time's, and every launch entry of "where to look
// first" cannot be told (launch idle is not visible on that side), with why.
void noteSyntheticGraphTiming(FusionReport& report, const std::array<std::optional<SyntheticGraphTiming>, 2>& sides);

} // namespace fusiondiff
