#include "runs/jobentries.h"

#include "model/fusionreport.h"
#include "model/jobreport.h"
#include "ops/timegap/lookfirst.h"
#include "ops/timegap/significance.h"
#include "util/textformat.h"

#include <algorithm>
#include <cmath>

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

} // namespace

void readCollectiveEntriesAgainstWaits(FusionReport& report, const JobReport& job)
{
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
        // First among the details (push_back and rotate: GCC 12 takes an insert at the front here for
        // a null dereference).
        entry.details.push_back(
            "the rest of its kernels' time is this rank waiting for the last rank to arrive: " + report.sideNames[0]
            + " " + formatDuration(waitUs[0]) + ", " + report.sideNames[1] + " " + formatDuration(waitUs[1])
            + "; a rank that arrives late waits less, and what the others wait for it is its straggler entry, "
              "not a difference in the collective");
        std::rotate(entry.details.begin(), entry.details.end() - 1, entry.details.end());
        const GapNoise noise = judgeDelta(delta, entry.timeUs, 0, "floor");
        entry.noise = noise.verdict;
        entry.noiseUs = noise.noiseUs;
        if (noise.verdict == NoiseVerdict::WithinNoise)
            entry.title += " (within run-to-run noise (±" + formatDuration(noise.noiseUs) + "))";
        markEntryAgainstTheGap(report, entry);
    }
    if (!changed)
        return;
    orderWhereToLookFirst(report.whereToLookFirst);
}

} // namespace fusiondiff
