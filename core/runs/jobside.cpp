#include "runs/jobside.h"

#include "util/inputerror.h"
#include "util/textformat.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>

namespace fusiondiff {

namespace {

std::string filesOf(const std::vector<const RankSummary*>& ranks)
{
    std::string out;
    for (const RankSummary* rank : ranks)
        out += (out.empty() ? "" : ", ") + rank->path;
    return out;
}

// Every rank once, from 0 to the world size; one world size.
void checkRankSet(std::vector<RankSummary>& ranks, const std::string& sideName)
{
    std::vector<const RankSummary*> unknown;
    for (const RankSummary& rank : ranks) {
        if (rank.rank < 0)
            unknown.push_back(&rank);
    }
    if (!unknown.empty())
        throw InputError(filesOf(unknown),
            sideName
                + ": the rank of a trace is unknown: it has no distributedInfo and its file name names none "
                  "(worker3, rank3, rank_3)");
    std::map<int32_t, std::vector<const RankSummary*>> byWorldSize;
    for (const RankSummary& rank : ranks) {
        if (rank.worldSize >= 0)
            byWorldSize[rank.worldSize].push_back(&rank);
    }
    if (byWorldSize.size() > 1) {
        std::string sizes;
        std::vector<const RankSummary*> all;
        for (const auto& [size, members] : byWorldSize) {
            sizes += (sizes.empty() ? "" : ", ") + std::to_string(size) + " (" + filesOf(members) + ")";
            all.insert(all.end(), members.begin(), members.end());
        }
        throw InputError(filesOf(all), sideName + ": the traces are of different jobs: world sizes " + sizes);
    }
    std::sort(ranks.begin(), ranks.end(), [](const RankSummary& a, const RankSummary& b) { return a.rank < b.rank; });
    for (size_t i = 1; i < ranks.size(); ++i) {
        if (ranks[i].rank == ranks[i - 1].rank)
            throw InputError(filesOf({ &ranks[i - 1], &ranks[i] }),
                sideName + ": rank " + std::to_string(ranks[i].rank) + " appears twice");
    }
    const int32_t worldSize = byWorldSize.empty() ? int32_t(ranks.size()) : byWorldSize.begin()->first;
    std::vector<const RankSummary*> all;
    all.reserve(ranks.size());
    for (const RankSummary& rank : ranks)
        all.push_back(&rank);
    if (ranks.back().rank >= worldSize) {
        throw InputError(ranks.back().path,
            sideName + ": rank " + std::to_string(ranks.back().rank) + " is outside the job's world size of "
                + std::to_string(worldSize));
    }
    if (int32_t(ranks.size()) != worldSize) {
        std::string missing;
        size_t next = 0;
        for (int32_t r = 0; r < worldSize; ++r) {
            if (next < ranks.size() && ranks[next].rank == r)
                ++next;
            else
                missing += (missing.empty() ? "" : ", ") + std::to_string(r);
        }
        throw InputError(filesOf(all),
            sideName + ": the job has " + std::to_string(worldSize) + " ranks, but these are missing: " + missing);
    }
}

using CallKey = std::pair<std::string, std::string>; // group, collective

void matchInstances(JobSide& side, std::vector<std::string>& notes, const std::string& sideName)
{
    const size_t n = side.ranks.size();
    std::vector<std::map<CallKey, std::vector<const RankCollectiveCall*>>> calls(n);
    for (size_t r = 0; r < n; ++r) {
        for (const RankCollectiveCall& call : side.ranks[r].collectives)
            calls[r][{ call.group, call.collective }].push_back(&call);
    }
    for (const auto& [key, referenceCalls] : calls[0]) {
        size_t count = referenceCalls.size();
        for (size_t r = 1; r < n; ++r) {
            const auto it = calls[r].find(key);
            const size_t own = it == calls[r].end() ? 0 : it->second.size();
            if (own != referenceCalls.size())
                notes.push_back(sideName + ": " + key.second + " runs " + std::to_string(referenceCalls.size())
                    + " times on rank " + std::to_string(side.ranks[0].rank) + " but " + std::to_string(own)
                    + " times on rank " + std::to_string(side.ranks[r].rank) + "; the first calls are matched");
            count = std::min(count, own);
        }
        for (size_t c = 0; c < count; ++c) {
            CollectiveInstance instance;
            instance.collective = key.second;
            instance.group = key.first;
            instance.call = uint32_t(c);
            instance.messageBytes = referenceCalls[c]->messageBytes;
            instance.step = referenceCalls[c]->step;
            for (size_t r = 0; r < n; ++r) {
                const RankCollectiveCall& call = *calls[r].at(key)[c];
                instance.arrivalUs.push_back(call.beginUs);
                instance.endUs.push_back(call.endUs);
            }
            side.instances.push_back(std::move(instance));
        }
    }
    std::stable_sort(side.instances.begin(), side.instances.end(),
        [](const CollectiveInstance& a, const CollectiveInstance& b) { return a.arrivalUs[0] < b.arrivalUs[0]; });
}

// An instance ends on every rank at once: a rank's offset is the median of its ends minus the
// reference's. The clocks cannot be aligned when no call matches, or when the ends disagree by
// more than a tenth of the calls' median time (and 20 us) once aligned.
void alignClocks(JobSide& side, std::vector<std::string>& notes, const std::string& sideName)
{
    const size_t n = side.ranks.size();
    side.clockOffsetUs.assign(n, 0.0);
    if (side.instances.empty()) {
        side.aligned = n <= 1;
        if (n > 1)
            notes.push_back(sideName
                + ": no collective call matches across the ranks: their clocks cannot be "
                  "aligned, and no rank's wait can be measured");
        return;
    }
    std::vector<double> durations;
    durations.reserve(side.instances.size());
    for (const CollectiveInstance& instance : side.instances)
        durations.push_back(instance.endUs[0] - instance.arrivalUs[0]);
    const double tolerance = std::max(20.0, 0.1 * medianOf(durations));
    for (size_t r = 1; r < n; ++r) {
        std::vector<double> differences;
        differences.reserve(side.instances.size());
        for (const CollectiveInstance& instance : side.instances)
            differences.push_back(instance.endUs[r] - instance.endUs[0]);
        const double offset = medianOf(differences);
        std::vector<double> deviations;
        deviations.reserve(differences.size());
        for (const double difference : differences)
            deviations.push_back(std::abs(difference - offset));
        const double deviation = medianOf(deviations);
        side.clockOffsetUs[r] = offset;
        if (deviation > tolerance) {
            side.aligned = false;
            notes.push_back(sideName + ": the clocks of rank " + std::to_string(side.ranks[r].rank) + " and rank "
                + std::to_string(side.ranks[0].rank)
                + " cannot be aligned on the collectives: once aligned, their calls' ends still differ by "
                + formatDuration(deviation) + " (median); its waits are uncertain by as much");
        }
    }
    for (CollectiveInstance& instance : side.instances) {
        for (size_t r = 0; r < n; ++r) {
            instance.arrivalUs[r] -= side.clockOffsetUs[r];
            instance.endUs[r] -= side.clockOffsetUs[r];
        }
        const auto last = std::max_element(instance.arrivalUs.begin(), instance.arrivalUs.end());
        instance.lastRank = int32_t(last - instance.arrivalUs.begin());
        for (size_t r = 0; r < n; ++r) {
            instance.waitUs.push_back(*last - instance.arrivalUs[r]);
            const double time = instance.endUs[r] - instance.arrivalUs[r];
            instance.transferUs.push_back(std::clamp(instance.endUs[r] - *last, 0.0, time));
        }
    }
}

void measureSteps(JobSide& side)
{
    const size_t n = side.ranks.size();
    size_t steps = SIZE_MAX;
    for (const RankSummary& rank : side.ranks)
        steps = std::min(steps, rank.steps.size());
    if (n == 0)
        steps = 0;
    side.steps.resize(steps);
    for (size_t s = 0; s < steps; ++s) {
        JobStep& step = side.steps[s];
        double begin = std::numeric_limits<double>::max();
        double end = std::numeric_limits<double>::lowest();
        std::vector<std::pair<double, int32_t>> own;
        for (size_t r = 0; r < n; ++r) {
            const StepRecord& record = side.ranks[r].steps[s];
            begin = std::min(begin, record.begin - side.clockOffsetUs[r]);
            if (record.end - side.clockOffsetUs[r] > end) {
                end = record.end - side.clockOffsetUs[r];
                step.paceRank = int32_t(r);
            }
            own.emplace_back(record.timeUs(), int32_t(r));
        }
        step.timeUs = end - begin;
        std::sort(own.begin(), own.end());
        step.medianRank = own[(own.size() - 1) / 2].second;
    }
    std::vector<std::vector<double>> caused(steps, std::vector<double>(n, 0.0));
    std::vector<std::vector<double>> delay(steps, std::vector<double>(n, 0.0));
    side.waitUs.assign(n, 0.0);
    side.transferUs.assign(n, 0.0);
    for (const CollectiveInstance& instance : side.instances) {
        if (instance.step < 0 || size_t(instance.step) >= steps)
            continue;
        const auto s = size_t(instance.step);
        double nextLatest = std::numeric_limits<double>::lowest();
        for (size_t r = 0; r < n; ++r) {
            side.waitUs[r] += instance.waitUs[r];
            side.transferUs[r] += instance.transferUs[r];
            if (int32_t(r) != instance.lastRank) {
                caused[s][size_t(instance.lastRank)] += instance.waitUs[r];
                nextLatest = std::max(nextLatest, instance.arrivalUs[r]);
            }
        }
        if (n > 1)
            delay[s][size_t(instance.lastRank)] += instance.arrivalUs[size_t(instance.lastRank)] - nextLatest;
    }
    for (size_t s = 0; s < steps; ++s) {
        side.steps[s].delayUs = delay[s];
        const auto most = std::max_element(caused[s].begin(), caused[s].end());
        if (most != caused[s].end() && *most > 0) {
            const auto r = size_t(most - caused[s].begin());
            side.steps[s].straggler = int32_t(r);
            side.steps[s].waitCausedUs = *most;
            side.steps[s].stragglerDelayUs = delay[s][r];
        }
    }
}

} // namespace

double medianOf(std::vector<double> values)
{
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    const size_t middle = values.size() / 2;
    return values.size() % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}

JobSide buildJobSide(std::vector<RankSummary> ranks, const std::string& sideName, std::vector<std::string>& notes)
{
    JobSide side;
    if (ranks.size() > 1)
        checkRankSet(ranks, sideName);
    side.worldSize = int32_t(ranks.size());
    side.ranks = std::move(ranks);
    matchInstances(side, notes, sideName);
    alignClocks(side, notes, sideName);
    measureSteps(side);
    return side;
}

} // namespace fusiondiff
