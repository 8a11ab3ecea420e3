#include "runs/jobside.h"

#include "runs/collectiveinstances.h"
#include "runs/jobphases.h"
#include "runs/jobstepalignment.h"

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
        // The number every rank recorded the step as, where they agree.
        step.number = s < side.ranks.front().stepNumbers.size() ? side.ranks.front().stepNumbers[s] : -1;
        for (const RankSummary& rank : side.ranks) {
            if (s >= rank.stepNumbers.size() || rank.stepNumbers[s] != step.number)
                step.number = -1;
        }
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
            if (instance.member[r] && int32_t(r) != instance.lastRank) {
                caused[s][size_t(instance.lastRank)] += instance.waitUs[r];
                nextLatest = std::max(nextLatest, instance.arrivalUs[r]);
            }
        }
        if (n > 1)
            delay[s][size_t(instance.lastRank)] += instance.arrivalUs[size_t(instance.lastRank)] - nextLatest;
    }
    for (size_t s = 0; s < steps; ++s) {
        side.steps[s].delayUs = delay[s];
        // By delay, the measure the straggler entries rank by (jobcompare.cpp): a rank late at
        // many calls by a little makes the others wait in sum more than one that holds the job
        // up longer at one call, yet the job waits less for it.
        const auto most = std::max_element(delay[s].begin(), delay[s].end());
        if (most != delay[s].end() && *most > 0) {
            const auto r = size_t(most - delay[s].begin());
            side.steps[s].straggler = int32_t(r);
            side.steps[s].waitCausedUs = caused[s][r];
            side.steps[s].stragglerDelayUs = *most;
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
    alignRankSteps(side, notes, sideName);
    matchCollectiveInstances(side, true, notes, sideName);
    alignClocksOnCollectives(side, notes, sideName);
    measureSteps(side);
    labelJobStepPhases(side, sideName, notes);
    return side;
}

} // namespace fusiondiff
