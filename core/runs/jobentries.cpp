#include "runs/jobentries.h"

#include "model/fusionreport.h"
#include "model/jobreport.h"
#include "ops/timegap/lookfirst.h"
#include "ops/timegap/significance.h"
#include "util/textformat.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

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

// Jobs whose times differ by less than this take the same time.
constexpr double kSameJobTimeUs = 0.5;

// boundRankEntriesByTheJob for the entries slower on side `slow`, through whose detailed rank
// that job lost `lostUs`; whether any changed.
bool boundEntriesOfOneSide(FusionReport& report, const JobReport& job, size_t slow, double lostUs)
{
    const int32_t rank = job.detailedPair[slow];
    const auto row = std::find_if(job.rankTimes.begin(), job.rankTimes.end(),
        [&](const RankTimeRow& r) { return r.rank[slow] == rank && r.rank[1 - slow] >= 0; });
    if (row == job.rankTimes.end())
        return false;
    const auto ofTheRank = [slow](const LookFirstEntry& entry) {
        return entry.kind != LookFirstKind::Straggler && sideIndex(entry.slowerSide) == slow && entry.stakeUs > 0;
    };
    double rankUs = 0;
    for (const LookFirstEntry& entry : report.whereToLookFirst)
        rankUs += ofTheRank(entry) ? entry.stakeUs : 0.0;
    if (rankUs <= lostUs)
        return false;
    const double share = lostUs / rankUs;
    const std::string rankWords = "rank " + std::to_string(rank) + " of " + (slow == 0 ? "A" : "B");
    // Where the rest went: into shorter waits at collectives, else into the rank's own idle (a
    // launch-bound GPU runs slower kernels in time it waited anyway) or nowhere the job waited.
    const double absorbedUs = row->collectiveWaitUs[1 - slow] - row->collectiveWaitUs[slow];
    const std::string rest = absorbedUs > 0
        ? "; its waits at collectives shrank " + formatDuration(absorbedUs)
            + " (the other ranks were later anyway), and took the rest"
        : "; the rest did not hold the job up: its steps took " + formatDuration(row->stepMedianUs[slow]) + " against "
            + formatDuration(row->stepMedianUs[1 - slow]) + " (medians), the time moved between its own causes";
    for (LookFirstEntry& entry : report.whereToLookFirst) {
        if (!ofTheRank(entry))
            continue;
        const double ownUs = entry.stakeUs;
        entry.stakeUs *= share;
        entry.savingUs *= share;
        entry.savingSpeedUs *= share;
        entry.savingExtraKernelsUs *= share;
        std::string line = "at stake in the job: " + formatDuration(entry.stakeUs) + " of the " + formatDuration(ownUs);
        line += " " + rankWords + " spends more here: the job lost " + formatDuration(lostUs);
        line += " through " + rankWords + ", whose entries add up to " + formatDuration(rankUs);
        line += rest;
        entry.details.insert(entry.details.begin(), std::move(line));
    }
    return true;
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

void boundRankEntriesByTheJob(FusionReport& report, const JobReport& job)
{
    const double gapUs = std::fabs(job.timeUs[1] - job.timeUs[0]);
    const size_t slower = job.timeUs[1] > job.timeUs[0] ? 1 : 0;
    bool changed = false;
    for (size_t slow = 0; slow < 2; ++slow) {
        // The slower job lost at most the gap through a rank, and at most its straggler stake where
        // the rank is its straggler; the faster job, and jobs that take the same time, lost nothing
        // but a straggler stake of the rank's own.
        const bool slowerJob = gapUs >= kSameJobTimeUs && slow == slower;
        double lostUs = slowerJob ? gapUs : 0.0;
        for (const Straggler& straggler : job.stragglers) {
            if (sideIndex(straggler.slowerSide) == slow && straggler.rank == job.detailedPair[slow])
                lostUs = slowerJob ? std::min(lostUs, straggler.stakeUs) : straggler.stakeUs;
        }
        changed = boundEntriesOfOneSide(report, job, slow, lostUs) || changed;
    }
    if (changed)
        orderWhereToLookFirst(report.whereToLookFirst);
}

} // namespace fusiondiff
