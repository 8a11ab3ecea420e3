#include "runs/collectiveinstances.h"

#include "runs/jobside.h"
#include "util/textformat.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace fusiondiff {

namespace {

using CallKey = std::pair<std::string, std::string>; // group, collective
using CallsByRank = std::vector<std::vector<const RankCollectiveCall*>>;

CollectiveInstance newInstance(const CallKey& key, size_t ranks, uint32_t call)
{
    CollectiveInstance instance;
    instance.group = key.first;
    instance.collective = key.second;
    instance.call = call;
    instance.member.assign(ranks, false);
    instance.arrivalUs.assign(ranks, 0.0);
    instance.endUs.assign(ranks, 0.0);
    instance.rankStep.assign(ranks, -1);
    return instance;
}

void addMember(CollectiveInstance& instance, size_t rank, const RankCollectiveCall& call)
{
    if (std::none_of(instance.member.begin(), instance.member.end(), [](bool m) { return m; })) {
        instance.messageBytes = call.messageBytes;
        instance.step = call.step;
        instance.sequence = call.sequence;
    }
    instance.member[rank] = true;
    instance.arrivalUs[rank] = call.beginUs;
    instance.endUs[rank] = call.endUs;
    instance.rankStep[rank] = call.step;
}

std::string groupWords(const CallKey& key)
{
    return key.first.empty() ? key.second : key.second + " in process group " + key.first;
}

// The calls every member numbers alike: matched by sequence number.
void matchBySequence(JobSide& side, const CallKey& key, const CallsByRank& calls, const std::vector<size_t>& members,
    std::vector<std::string>& notes, const std::string& sideName)
{
    std::map<int64_t, std::vector<const RankCollectiveCall*>> bySequence;
    for (size_t m = 0; m < members.size(); ++m) {
        for (const RankCollectiveCall* call : calls[members[m]]) {
            auto& row = bySequence[call->sequence];
            row.resize(members.size(), nullptr);
            row[m] = call;
        }
    }
    uint32_t matched = 0;
    size_t partial = 0;
    for (const auto& [sequence, row] : bySequence) {
        if (std::any_of(row.begin(), row.end(), [](const RankCollectiveCall* call) { return call == nullptr; })) {
            ++partial;
            continue;
        }
        CollectiveInstance instance = newInstance(key, side.ranks.size(), matched++);
        for (size_t m = 0; m < members.size(); ++m)
            addMember(instance, members[m], *row[m]);
        side.instances.push_back(std::move(instance));
    }
    if (partial > 0)
        notes.push_back(sideName + ": " + std::to_string(partial) + " of the calls of " + groupWords(key)
            + " are not recorded on every rank of the group (by their sequence numbers); they are left out");
}

// How well `own`'s calls of a collective pair with the reference member's when own call i is the
// reference's i + shift: the share of pairs whose step (where both know it) or message size (where
// both record it) differ, and how far their ends are from one clock offset (a call ends on all its
// members at once: the median absolute deviation of end differences from their median).
struct ShiftFit
{
    int64_t shift = 0;
    double mismatchShare = 0;
    double deviationUs = 0;
    double offsetUs = 0;
};

// The pairs a shift is judged on, evenly spread over the overlap: a first look at every shift, then
// a closer one at those that pass it (a long run without step numbers has thousands of shifts).
constexpr size_t kFirstLookSamples = 16;
constexpr size_t kShiftSamples = 128;

ShiftFit fitShift(const std::vector<const RankCollectiveCall*>& own,
    const std::vector<const RankCollectiveCall*>& reference, int64_t shift, bool stepsAligned, size_t samples)
{
    const size_t first = size_t(std::max<int64_t>(0, -shift));
    const size_t last = size_t(std::min<int64_t>(int64_t(own.size()), int64_t(reference.size()) - shift));
    const size_t overlap = last - first;
    const size_t stride = std::max<size_t>(1, overlap / samples);
    size_t mismatches = 0;
    size_t pairs = 0;
    std::vector<double> differences;
    for (size_t i = first; i < last; i += stride) {
        const RankCollectiveCall& mine = *own[i];
        const RankCollectiveCall& theirs = *reference[size_t(int64_t(i) + shift)];
        const bool stepDiffers = stepsAligned && mine.step >= 0 && theirs.step >= 0 && mine.step != theirs.step;
        const bool sizeDiffers
            = mine.messageBytes >= 0 && theirs.messageBytes >= 0 && mine.messageBytes != theirs.messageBytes;
        mismatches += stepDiffers || sizeDiffers ? 1 : 0;
        ++pairs;
        differences.push_back(mine.endUs - theirs.endUs);
    }
    ShiftFit fit;
    fit.shift = shift;
    fit.mismatchShare = double(mismatches) / double(std::max<size_t>(pairs, 1));
    fit.offsetUs = medianOf(differences);
    for (double& difference : differences)
        difference = std::abs(difference - fit.offsetUs);
    fit.deviationUs = medianOf(differences);
    return fit;
}

// Of `fits`, those with the fewest mismatched steps and sizes (but for calls at a step's boundary),
// and of those the ones whose ends meet on one clock offset best (within `toleranceUs`).
void keepBestShifts(std::vector<ShiftFit>& fits, double toleranceUs)
{
    constexpr double kBoundaryShare = 0.05; // calls that start after the next step began on one rank only
    double fewest = 1;
    for (const ShiftFit& fit : fits)
        fewest = std::min(fewest, fit.mismatchShare);
    std::erase_if(fits, [&](const ShiftFit& fit) { return fit.mismatchShare > fewest + kBoundaryShare; });
    double closest = std::numeric_limits<double>::max();
    for (const ShiftFit& fit : fits)
        closest = std::min(closest, fit.deviationUs);
    std::erase_if(fits, [&](const ShiftFit& fit) { return fit.deviationUs > closest + toleranceUs; });
}

// The shift that pairs `own`'s calls with the reference's (own call i is the reference's i + shift):
// NCCL issues a group's collectives in one order on every member, so the calls two ranks both
// recorded are one run of calls, which starts later on a rank whose profiler started a step later.
// Of the shifts that overlap at least half the shorter list, the fewest mismatched steps and sizes,
// then ends that agree on one clock offset (within `toleranceUs`), then the smallest clock offset,
// then the smallest shift. Steps repeated alike, with no step numbers, no sizes and clocks apart
// by more than a step, cannot be told apart: those pair by position.
int64_t callShift(const std::vector<const RankCollectiveCall*>& own,
    const std::vector<const RankCollectiveCall*>& reference, bool stepsAligned, double toleranceUs)
{
    const auto shorter = int64_t(std::min(own.size(), reference.size()));
    const int64_t minimumOverlap = std::max<int64_t>(1, (shorter + 1) / 2);
    int64_t lowest = minimumOverlap - int64_t(own.size());
    int64_t highest = int64_t(reference.size()) - minimumOverlap;
    if (stepsAligned) {
        // Near the shift that puts own's first call of a job step on the reference's first of that step.
        for (size_t i = 0; i < own.size(); ++i) {
            if (own[i]->step < 0)
                continue;
            const auto same = std::find_if(reference.begin(), reference.end(),
                [&](const RankCollectiveCall* call) { return call->step == own[i]->step; });
            if (same != reference.end()) {
                constexpr int64_t kAround = 8;
                const int64_t estimate = int64_t(same - reference.begin()) - int64_t(i);
                lowest = std::max(lowest, estimate - kAround);
                highest = std::min(highest, estimate + kAround);
                break;
            }
        }
    }
    if (lowest > highest)
        return 0;
    std::vector<ShiftFit> fits;
    for (int64_t shift = lowest; shift <= highest; ++shift)
        fits.push_back(fitShift(own, reference, shift, stepsAligned, kFirstLookSamples));
    keepBestShifts(fits, toleranceUs);
    for (ShiftFit& fit : fits)
        fit = fitShift(own, reference, fit.shift, stepsAligned, kShiftSamples);
    keepBestShifts(fits, toleranceUs);
    return std::min_element(fits.begin(), fits.end(), [](const ShiftFit& a, const ShiftFit& b) {
        const double offsetA = std::abs(a.offsetUs);
        const double offsetB = std::abs(b.offsetUs);
        if (offsetA != offsetB)
            return offsetA < offsetB;
        return std::abs(a.shift) < std::abs(b.shift);
    })->shift;
}

// The calls of unnumbered collectives paired by position in the run of calls each member recorded,
// shifted where a member's record starts earlier or later (callShift); a call some member did not
// record (its steps are not in that rank's trace) is left out.
void matchByOrder(JobSide& side, const CallKey& key, const CallsByRank& calls, const std::vector<size_t>& members,
    bool stepsAligned, std::vector<std::string>& notes, const std::string& sideName)
{
    const size_t reference = members.front();
    std::vector<double> durations;
    for (const RankCollectiveCall* call : calls[reference])
        durations.push_back(call->endUs - call->beginUs);
    const double tolerance = std::max(20.0, 0.1 * medianOf(durations));
    // Per member: the position in the reference's calls of its first call.
    std::vector<int64_t> start(members.size(), 0);
    int64_t from = 0;
    int64_t to = int64_t(calls[reference].size());
    for (size_t m = 1; m < members.size(); ++m) {
        start[m] = callShift(calls[members[m]], calls[reference], stepsAligned, tolerance);
        from = std::min(from, start[m]);
        to = std::max(to, start[m] + int64_t(calls[members[m]].size()));
    }
    size_t partial = 0;
    uint32_t matched = 0;
    for (int64_t position = from; position < to; ++position) {
        bool everyMember = true;
        for (size_t m = 0; m < members.size() && everyMember; ++m)
            everyMember = position >= start[m] && position - start[m] < int64_t(calls[members[m]].size());
        if (!everyMember) {
            ++partial;
            continue;
        }
        CollectiveInstance instance = newInstance(key, side.ranks.size(), matched++);
        for (size_t m = 0; m < members.size(); ++m)
            addMember(instance, members[m], *calls[members[m]][size_t(position - start[m])]);
        side.instances.push_back(std::move(instance));
    }
    if (partial > 0)
        notes.push_back(sideName + ": " + std::to_string(partial) + " of the calls of " + groupWords(key)
            + " are not recorded on every rank of the group (their steps are not in every rank's trace); they "
              "are left out");
}

} // namespace

