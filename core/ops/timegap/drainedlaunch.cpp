#include "ops/timegap/drainedlaunch.h"

#include <algorithm>

namespace fusiondiff {

double drainedLaunchBeyondUs(const IdleCauseEntry& cause, const std::array<double, 2>& launchIdleUs, size_t slower)
{
    const size_t other = 1 - slower;
    if (cause.cause != IdleCause::Host || cause.drainedLaunches[slower] == 0
        || cause.drainedLaunches[slower] <= cause.drainedLaunches[other])
        return 0.0;
    const double perLaunch = cause.drainedLaunchUs[slower] / double(cause.drainedLaunches[slower]);
    const double moreLaunches = double(cause.drainedLaunches[slower] - cause.drainedLaunches[other]) * perLaunch;
    const double beyond = std::min({ cause.drainedLaunchUs[slower] - cause.drainedLaunchUs[other],
        launchIdleUs[slower] - launchIdleUs[other], moreLaunches });
    return std::max(0.0, beyond);
}

} // namespace fusiondiff
