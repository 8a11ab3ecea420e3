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

std::vector<double> allotDrainedLaunch(
    const std::vector<DrainedClaim>& claims, const std::array<double, 2>& launchIdleUs)
{
    std::array<double, 2> claimed {};
    for (const DrainedClaim& claim : claims)
        claimed[claim.slower] += claim.us;
    std::vector<double> out;
    out.reserve(claims.size());
    for (const DrainedClaim& claim : claims) {
        const double pool = std::max(0.0, launchIdleUs[claim.slower] - launchIdleUs[1 - claim.slower]);
        const double share = claimed[claim.slower] > pool ? pool / claimed[claim.slower] : 1.0;
        out.push_back(claim.us * share);
    }
    return out;
}

std::map<std::string, double> drainedOffLaunches(const std::map<std::string, double>& stakes,
    const std::array<std::map<std::string, DrainedLaunch>, 2>& drainedIntoLaunch, size_t slower, double claimedUs)
{
    std::map<std::string, double> beyond;
    double beyondAll = 0;
    for (const auto& [key, stake] : stakes) {
        const auto slow = drainedIntoLaunch[slower].find(key);
        const auto fast = drainedIntoLaunch[1 - slower].find(key);
        const double us = std::max(0.0,
            (slow != drainedIntoLaunch[slower].end() ? slow->second.us : 0.0)
                - (fast != drainedIntoLaunch[1 - slower].end() ? fast->second.us : 0.0));
        beyond[key] = us;
        beyondAll += us;
    }
    std::map<std::string, double> out;
    if (claimedUs <= 0 || beyondAll <= 0)
        return out;
    for (const auto& [key, stake] : stakes)
        out[key] = std::min(stake, claimedUs * beyond[key] / beyondAll);
    return out;
}

} // namespace fusiondiff
