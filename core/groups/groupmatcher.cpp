#include "groups/groupmatcher.h"

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <limits>
#include <map>
#include <numeric>

namespace fusiondiff {

namespace {

constexpr int64_t kSharedTypeWeight = 10;

// The unused groups of one size and type set, in trace order: the front is the one to take.
struct Bucket
{
    uint64_t typeMask = 0;
    std::vector<uint32_t> groups;
    size_t next = 0;

    bool empty() const { return next == groups.size(); }
};

// The buckets of one size that still hold unused groups, by the number of types in their type
// set (a bucket of n types shares at most n with any group), in no particular order within a
// level: ties between buckets are broken by group index, not by their order here.
struct SizeClass
{
    std::vector<std::vector<Bucket>> levels; // up to the fullest type set of this size
    size_t buckets = 0;
};

struct Candidate
{
    int64_t score = std::numeric_limits<int64_t>::max();
    uint32_t group = std::numeric_limits<uint32_t>::max();
    Bucket* bucket = nullptr;
    uint32_t size = 0;

    bool improvesOn(int64_t otherScore, uint32_t otherGroup) const
    {
        return otherScore < score || (otherScore == score && otherGroup < group);
    }
};

} // namespace

std::vector<std::pair<uint32_t, uint32_t>> matchGroups(
    std::span<const GroupProfile> first, std::span<const GroupProfile> second, double sizeTolerance, MatchWork* work)
{
    MatchWork unused;
    MatchWork& counted = work ? *work : unused;
    // Buckets: runs of equal (size, type set) after a stable sort, so each keeps trace order.
    std::vector<uint32_t> byProfile(second.size());
    std::iota(byProfile.begin(), byProfile.end(), 0u);
    std::stable_sort(byProfile.begin(), byProfile.end(), [&](uint32_t a, uint32_t b) {
        return std::pair(second[a].size, second[a].typeMask) < std::pair(second[b].size, second[b].typeMask);
    });
    std::map<uint32_t, SizeClass> sizes;
    for (size_t i = 0; i < byProfile.size(); ++i) {
        const GroupProfile& profile = second[byProfile[i]];
        SizeClass& sizeClass = sizes[profile.size];
        const int level = std::popcount(profile.typeMask);
        if (i == 0 || second[byProfile[i - 1]].size != profile.size
            || second[byProfile[i - 1]].typeMask != profile.typeMask) {
            if (sizeClass.levels.size() <= static_cast<size_t>(level))
                sizeClass.levels.resize(static_cast<size_t>(level) + 1);
            sizeClass.levels[static_cast<size_t>(level)].push_back({ profile.typeMask, {}, 0 });
            ++sizeClass.buckets;
        }
        sizeClass.levels[static_cast<size_t>(level)].back().groups.push_back(byProfile[i]);
    }

    std::vector<uint32_t> order(first.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return first[a].size > first[b].size; });

    std::vector<std::pair<uint32_t, uint32_t>> matches;
    for (const uint32_t index : order) {
        if (sizes.empty())
            break;
        const auto size = static_cast<int64_t>(first[index].size);
        const uint64_t mask = first[index].typeMask;
        const double minSize = static_cast<double>(size) / (1 + sizeTolerance);
        const double maxSize = static_cast<double>(size) * (1 + sizeTolerance);
        const int maskTypes = std::popcount(mask);
        const int64_t bestPossibleBonus = kSharedTypeWeight * maskTypes;

        Candidate best;
        auto consider = [&](std::map<uint32_t, SizeClass>::iterator it) {
            ++counted.sizesVisited;
            const int64_t distance = std::llabs(size - static_cast<int64_t>(it->first));
            // Fullest type sets first; a level whose buckets cannot reach the best score so far
            // even sharing all they can, nor can any level below it.
            for (int level = static_cast<int>(it->second.levels.size()) - 1; level >= 0; --level) {
                if (distance - kSharedTypeWeight * std::min(level, maskTypes) > best.score)
                    break;
                counted.bucketsScored += it->second.levels[static_cast<size_t>(level)].size();
                for (Bucket& bucket : it->second.levels[static_cast<size_t>(level)]) {
                    const int64_t score = distance - kSharedTypeWeight * std::popcount(mask & bucket.typeMask);
                    const uint32_t group = bucket.groups[bucket.next];
                    if (best.improvesOn(score, group))
                        best = { score, group, &bucket, it->first };
                }
            }
        };
        auto inRange = [&](uint32_t n) { return !(n < minSize) && !(n > maxSize); };
        // A size at this distance can only beat or tie the best so far if this holds.
        auto mayCompete
            = [&](uint32_t n) { return std::llabs(size - static_cast<int64_t>(n)) - bestPossibleBonus <= best.score; };

        auto up = sizes.lower_bound(static_cast<uint32_t>(size));
        auto down = up; // sizes below `size` are visited from std::prev(down)
        for (;;) {
            const bool upOk = up != sizes.end() && inRange(up->first) && mayCompete(up->first);
            const bool downOk
                = down != sizes.begin() && inRange(std::prev(down)->first) && mayCompete(std::prev(down)->first);
            if (!upOk && !downOk)
                break;
            const bool takeUp = upOk
                && (!downOk
                    || up->first - static_cast<uint64_t>(size) <= static_cast<uint64_t>(size) - std::prev(down)->first);
            if (takeUp) {
                consider(up);
                ++up;
            } else {
                --down;
                consider(down);
            }
        }
        if (!best.bucket)
            continue;
        matches.emplace_back(index, best.group);
        ++best.bucket->next;
        if (best.bucket->empty()) {
            // Emptied buckets leave their size class, so that later searches do not visit them.
            auto sizeClass = sizes.find(best.size);
            std::vector<Bucket>& level
                = sizeClass->second.levels[static_cast<size_t>(std::popcount(best.bucket->typeMask))];
            std::swap(*best.bucket, level.back());
            level.pop_back();
            if (--sizeClass->second.buckets == 0)
                sizes.erase(sizeClass);
        }
    }
    return matches;
}

} // namespace fusiondiff
