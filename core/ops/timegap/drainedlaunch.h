#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

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

// One host entry's claim on the drained launch idle: its slower side and drainedLaunchBeyondUs.
struct DrainedClaim
{
    size_t slower = 0;
    double us = 0;
};

// The claims of all host entries together: the launch idle that grew on one side is one pool, so
// where the claims of the entries slower on that side add up to more than it grew in all
// (`launchIdleUs`' difference), each gets its share in proportion; no launch idle is claimed twice.
std::vector<double> allotDrainedLaunch(
    const std::vector<DrainedClaim>& claims, const std::array<double, 2>& launchIdleUs);

// What `claimedUs` (the drained launch idle the host entries slower on side `slower` claimed in
// all) takes off each launch entry of that side: per launch call's key, its share of the drained
// launch idle charged to it beyond the other side (`drainedIntoLaunch`), at most its stake.
// `stakes` and the result are by launch key.
std::map<std::string, double> drainedOffLaunches(const std::map<std::string, double>& stakes,
    const std::array<std::map<std::string, DrainedLaunch>, 2>& drainedIntoLaunch, size_t slower, double claimedUs);

} // namespace fusiondiff