void matchCollectiveInstances(
    JobSide& side, bool stepsAligned, std::vector<std::string>& notes, const std::string& sideName)
{
    const size_t n = side.ranks.size();
    side.instances.clear();
    std::map<CallKey, CallsByRank> callsOf;
    for (size_t r = 0; r < n; ++r) {
        for (const RankCollectiveCall& call : side.ranks[r].collectives) {
            CallsByRank& byRank = callsOf[{ call.group, call.collective }];
            byRank.resize(n);
            byRank[r].push_back(&call);
        }
    }
    for (const auto& entry : callsOf) {
        const CallKey& key = entry.first;
        const CallsByRank& calls = entry.second;
        // An unnamed group is the world: every rank takes part, and one that has no call is noted.
        std::vector<size_t> members;
        for (size_t r = 0; r < n; ++r) {
            if (key.first.empty() || !calls[r].empty())
                members.push_back(r);
        }
        // A named group only one rank of a multi-rank job calls: nobody to wait for.
        if (members.size() < std::min<size_t>(2, n))
            continue;
        const bool numbered = std::all_of(members.begin(), members.end(), [&](size_t r) {
            return !calls[r].empty()
                && std::all_of(calls[r].begin(), calls[r].end(),
                    [](const RankCollectiveCall* call) { return call->sequence >= 0; });
        });
        if (numbered)
            matchBySequence(side, key, calls, members, notes, sideName);
        else
            matchByOrder(side, key, calls, members, stepsAligned, notes, sideName);
    }
}

