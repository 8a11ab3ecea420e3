#include "runs/jobcompare.h"

#include "model/fusionreport.h"
#include "ops/timegap/lookfirst.h"
#include "runs/jobentries.h"
#include "runs/jobside.h"
#include "runs/jobsteps.h"
#include "runs/rankroles.h"
#include "util/plural.h"
#include "util/textformat.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <iterator>
#include <limits>
#include <map>

namespace fusiondiff {

namespace {

// Per rank of a side, over its compared steps: wait and transfer of the calls in them.
std::array<std::vector<double>, 2> waitAndTransfer(const JobSide& side, const ComparedJobSteps& steps, size_t s)
{
    std::array<std::vector<double>, 2> out { std::vector<double>(side.ranks.size(), 0.0),
        std::vector<double>(side.ranks.size(), 0.0) };
    for (const CollectiveInstance& instance : side.instances) {
        if (!steps.compared(s, instance.step))
            continue;
        for (size_t r = 0; r < side.ranks.size(); ++r) {
            out[0][r] += instance.waitUs[r];
            out[1][r] += instance.transferUs[r];
        }
    }
    return out;
}

RankTimeRow rankTimeRow(
    const std::array<const JobSide*, 2>& sides, std::array<int32_t, 2> pair, const ComparedJobSteps& steps)
{
    RankTimeRow row;
    row.rank = pair;
    for (size_t s = 0; s < 2; ++s) {
        if (pair[s] < 0)
            continue;
        const JobSide& side = *sides[s];
        const RankSummary& rank = side.ranks[size_t(pair[s])];
        std::vector<double> times;
        std::vector<double> busy;
        size_t compared = 0;
        for (size_t i = 0; i < rank.steps.size(); ++i)
            compared += steps.compared(s, int32_t(i)) ? 1 : 0;
        for (size_t i = 0; i < rank.steps.size(); ++i) {
            if (!steps.compared(s, int32_t(i)))
                continue;
            times.push_back(rank.steps[i].timeUs());
            busy.push_back(rank.steps[i].busyUs);
            for (size_t c = 0; c < kIdleCauses; ++c)
                row.idleByCauseUs[s][c] += rank.steps[i].idleUs[c] / double(compared);
            if (i < side.steps.size() && side.steps[i].straggler == pair[s])
                ++row.stepsLastToArrive[s];
        }
        row.stepMedianUs[s] = medianOf(times);
        row.busyUs[s] = medianOf(busy);
        const std::array<std::vector<double>, 2> collective = waitAndTransfer(side, steps, s);
        row.collectiveWaitUs[s] = collective[0][size_t(pair[s])];
        row.collectiveTransferUs[s] = collective[1][size_t(pair[s])];
    }
    return row;
}

std::vector<RankCollectiveRow> collectiveRows(const std::array<const JobSide*, 2>& sides, const ComparedJobSteps& steps)
{
    using Key = std::tuple<std::string, std::string, int64_t>;
    std::map<Key, RankCollectiveRow> rows;
    std::map<Key, std::array<std::map<int32_t, uint64_t>, 2>> lastCounts;
    for (size_t s = 0; s < 2; ++s) {
        for (const CollectiveInstance& instance : sides[s]->instances) {
            if (!steps.compared(s, instance.step))
                continue;
            const Key key { instance.collective, instance.group, instance.messageBytes };
            RankCollectiveRow& row = rows[key];
            row.collective = instance.collective;
            row.group = instance.group;
            row.messageBytes = instance.messageBytes;
            ++row.calls[s];
            for (size_t r = 0; r < instance.waitUs.size(); ++r) {
                row.waitUs[s] += instance.waitUs[r];
                row.transferUs[s] += instance.transferUs[r];
            }
            ++lastCounts[key][s][sides[s]->ranks[size_t(instance.lastRank)].rank];
        }
    }
    std::vector<RankCollectiveRow> out;
    for (auto& [key, row] : rows) {
        for (size_t s = 0; s < 2; ++s) {
            for (const auto& [rank, count] : lastCounts[key][s]) {
                if (count > row.lastRankCalls[s]) {
                    row.lastRank[s] = rank;
                    row.lastRankCalls[s] = count;
                }
            }
        }
        out.push_back(std::move(row));
    }
    std::stable_sort(out.begin(), out.end(), [](const RankCollectiveRow& a, const RankCollectiveRow& b) {
        return std::max(a.waitUs[0], a.waitUs[1]) > std::max(b.waitUs[0], b.waitUs[1]);
    });
    return out;
}

// The pace rank's parts of each compared step, summed: they add up to the job's time.
void jobParts(JobReport& job, const ComparedJobSteps& steps)
{
    job.partKeys = { "gpu_busy" };
    for (size_t c = 0; c < kIdleCauses; ++c)
        job.partKeys.emplace_back(idleCauseKey(IdleCause(c)));
    job.partKeys.insert(job.partKeys.end(), { "collective_wait", "collective_transfer", "rank_skew" });
    for (size_t s = 0; s < 2; ++s) {
        const JobSide& side = job.sides[s];
        std::vector<double>& parts = job.partsUs[s];
        parts.assign(job.partKeys.size(), 0.0);
        for (size_t i = 0; i < side.steps.size(); ++i) {
            if (!steps.compared(s, int32_t(i)))
                continue;
            const JobStep& step = side.steps[i];
            const auto pace = size_t(step.paceRank);
            const StepRecord& record = side.ranks[pace].steps[i];
            double wait = 0;
            double transfer = 0;
            for (const CollectiveInstance& instance : side.instances) {
                if (instance.step == int32_t(i)) {
                    wait += instance.waitUs[pace];
                    transfer += instance.transferUs[pace];
                }
            }
            const double busy = std::max(0.0, record.busyUs - wait - transfer);
            parts[0] += busy;
            for (size_t c = 0; c < kIdleCauses; ++c)
                parts[1 + c] += record.idleUs[c];
            parts[1 + kIdleCauses] += wait;
            parts[2 + kIdleCauses] += transfer;
            parts[3 + kIdleCauses] += step.timeUs - busy - record.idleTotalUs() - wait - transfer;
            job.timeUs[s] += step.timeUs;
        }
    }
}

// What one rank's step holds more than another's: kernel time by type (collectives left out),
// idle by cause, host-caused idle by host code.
void addStepDelta(std::map<std::string, double>& delta, const RankSummary& slow, size_t slowStep,
    const RankSummary& typical, size_t typicalStep)
{
    for (const NamedTime& type : slow.stepKernelTypesUs[slowStep])
        delta[type.name + " kernels"] += type.timeUs;
    for (const NamedTime& type : typical.stepKernelTypesUs[typicalStep])
        delta[type.name + " kernels"] -= type.timeUs;
    for (size_t c = 0; c < kIdleCauses; ++c) {
        const std::string key = std::string("GPU idle (") + idleCauseKey(IdleCause(c)) + ")";
        delta[key] += slow.steps[slowStep].idleUs[c] - typical.steps[typicalStep].idleUs[c];
    }
    for (const NamedTime& code : slow.stepHostIdleUs[slowStep])
        delta["host code " + code.name] += code.timeUs;
    for (const NamedTime& code : typical.stepHostIdleUs[typicalStep])
        delta["host code " + code.name] -= code.timeUs;
}

// The largest of what the straggler holds more, in words: "GEMM kernels +1.2 ms a step; ...".
std::string deltaWords(const std::map<std::string, double>& delta, size_t steps, const std::string& against)
{
    std::vector<std::pair<double, std::string>> larger;
    for (const auto& [what, us] : delta) {
        if (us > 0)
            larger.emplace_back(us, what);
    }
    std::sort(larger.begin(), larger.end(), std::greater<>());
    if (larger.empty() || steps == 0)
        return "no more kernel or idle time than " + against + ": it starts its steps late";
    std::string out;
    for (size_t i = 0; i < larger.size() && i < 3; ++i) {
        if (i > 0 && larger[i].first < 0.1 * larger[0].first)
            break;
        out += (out.empty() ? "" : "; ") + larger[i].second + " +" + formatDuration(larger[i].first / double(steps))
            + " a step";
    }
    return out + " (against " + against + ")";
}

// The straggler's cause: against the same rank of the other job where the ranks pair (what
// changed), and against the median rank of the steps it holds up (what sets it apart).
void describeCause(const JobReport& job, size_t slowSide, size_t rankIndex, const ComparedJobSteps& steps, bool paired,
    Straggler& straggler)
{
    const JobSide& side = job.sides[slowSide];
    std::map<std::string, double> againstMedian;
    std::map<std::string, double> againstOther;
    size_t counted = 0;
    for (size_t i = 0; i < side.steps.size(); ++i) {
        if (!steps.compared(slowSide, int32_t(i)))
            continue;
        const JobStep& step = side.steps[i];
        if (rankIndex >= step.delayUs.size() || step.delayUs[rankIndex] <= 0 || step.medianRank < 0)
            continue;
        ++counted;
        addStepDelta(againstMedian, side.ranks[rankIndex], i, side.ranks[size_t(step.medianRank)], i);
        if (paired)
            addStepDelta(againstOther, side.ranks[rankIndex], i, job.sides[1 - slowSide].ranks[rankIndex],
                size_t(steps.partner[slowSide][i]));
    }
    const std::string rank = "rank " + std::to_string(side.ranks[rankIndex].rank);
    straggler.causeAgainstMedian = deltaWords(
        againstMedian, counted, "the median rank of " + std::to_string(counted) + (counted == 1 ? " step" : " steps"));
    straggler.cause = paired ? deltaWords(againstOther, counted, rank + " of " + (slowSide == 0 ? "B" : "A"))
                             : straggler.causeAgainstMedian;
}

// Per rank number: what its late arrivals cost the job over the compared steps (at each call it
// arrives last at, its arrival minus the next latest member's) and the steps it arrives last in.
// The ranks `onTime` marks (indices) count as arriving with the others: what their lateness masks
// of another rank's counts as that rank's.
std::map<int32_t, std::pair<double, uint64_t>> rankDelays(
    const JobSide& side, const ComparedJobSteps& steps, size_t s, const std::vector<bool>& onTime)
{
    std::map<int32_t, std::pair<double, uint64_t>> out;
    std::map<int32_t, std::vector<bool>> lateIn;
    for (const CollectiveInstance& instance : side.instances) {
        if (!steps.compared(s, instance.step))
            continue;
        size_t last = SIZE_MAX;
        double nextLatest = std::numeric_limits<double>::lowest();
        for (size_t r = 0; r < instance.member.size(); ++r) {
            if (!instance.member[r] || (r < onTime.size() && onTime[r]))
                continue;
            if (last == SIZE_MAX || instance.arrivalUs[r] > instance.arrivalUs[last]) {
                if (last != SIZE_MAX)
                    nextLatest = std::max(nextLatest, instance.arrivalUs[last]);
                last = r;
            } else {
                nextLatest = std::max(nextLatest, instance.arrivalUs[r]);
            }
        }
        if (last == SIZE_MAX || nextLatest == std::numeric_limits<double>::lowest()
            || instance.arrivalUs[last] <= nextLatest)
            continue;
        auto& entry = out[side.ranks[last].rank];
        entry.first += instance.arrivalUs[last] - nextLatest;
        std::vector<bool>& counted = lateIn[side.ranks[last].rank];
        counted.resize(side.steps.size(), false);
        if (!counted[size_t(instance.step)]) {
            counted[size_t(instance.step)] = true;
            ++entry.second;
        }
    }
    return out;
}

// Per rank (index): its own time before each call of the compared steps, from the end of its
// previous call (which ends on every member at once), or from the job's first step's start (a
// rank that starts late is late), to its arrival, summed. It is the rank's own work and stalls between its collectives:
// what other ranks' lateness does to the next latest arrival does not move it.
std::vector<double> ownTimeBeforeCalls(const JobSide& side, const ComparedJobSteps& steps, size_t s)
{
    std::vector<double> out(side.ranks.size(), 0.0);
    double jobBegin = std::numeric_limits<double>::max();
    for (size_t r = 0; r < side.ranks.size(); ++r) {
        if (!side.ranks[r].steps.empty() && r < side.clockOffsetUs.size())
            jobBegin = std::min(jobBegin, side.ranks[r].steps.front().begin - side.clockOffsetUs[r]);
    }
    std::vector<double> previousEnd(side.ranks.size(),
        jobBegin == std::numeric_limits<double>::max() ? std::numeric_limits<double>::quiet_NaN() : jobBegin);
    for (const CollectiveInstance& instance : side.instances) {
        for (size_t r = 0; r < instance.member.size() && r < out.size(); ++r) {
            if (!instance.member[r])
                continue;
            if (steps.compared(s, instance.step) && !std::isnan(previousEnd[r]))
                out[r] += std::max(0.0, instance.arrivalUs[r] - previousEnd[r]);
            previousEnd[r] = instance.endUs[r];
        }
    }
    return out;
}

void findStragglers(JobReport& job, const ComparedJobSteps& steps)
{
    const std::array<std::map<int32_t, std::pair<double, uint64_t>>, 2> delay { rankDelays(job.sides[0], steps, 0, {}),
        rankDelays(job.sides[1], steps, 1, {}) };
    const bool paired = job.sides[0].worldSize == job.sides[1].worldSize;
    const size_t slowerJob = job.timeUs[1] > job.timeUs[0] ? 1 : 0;
    const double jobGap = std::fabs(job.timeUs[1] - job.timeUs[0]);
    const std::array<std::vector<double>, 2> ownTime { ownTimeBeforeCalls(job.sides[0], steps, 0),
        ownTimeBeforeCalls(job.sides[1], steps, 1) };
    // The slower job's stragglers: the ranks it waits for longer than the other job does.
    std::vector<bool> slowerJobStragglers(job.sides[slowerJob].ranks.size(), false);
    for (const auto& [rank, own] : delay[slowerJob]) {
        const auto other = delay[1 - slowerJob].find(rank);
        if (size_t(rank) < slowerJobStragglers.size()
            && own.first > (paired && other != delay[1 - slowerJob].end() ? other->second.first : 0.0))
            slowerJobStragglers[size_t(rank)] = true;
    }
    for (size_t s = 0; s < 2; ++s) {
        for (const auto& [rank, own] : delay[s]) {
            const auto other = delay[1 - s].find(rank);
            double otherDelay = paired && other != delay[1 - s].end() ? other->second.first : 0.0;
            // A rank of the faster job that the slower job's stragglers arrive after: its lateness
            // is there too, only hidden behind theirs, and is no difference between the jobs.
            if (paired && s != slowerJob && size_t(rank) < slowerJobStragglers.size()) {
                std::vector<bool> onTime = slowerJobStragglers;
                onTime[size_t(rank)] = false;
                const auto masked = rankDelays(job.sides[1 - s], steps, 1 - s, onTime);
                const auto unmasked = masked.find(rank);
                if (unmasked != masked.end())
                    otherDelay = std::max(otherDelay, unmasked->second.first);
            }
            // The slower job's straggler cannot make it slower than it is: a rank that waits for
            // the others less in the faster job (its lateness halved there by a rank that got
            // later, yet hidden behind it) is no straggler of the slower one.
            double stake = s == slowerJob ? std::min(own.first - otherDelay, jobGap) : own.first - otherDelay;
            // A straggler of the faster job at most by as much as its own time between its
            // collectives grew against the other job: a rank that runs as it did, whose delay the
            // slower job's lateness changed (hidden behind a later rank, or the next latest
            // arrival moved), is no difference between the jobs.
            if (paired && s != slowerJob && size_t(rank) < ownTime[s].size() && size_t(rank) < ownTime[1 - s].size())
                stake = std::min(stake, ownTime[s][size_t(rank)] - ownTime[1 - s][size_t(rank)]);
            if (stake <= 0)
                continue;
            Straggler straggler;
            straggler.slowerSide = s == 0 ? Side::Trace1 : Side::Trace2;
            straggler.rank = rank;
            straggler.delayUs[s] = own.first;
            straggler.delayUs[1 - s] = otherDelay;
            straggler.stakeUs = stake;
            straggler.steps = own.second;
            describeCause(job, s, size_t(rank), steps, paired, straggler);
            job.stragglers.push_back(std::move(straggler));
        }
    }
    // Those of the slower job first: a rank that the faster job waits for longer (its lateness
    // masked on the slower side by a later rank, as when one rank of a copy is slowed) does not
    // explain the gap, however large its stake, and must not become the default pair.
    std::stable_sort(job.stragglers.begin(), job.stragglers.end(), [slowerJob](const Straggler& a, const Straggler& b) {
        const bool aExplains = sideIndex(a.slowerSide) == slowerJob;
        const bool bExplains = sideIndex(b.slowerSide) == slowerJob;
        if (aExplains != bExplains)
            return aExplains;
        return a.stakeUs > b.stakeUs;
    });
}

// " waits for its rank N": the rank of the other job that `rank` of side `slow` pairs with (by
// number, or by role where the world sizes differ).
std::string partnerWords(const JobReport& job, size_t slow, int32_t rank)
{
    const auto pair = std::find_if(job.rankPairs.begin(), job.rankPairs.end(),
        [&](const std::array<int32_t, 2>& p) { return p[slow] == rank && p[1 - slow] >= 0; });
    if (pair == job.rankPairs.end())
        return " job waits for its ranks (no rank there pairs with it)";
    return " waits for its rank " + std::to_string((*pair)[1 - slow]);
}

// Where job_steps names another rank of the same side as a step's straggler than this entry's
// rank: which and why, so that the table and the entries do not seem to disagree; "" otherwise.
// A step's straggler is the rank the job waits for longest in it; an entry's is a rank the job
// waits for longer than the other job does. A rank late alike in both jobs (the job's own skew) is
// the first and no entry.
std::string stepStragglerWords(const JobReport& job, const Straggler& straggler)
{
    const size_t slow = sideIndex(straggler.slowerSide);
    std::map<int32_t, uint64_t> others;
    for (const JobStepRow& row : job.steps) {
        if (row.straggler[slow] >= 0 && row.straggler[slow] != straggler.rank)
            ++others[row.straggler[slow]];
    }
    if (others.empty())
        return {};
    const auto most = std::max_element(
        others.begin(), others.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
    const std::string side = slow == 0 ? "A" : "B";
    std::string out = "job_steps names rank " + std::to_string(most->first) + " of " + side + " in "
        + std::to_string(most->second) + " of " + countedNoun(job.steps.size(), "step", "steps")
        + " (the rank the job waits for longest there)";
    const bool ownEntry = std::any_of(job.stragglers.begin(), job.stragglers.end(),
        [&](const Straggler& other) { return other.rank == most->first && other.slowerSide == straggler.slowerSide; });
    if (ownEntry)
        return out + ": it has an entry of its own";
    return out + ", but " + (slow == 0 ? "B" : "A")
        + "'s job waits for it as long: the job's own skew, no difference; rank " + std::to_string(straggler.rank)
        + " is the one that got later";
}

} // namespace

JobReport compareJobs(std::array<JobSide, 2> sides, std::vector<std::string> notes)
{
    JobReport job;
    job.sides = std::move(sides);
    job.notes = std::move(notes);
    const std::array<int32_t, 2> sizes { job.sides[0].worldSize, job.sides[1].worldSize };
    const int32_t most = std::max(sizes[0], sizes[1]);
    if (sizes[0] == sizes[1]) {
        job.pairing = "ranks paired by number: " + std::to_string(sizes[0]) + " pairs";
        for (int32_t r = 0; r < most; ++r)
            job.rankPairs.push_back({ r, r });
    } else if (RolePairing roles = pairRanksByRole(job.sides[0], job.sides[1]); !roles.pairs.empty()) {
        job.pairing = std::move(roles.words);
        job.rankPairs = std::move(roles.pairs);
    } else {
        job.pairing = "world sizes differ (A " + std::to_string(sizes[0]) + ", B " + std::to_string(sizes[1])
            + "): compared as jobs, ranks not paired";
        for (int32_t r = 0; r < most; ++r)
            job.rankPairs.push_back({ r < sizes[0] ? r : -1, r < sizes[1] ? r : -1 });
    }
    const ComparedJobSteps steps = pairJobSteps(job.sides, job.notes);
    for (size_t p = 0; p < steps.pairs.size(); ++p) {
        JobStepRow row;
        row.step = uint32_t(steps.pairs[p][0]);
        row.trace2Step = uint32_t(steps.pairs[p][1]);
        row.phase = steps.phaseOfPair[p];
        for (size_t s = 0; s < 2; ++s) {
            const JobStep& step = job.sides[s].steps[size_t(steps.pairs[p][s])];
            row.timeUs[s] = step.timeUs;
            row.paceRank[s] = job.sides[s].ranks[size_t(step.paceRank)].rank;
            row.straggler[s] = step.straggler < 0 ? -1 : job.sides[s].ranks[size_t(step.straggler)].rank;
            row.stragglerDelayUs[s] = step.stragglerDelayUs;
        }
        job.steps.push_back(row);
    }
    job.phases = jobPhaseRows(job.steps, steps.phases);
    jobParts(job, steps);
    const std::array<const JobSide*, 2> both { &job.sides[0], &job.sides[1] };
    for (const std::array<int32_t, 2>& pair : job.rankPairs)
        job.rankTimes.push_back(rankTimeRow(both, pair, steps));
    job.collectives = collectiveRows(both, steps);
    findStragglers(job, steps);
    if (!job.stragglers.empty())
        job.detailedPair = { job.stragglers.front().rank, job.stragglers.front().rank };
    if (sizes[0] != sizes[1] && !job.stragglers.empty()) {
        // The straggler's partner by role where the ranks pair by role, else the other side's rank 0.
        const Straggler& first = job.stragglers.front();
        const size_t slow = first.slowerSide == Side::Trace1 ? 0 : 1;
        const auto partner = std::find_if(job.rankPairs.begin(), job.rankPairs.end(),
            [&](const std::array<int32_t, 2>& pair) { return pair[slow] == first.rank && pair[1 - slow] >= 0; });
        job.detailedPair[1 - slow] = partner != job.rankPairs.end() ? (*partner)[1 - slow] : 0;
    }
    return job;
}

void addJobToReport(FusionReport& report, std::shared_ptr<const JobReport> job)
{
    readCollectiveEntriesAgainstWaits(report, *job);
    boundRankEntriesByTheJob(report, *job);
    // The stragglers go in front, so that one whose stake equals an entry of its own rank's (all
    // that rank's growth the job lost) comes before it: the rank first, then what it spends more on.
    std::vector<LookFirstEntry> stragglerEntries;
    for (const Straggler& straggler : job->stragglers) {
        const size_t slow = straggler.slowerSide == Side::Trace1 ? 0 : 1;
        LookFirstEntry entry;
        entry.kind = LookFirstKind::Straggler;
        entry.rank = straggler.rank;
        entry.slowerSide = straggler.slowerSide;
        entry.timeUs = straggler.delayUs;
        entry.stakeUs = straggler.stakeUs;
        entry.op = "rank " + std::to_string(straggler.rank);
        entry.title = "Rank " + std::to_string(straggler.rank) + " of " + (slow == 0 ? "A" : "B")
            + " arrives last at collectives in " + std::to_string(straggler.steps) + " of "
            + std::to_string(job->steps.size()) + (job->steps.size() == 1 ? " step" : " steps") + ": the job waits "
            + formatDuration(straggler.stakeUs) + " more for it than " + (slow == 0 ? "B's" : "A's")
            + partnerWords(*job, slow, straggler.rank);
        const size_t slowerJob = job->timeUs[1] > job->timeUs[0] ? 1 : 0;
        entry.againstGap = slow != slowerJob;
        if (entry.againstGap)
            entry.details.push_back(std::string("works the other way: ") + (slow == 0 ? "A" : "B")
                + " waits longer for this rank, while " + (slowerJob == 0 ? "A" : "B") + "'s job is slower overall");
        entry.details.push_back(straggler.cause);
        if (straggler.causeAgainstMedian != straggler.cause)
            entry.details.push_back(straggler.causeAgainstMedian);
        if (std::string steps = stepStragglerWords(*job, straggler); !steps.empty())
            entry.details.push_back(std::move(steps));
        stragglerEntries.push_back(std::move(entry));
    }
    report.whereToLookFirst.insert(report.whereToLookFirst.begin(), std::make_move_iterator(stragglerEntries.begin()),
        std::make_move_iterator(stragglerEntries.end()));
    orderWhereToLookFirst(report.whereToLookFirst);
    report.job = std::move(job);
}

} // namespace fusiondiff
