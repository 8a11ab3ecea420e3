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

// The n-th call on each member matched, as many as the member with the fewest has.
void matchByOrder(JobSide& side, const CallKey& key, const CallsByRank& calls, const std::vector<size_t>& members,
    std::vector<std::string>& notes, const std::string& sideName)
{
    const size_t reference = members.front();
    size_t count = calls[reference].size();
    for (const size_t r : members) {
        const size_t own = calls[r].size();
        if (own != calls[reference].size())
            notes.push_back(sideName + ": " + groupWords(key) + " runs " + std::to_string(calls[reference].size())
                + " times on rank " + std::to_string(side.ranks[reference].rank) + " but " + std::to_string(own)
                + " times on rank " + std::to_string(side.ranks[r].rank) + "; the first calls are matched");
        count = std::min(count, own);
    }
    for (size_t c = 0; c < count; ++c) {
        CollectiveInstance instance = newInstance(key, side.ranks.size(), uint32_t(c));
        for (const size_t r : members)
            addMember(instance, r, *calls[r][c]);
        side.instances.push_back(std::move(instance));
    }
}

} // namespace

void matchCollectiveInstances(JobSide& side, std::vector<std::string>& notes, const std::string& sideName)
{
    const size_t n = side.ranks.size();
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
            matchByOrder(side, key, calls, members, notes, sideName);
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
