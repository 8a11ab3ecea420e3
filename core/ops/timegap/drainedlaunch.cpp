#include "ops/timegap/drainedlaunch.h"

#include <algorithm>

namespace fusiondiff {

double drainedLaunchBeyondUs(
    const std::array<DrainedLaunch, 2>& drained, const std::array<double, 2>& launchIdleUs, size_t slower)
{
    const DrainedLaunch& slow = drained[slower];
    const DrainedLaunch& fast = drained[1 - slower];
    if (slow.launches == 0 || slow.launches <= fast.launches)
        return 0.0;
    const double moreLaunches = double(slow.launches - fast.launches) * slow.us / double(slow.launches);
    const double beyond
        = std::min({ slow.us - fast.us, launchIdleUs[slower] - launchIdleUs[1 - slower], moreLaunches });
    return std::max(0.0, beyond);
}

} // namespace fusiondiff
