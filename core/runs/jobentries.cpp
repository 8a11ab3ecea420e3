#include "runs/jobentries.h"

#include "model/fusionreport.h"
#include "model/jobreport.h"
#include "ops/timegap/lookfirst.h"
#include "ops/timegap/significance.h"
#include "util/textformat.h"

#include <algorithm>
#include <cmath>
#include <optional>

namespace fusiondiff {

namespace {

// The detailed rank's wait and transfer in every call of `collective` the job matched, per side.
std::array<std::array<double, 2>, 2> detailedWaitAndTransfer(const JobReport& job, const std::string& collective)
{
    std::array<std::array<double, 2>, 2> out {};
    for (size_t s = 0; s < 2; ++s) {
        const int32_t rank = job.detailedPair[s];
        const JobSide& side = job.sides[s];
        if (rank < 0 || size_t(rank) >= side.ranks.size())
            continue;
        for (const CollectiveInstance& instance : side.instances) {
            if (instance.collective != collective || !instance.member[size_t(rank)])
                continue;
            out[s][0] += instance.waitUs[size_t(rank)];
            out[s][1] += instance.transferUs[size_t(rank)];
        }
    }
    return out;
}

// The side slower overall, unless the headline's gap is none or within noise.
std::optional<Side> slowerOverall(const FusionReport& report)
{
    const TimeGapBreakdown& gap = report.timeGap.headline();
    if (gap.deltaUs == 0 || gap.noise.verdict == NoiseVerdict::WithinNoise)
        return std::nullopt;
    return gap.slowerSide();
}

constexpr const char* kOtherWay = "works the other way: ";

} // namespace

void readCollectiveEntriesAgainstWaits(FusionReport& report, const JobReport& job)
{
    const std::optional<Side> slower = slowerOverall(report);
    bool changed = false;
    for (LookFirstEntry& entry : report.whereToLookFirst) {
        if (entry.kind != LookFirstKind::Collective)
            continue;
        const std::array<std::array<double, 2>, 2> measured = detailedWaitAndTransfer(job, entry.op);
        std::array<double, 2> waitUs {};
        bool matched = true;
        for (size_t s = 0; s < 2; ++s) {
            const double total = measured[s][0] + measured[s][1];
            matched = matched && total > 0;
            if (total > 0)
                waitUs[s] = entry.timeUs[s] * measured[s][0] / total;
        }
        if (!matched || (waitUs[0] == 0 && waitUs[1] == 0))
            continue;
        changed = true;
        const std::array<double, 2> kernelUs = entry.timeUs;
        entry.timeUs = { kernelUs[0] - waitUs[0], kernelUs[1] - waitUs[1] };
        const double delta = entry.timeUs[0] - entry.timeUs[1];
        entry.stakeUs = std::fabs(delta);
        entry.slowerSide = delta >= 0 ? Side::Trace1 : Side::Trace2;
        entry.savingUs = entry.stakeUs;
        entry.savingSpeedUs = entry.stakeUs;
        entry.savingExtraKernelsUs = 0;
        entry.title = entry.op + ": the transfer after the last rank arrives, " + report.sideNames[0] + " "
            + formatDuration(entry.timeUs[0]) + " vs " + report.sideNames[1] + " " + formatDuration(entry.timeUs[1])
            + " (of " + formatDuration(kernelUs[0]) + " vs " + formatDuration(kernelUs[1]) + " of its kernels)";
        std::erase_if(entry.details, [](const std::string& line) { return line.rfind(kOtherWay, 0) == 0; });
        entry.details.insert(entry.details.begin(),
            "the rest of its kernels' time is this rank waiting for the last rank to arrive: " + report.sideNames[0]
                + " " + formatDuration(waitUs[0]) + ", " + report.sideNames[1] + " " + formatDuration(waitUs[1])
                + "; a rank that arrives late waits less, and what the others wait for it is its straggler entry, "
                  "not a difference in the collective");
        const GapNoise noise = judgeDelta(delta, entry.timeUs, 0, "floor");
        entry.noise = noise.verdict;
        entry.noiseUs = noise.noiseUs;
        if (noise.verdict == NoiseVerdict::WithinNoise)
            entry.title += " (within run-to-run noise (±" + formatDuration(noise.noiseUs) + "))";
        entry.againstGap = slower && entry.stakeUs > 0 && entry.slowerSide != *slower;
        if (entry.againstGap)
            entry.details.insert(entry.details.begin(),
                kOtherWay + report.sideName(entry.slowerSide) + " is slower here by " + formatDuration(entry.stakeUs)
                    + ", while " + report.sideName(*slower) + " is slower overall");
    }
    if (!changed)
        return;
    orderWhereToLookFirst(report.whereToLookFirst);
}

} // namespace fusiondiff
