#pragma once

#include "model/steptime.h"

#include <array>
#include <cstddef>

namespace fusiondiff {

// The launch idle a host code's gaps cause after them. A gap in which the GPU waits for the host
// empties the GPU's queue; until the host is ahead of the GPU again, each launch's latency shows
// as idle (launch idle), which the work would not have waited for had the queue stayed full. The
// step time sums it per host code (`IdleCauseEntry::drainedLaunchUs`). A trace whose every step is
// launch-bound has as much on both sides, wherever the first gap falls: so only what the slower
// side has beyond the other counts, and no more than the slower side's launch idle grew in all
// (`launchIdleUs`, the compared steps') nor than its extra launches there at its mean (slower
// launches alone lengthen each such gap and add none). Returns that, >= 0, for the `slower` side.
double drainedLaunchBeyondUs(const IdleCauseEntry& cause, const std::array<double, 2>& launchIdleUs, size_t slower);

} // namespace fusiondiff
