#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace fusiondiff {

// The launch idle after one host code's gaps on one side of the compared steps: a gap in which
// the GPU waits for the host empties the GPU's queue, and until the host is ahead of the GPU again,
// each launch's latency shows as idle (launch idle), which the work would not have waited for had
// the queue stayed full. The step time sums it per host code's pairing key (StepTimeTotals).
struct DrainedLaunch
{
    double us = 0;
    uint64_t launches = 0; // the launches behind it
};

// What of it a host code costs the `slower` side beyond the other, >= 0. A trace whose every step
// is launch-bound has as much on both sides, wherever the first gap falls: so only what the slower
// side has beyond the other counts, and no more than the slower side's launch idle grew in all
// (`launchIdleUs`, the compared steps') nor than its extra launches there at its mean (slower
// launches alone lengthen each such gap and add none).
double drainedLaunchBeyondUs(
    const std::array<DrainedLaunch, 2>& drained, const std::array<double, 2>& launchIdleUs, size_t slower);

} // namespace fusiondiff
