// The time gap's verdict in one line (timeGapVerdict, ops/timegap/timegap.h): which side is slower,
// by how much, on which basis, its largest causes, and what run-to-run noise says of it.

#include "ops/timegap/timegap.h"

#include "util/textformat.h"

#include <algorithm>
#include <cmath>

namespace fusiondiff {

namespace {

// The step-time verdict lists parts that make at least this share of the gap.
constexpr double kListedShare = 0.01;

std::string signedDuration(double us)
{
    return (us < 0 ? "-" : "+") + formatDuration(std::fabs(us));
}

// ", A's with 9.3 ms not recorded": what of each side's total the trace holds no kernels for.
std::string notRecordedText(const TimeGapBreakdown& breakdown)
{
    std::string text;
    for (const TimeGapPart& part : breakdown.parts) {
        if (part.cause != GapCause::NotRecorded)
            continue;
        for (size_t side = 0; side < 2; ++side) {
            if (part.timeUs[side] > 0)
                text += std::string(", ") + (side == 0 ? "A" : "B") + "'s with " + formatDuration(part.timeUs[side])
                    + " not recorded";
        }
    }
    return text;
}

bool isLikeForLike(GapCause cause)
{
    return cause == GapCause::Fusion || cause == GapCause::Speed || cause == GapCause::Collectives;
}

// Where most of the gap is work the comparison could not pair (one trace holds more steps, or
// kernels without a launch), the headline alone misleads: say how the two compare on the work
// both ran. Empty when that is not needed.
std::string likeForLike(const TimeGapBreakdown& breakdown)
{
    double comparedDelta = 0, unpairedDelta = 0;
    std::array<double, 2> comparedTime {};
    for (const TimeGapPart& part : breakdown.parts) {
        if (isLikeForLike(part.cause)) {
            comparedDelta += part.deltaUs;
            comparedTime[0] += part.timeUs[0];
            comparedTime[1] += part.timeUs[1];
        } else if (part.cause == GapCause::OneSide || part.cause == GapCause::NotCompared
            || part.cause == GapCause::Unattributed) {
            unpairedDelta += part.deltaUs;
        }
    }
    const bool signFlips = (comparedDelta > 0) != (breakdown.deltaUs > 0);
    if (comparedTime[0] <= 0 || comparedTime[1] <= 0
        || (std::fabs(unpairedDelta) < 0.5 * std::fabs(breakdown.deltaUs) && !signFlips))
        return {};
    const std::string times = " (" + formatDuration(comparedTime[0]) + " vs " + formatDuration(comparedTime[1]) + ")";
    const double larger = std::max(comparedTime[0], comparedTime[1]);
    std::string text = " On the work both traces ran" + times + ", ";
    if (std::fabs(comparedDelta) < 0.01 * larger) {
        text += "A and B are within 1%";
    } else {
        const size_t slow = comparedDelta > 0 ? 0 : 1;
        text += std::string(slow == 0 ? "A" : "B") + " is slower by " + formatDuration(std::fabs(comparedDelta)) + " ("
            + fixed(std::fabs(comparedDelta) / comparedTime[1 - slow] * 100, 1) + "%)";
    }
    const double towardsSlower = breakdown.slowerSide() == Side::Trace1 ? 1.0 : -1.0; // as the parts above
    return text + "; the rest of the gap is work the comparison could not pair ("
        + signedDuration(unpairedDelta * towardsSlower) + ": one side, not compared, unattributed).";
}

// "(A +510 us, 2.4%; run-to-run noise ±645 us)": a gap within noise, signed A - B.
std::string noiseText(const TimeGapBreakdown& breakdown)
{
    std::string text = "A " + signedDuration(breakdown.deltaUs) + ", " + fixed(breakdown.share() * 100, 1) + "%";
    if (breakdown.noise.stepSpreadUs > 0)
        text += "; the steps vary by ±" + formatDuration(breakdown.noise.stepSpreadUs);
    return " (" + text + "; run-to-run noise ±" + formatDuration(breakdown.noise.noiseUs) + ")";
}

bool withinNoise(const TimeGapBreakdown& breakdown)
{
    return breakdown.deltaUs != 0 && breakdown.noise.verdict == NoiseVerdict::WithinNoise;
}

std::string kernelTimeVerdict(const TimeGapBreakdown& breakdown, const std::array<std::string, 2>& names)
{
    const std::string what = breakdown.basis == TimeBasis::GpuKernelTime ? "GPU kernel time" : "GPU wall time";
    if (breakdown.deltaUs == 0)
        return "A (" + names[0] + ") and B (" + names[1] + ") take the same " + what + " ("
            + formatDuration(breakdown.timeUs[0]) + ").";
    if (withinNoise(breakdown))
        return "A (" + names[0] + ") and B (" + names[1] + ") take the same " + what + " within run-to-run noise"
            + noiseText(breakdown) + ".";
    const Side slow = breakdown.slowerSide();
    const size_t s = sideIndex(slow);
    const size_t f = sideIndex(otherSide(slow));
    const double sign = slow == Side::Trace1 ? 1.0 : -1.0;
    std::string text = std::string(sideLetter(slow)) + " (" + names[s] + ") is slower than "
        + sideLetter(otherSide(slow)) + " (" + names[f] + ") by " + formatDuration(std::fabs(breakdown.deltaUs)) + " ("
        + fixed(breakdown.share() * 100, 1) + "%) in " + what + " (" + formatDuration(breakdown.timeUs[s]) + " vs "
        + formatDuration(breakdown.timeUs[f]) + notRecordedText(breakdown) + ")";
    std::string causes;
    size_t listed = 0;
    for (const TimeGapPart& part : breakdown.parts) {
        if (part.cause == GapCause::Residual || listed == 3 || part.deltaUs == 0)
            continue;
        causes += (causes.empty() ? "" : ", ") + part.label + " " + signedDuration(part.deltaUs * sign);
        ++listed;
    }
    return text + (causes.empty() ? "." : ": " + causes + ".") + likeForLike(breakdown);
}

bool isBookkeeping(GapCause cause)
{
    return cause == GapCause::Residual || cause == GapCause::NotCompared || cause == GapCause::Unattributed
        || cause == GapCause::Overlap || cause == GapCause::NotRecorded;
}

// "A (x) is slower than B (y) by 307 ms (2.2x) in step time (a vs b, n steps): the GPU waits while
// the host runs f +220 ms, collectives +51.8 ms, ...; in GPU kernel time A is slower by 57.3 ms (24.6%)."
std::string stepTimeVerdict(const TimeGapBreakdown& steps, const TimeGapBreakdown& kernelTime,
    const std::array<std::string, 2>& names, std::array<bool, 2> launchHidden)
{
    const auto shareText = [](const TimeGapBreakdown& breakdown) {
        const double slow = std::max(breakdown.timeUs[0], breakdown.timeUs[1]);
        const double fast = std::min(breakdown.timeUs[0], breakdown.timeUs[1]);
        if (fast > 0 && slow >= 2 * fast)
            return fixed(slow / fast, 1) + "x";
        return fixed(breakdown.share() * 100, 1) + "%";
    };
    std::string text;
    if (steps.deltaUs == 0) {
        text = "A (" + names[0] + ") and B (" + names[1] + ") take the same step time ("
            + formatDuration(steps.timeUs[0]) + ")";
    } else if (withinNoise(steps)) {
        text = "A (" + names[0] + ") and B (" + names[1] + ") take the same step time within run-to-run noise"
            + noiseText(steps);
    } else {
        const Side slow = steps.slowerSide();
        const size_t s = sideIndex(slow);
        const size_t f = sideIndex(otherSide(slow));
        const double sign = slow == Side::Trace1 ? 1.0 : -1.0;
        text = std::string(sideLetter(slow)) + " (" + names[s] + ") is slower than " + sideLetter(otherSide(slow))
            + " (" + names[f] + ") by " + formatDuration(std::fabs(steps.deltaUs)) + " (" + shareText(steps)
            + ") in step time (" + formatDuration(steps.timeUs[s]) + " vs " + formatDuration(steps.timeUs[f])
            + notRecordedText(steps) + ")";
        std::string causes;
        size_t listed = 0;
        // The sentence names causes: not the parts that only keep the books (what was not compared
        // or not recorded, overlap, the residual). Extra kernels and speed that work against each
        // other are one cause, the paired operations' GPU work, named by what they add together.
        double fusion = 0;
        double speed = 0;
        double launch = 0;
        for (const TimeGapPart& part : steps.parts) {
            fusion += part.cause == GapCause::Fusion ? part.deltaUs : 0.0;
            speed += part.cause == GapCause::Speed ? part.deltaUs : 0.0;
            launch += part.cause == GapCause::IdleLaunch ? part.deltaUs : 0.0;
        }
        // A side whose trace folds its launch bubbles into its kernels' durations shows less launch
        // idle and slower kernels than it had: the two are one cause there, named by their sum.
        const bool launchWithSpeed = (launchHidden[0] || launchHidden[1]) && launch != 0;
        // (when they take back a quarter of each other or more: a small offset leaves the larger a cause).
        const bool offsetting = !launchWithSpeed && fusion * speed < 0
            && std::min(std::fabs(fusion), std::fabs(speed)) >= 0.25 * std::max(std::fabs(fusion), std::fabs(speed));
        const std::string hiddenOn = launchHidden[0] && launchHidden[1] ? "A's and B's traces"
            : launchHidden[0]                                           ? "A's trace"
                                                                        : "B's trace";
        bool pairedNamed = false;
        for (const TimeGapPart& part : steps.parts) {
            const bool paired = (offsetting && (part.cause == GapCause::Fusion || part.cause == GapCause::Speed))
                || (launchWithSpeed && (part.cause == GapCause::IdleLaunch || part.cause == GapCause::Speed));
            const double delta = !paired ? part.deltaUs : launchWithSpeed ? launch + speed : fusion + speed;
            if (isBookkeeping(part.cause) || (paired && pairedNamed) || listed == 3 || delta * sign <= 0
                || delta * sign < kListedShare * std::fabs(steps.deltaUs))
                continue;
            if (paired) {
                pairedNamed = true;
                causes += causes.empty() ? "" : ", ";
                if (launchWithSpeed)
                    causes += "late starts after launches and the kernels' speed, which " + hiddenOn
                        + " cannot tell apart, " + signedDuration(delta * sign) + " (launch "
                        + signedDuration(launch * sign) + ", speed " + signedDuration(speed * sign) + ")";
                else
                    causes += "the paired operations' GPU work " + signedDuration(delta * sign) + " (extra kernels "
                        + signedDuration(fusion * sign) + ", speed " + signedDuration(speed * sign) + ")";
                ++listed;
                continue;
            }
            std::string label = part.label;
            if (part.cause == GapCause::IdleHost)
                label = "the GPU waits while the host runs code";
            else if (part.cause == GapCause::IdleSync)
                label = "the host waits for the GPU";
            else if (part.cause == GapCause::IdleLaunch)
                label = "late starts after launches";
            std::string largest;
            if ((part.cause == GapCause::IdleHost || part.cause == GapCause::IdleSync
                    || part.cause == GapCause::IdleLaunch)
                && !part.top.empty() && part.top.front().deltaUs * sign > 0)
                largest
                    = " (most: " + part.top.front().name + " " + signedDuration(part.top.front().deltaUs * sign) + ")";
            causes += causes.empty() ? "" : ", ";
            causes += label + " " + signedDuration(part.deltaUs * sign);
            causes += largest;
            ++listed;
        }
        text += causes.empty() ? "" : ": " + causes;
        if (steps.noise.verdict == NoiseVerdict::CannotTell)
            text += "; whether that is more than run-to-run noise cannot be told with " + steps.noise.fewSteps;
    }
    if (kernelTime.deltaUs == 0)
        return text + "; in GPU kernel time they are the same.";
    if (withinNoise(kernelTime))
        return text + "; in GPU kernel time they are the same within run-to-run noise" + noiseText(kernelTime) + ".";
    return text + "; in GPU kernel time " + sideLetter(kernelTime.slowerSide()) + " is slower by "
        + formatDuration(std::fabs(kernelTime.deltaUs)) + " (" + shareText(kernelTime) + notRecordedText(kernelTime)
        + ").";
}

} // namespace

std::string timeGapVerdict(
    const TimeGap& gap, const std::array<std::string, 2>& names, std::array<bool, 2> launchHidden)
{
    return gap.onStepTime && gap.stepTime ? stepTimeVerdict(*gap.stepTime, gap.kernelTime, names, launchHidden)
                                          : kernelTimeVerdict(gap.kernelTime, names);
}

} // namespace fusiondiff