void alignClocksOnCollectives(JobSide& side, std::vector<std::string>& notes, const std::string& sideName)
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
    std::vector<std::vector<size_t>> instancesOf(n);
    std::vector<double> durations;
    durations.reserve(side.instances.size());
    for (size_t i = 0; i < side.instances.size(); ++i) {
        const CollectiveInstance& instance = side.instances[i];
        bool first = true;
        for (size_t r = 0; r < n; ++r) {
            if (!instance.member[r])
                continue;
            instancesOf[r].push_back(i);
            if (first)
                durations.push_back(instance.endUs[r] - instance.arrivalUs[r]);
            first = false;
        }
    }
    const double tolerance = std::max(20.0, 0.1 * medianOf(durations));

    std::vector<bool> aligned(n, false);
    aligned[0] = true;
    for (bool progress = true; progress;) {
        progress = false;
        for (size_t r = 1; r < n; ++r) {
            if (aligned[r])
                continue;
            // Its ends against those of the first aligned member of each instance it shares.
            std::map<size_t, std::vector<double>> differencesTo;
            for (const size_t i : instancesOf[r]) {
                const CollectiveInstance& instance = side.instances[i];
                for (size_t q = 0; q < n; ++q) {
                    if (q != r && aligned[q] && instance.member[q]) {
                        differencesTo[q].push_back(instance.endUs[r] - instance.endUs[q]);
                        break;
                    }
                }
            }
            if (differencesTo.empty())
                continue;
            const auto& [q, differences] = *std::max_element(differencesTo.begin(), differencesTo.end(),
                [](const auto& a, const auto& b) { return a.second.size() < b.second.size(); });
            const double offset = medianOf(differences);
            std::vector<double> deviations;
            deviations.reserve(differences.size());
            for (const double difference : differences)
                deviations.push_back(std::abs(difference - offset));
            const double deviation = medianOf(deviations);
            side.clockOffsetUs[r] = side.clockOffsetUs[q] + offset;
            aligned[r] = true;
            progress = true;
            if (deviation > tolerance) {
                side.aligned = false;
                notes.push_back(sideName + ": the clocks of rank " + std::to_string(side.ranks[r].rank) + " and rank "
                    + std::to_string(side.ranks[q].rank)
                    + " cannot be aligned on the collectives: once aligned, their calls' ends still differ by "
                    + formatDuration(deviation) + " (median); its waits are uncertain by as much");
            }
        }
    }
    for (size_t r = 1; r < n; ++r) {
        if (!aligned[r]) {
            side.aligned = false;
            notes.push_back(sideName + ": rank " + std::to_string(side.ranks[r].rank)
                + " shares no collective call with the ranks aligned to rank " + std::to_string(side.ranks[0].rank)
                + ": its clock cannot be aligned, and its waits are uncertain");
        }
    }

    for (CollectiveInstance& instance : side.instances) {
        instance.waitUs.assign(n, 0.0);
        instance.transferUs.assign(n, 0.0);
        double last = std::numeric_limits<double>::lowest();
        for (size_t r = 0; r < n; ++r) {
            if (!instance.member[r])
                continue;
            instance.arrivalUs[r] -= side.clockOffsetUs[r];
            instance.endUs[r] -= side.clockOffsetUs[r];
            if (instance.arrivalUs[r] > last) {
                last = instance.arrivalUs[r];
                instance.lastRank = int32_t(r);
            }
        }
        for (size_t r = 0; r < n; ++r) {
            if (!instance.member[r])
                continue;
            instance.waitUs[r] = last - instance.arrivalUs[r];
            const double time = instance.endUs[r] - instance.arrivalUs[r];
            instance.transferUs[r] = std::clamp(instance.endUs[r] - last, 0.0, time);
        }
    }
    // In time order: by the first member's arrival, on the aligned clock.
    const auto firstArrival = [n](const CollectiveInstance& instance) {
        double first = std::numeric_limits<double>::max();
        for (size_t r = 0; r < n; ++r) {
            if (instance.member[r])
                first = std::min(first, instance.arrivalUs[r]);
        }
        return first;
    };
    std::stable_sort(side.instances.begin(), side.instances.end(),
        [&](const CollectiveInstance& a, const CollectiveInstance& b) { return firstArrival(a) < firstArrival(b); });
}

} // namespace fusiondiff
