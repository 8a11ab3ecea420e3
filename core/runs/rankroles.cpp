#include "runs/rankroles.h"

#include <simdjson.h>

#include <algorithm>
#include <map>
#include <set>

namespace fusiondiff {

namespace {

// Every process group the side's traces record, as sorted rank lists within the job.
std::set<std::vector<int32_t>> recordedGroups(const JobSide& side)
{
    std::set<std::vector<int32_t>> groups;
    simdjson::dom::parser parser;
    for (const RankSummary& rank : side.ranks) {
        simdjson::dom::array list;
        if (rank.processGroups.empty() || parser.parse(rank.processGroups).get_array().get(list))
            continue;
        for (simdjson::dom::element entry : list) {
            simdjson::dom::array ranks;
            if (entry["ranks"].get_array().get(ranks))
                continue;
            std::vector<int32_t> group;
            bool inJob = true;
            for (simdjson::dom::element value : ranks) {
                int64_t number = -1;
                inJob = inJob && !value.get_int64().get(number) && number >= 0 && number < side.worldSize;
                group.push_back(static_cast<int32_t>(number));
            }
            std::sort(group.begin(), group.end());
            group.erase(std::unique(group.begin(), group.end()), group.end());
            if (inJob && group.size() > 1 && group.size() < size_t(side.worldSize))
                groups.insert(std::move(group));
        }
    }
    return groups;
}

std::vector<int32_t> shapeOf(const std::vector<int32_t>& group)
{
    std::vector<int32_t> shape;
    shape.reserve(group.size());
    for (const int32_t rank : group)
        shape.push_back(rank - group.front());
    return shape;
}

// `rank`'s place in each of `families`.
std::vector<int32_t> placesOf(int32_t rank, const std::vector<const RoleFamily*>& families)
{
    std::vector<int32_t> places;
    places.reserve(families.size());
    for (const RoleFamily* family : families)
        places.push_back(family->place[size_t(rank)]);
    return places;
}

} // namespace

std::vector<RoleFamily> roleFamilies(const JobSide& side)
{
    std::map<std::vector<int32_t>, RoleFamily> byShape;
    for (const std::vector<int32_t>& group : recordedGroups(side)) {
        RoleFamily& family = byShape[shapeOf(group)];
        family.shape = shapeOf(group);
        family.groups.push_back(group);
    }
    std::vector<RoleFamily> families;
    for (auto& [shape, family] : byShape) {
        family.place.assign(size_t(side.worldSize), -1);
        bool splits = true;
        for (const std::vector<int32_t>& group : family.groups) {
            for (size_t i = 0; i < group.size(); ++i) {
                int32_t& place = family.place[size_t(group[i])];
                splits = splits && place < 0;
                place = int32_t(i);
            }
        }
        splits = splits && std::none_of(family.place.begin(), family.place.end(), [](int32_t p) { return p < 0; });
        if (splits)
            families.push_back(std::move(family));
    }
    return families;
}

RolePairing pairRanksByRole(const JobSide& a, const JobSide& b)
{
    const std::array<std::vector<RoleFamily>, 2> families { roleFamilies(a), roleFamilies(b) };
    // Families of one group size on both sides, where that size names one family on each.
    std::array<std::vector<const RoleFamily*>, 2> shared;
    const auto ofSize = [](const std::vector<RoleFamily>& list, size_t size) {
        std::vector<const RoleFamily*> found;
        for (const RoleFamily& family : list) {
            if (family.shape.size() == size)
                found.push_back(&family);
        }
        return found;
    };
    std::set<size_t> sizes;
    for (const RoleFamily& family : families[0])
        sizes.insert(family.shape.size());
    for (const size_t size : sizes) {
        const std::vector<const RoleFamily*> inA = ofSize(families[0], size);
        const std::vector<const RoleFamily*> inB = ofSize(families[1], size);
        if (inA.size() == 1 && inB.size() == 1) {
            shared[0].push_back(inA.front());
            shared[1].push_back(inB.front());
        }
    }
    RolePairing pairing;
    if (shared[0].empty())
        return pairing;

    // Ranks by role (their places in the shared families), in rank order.
    std::array<std::map<std::vector<int32_t>, std::vector<int32_t>>, 2> byRole;
    const std::array<int32_t, 2> worldSizes { a.worldSize, b.worldSize };
    for (size_t side = 0; side < 2; ++side) {
        for (int32_t rank = 0; rank < worldSizes[side]; ++rank)
            byRole[side][placesOf(rank, shared[side])].push_back(rank);
    }
    std::array<std::vector<bool>, 2> paired { std::vector<bool>(size_t(a.worldSize)),
        std::vector<bool>(size_t(b.worldSize)) };
    size_t roles = 0;
    for (const auto& [role, ranksA] : byRole[0]) {
        const auto found = byRole[1].find(role);
        if (found == byRole[1].end())
            continue;
        ++roles;
        const std::vector<int32_t>& ranksB = found->second;
        for (size_t i = 0; i < std::min(ranksA.size(), ranksB.size()); ++i) {
            pairing.pairs.push_back({ ranksA[i], ranksB[i] });
            paired[0][size_t(ranksA[i])] = paired[1][size_t(ranksB[i])] = true;
        }
    }
    if (pairing.pairs.empty())
        return pairing;
    std::sort(pairing.pairs.begin(), pairing.pairs.end());
    const size_t pairs = pairing.pairs.size();
    for (size_t side = 0; side < 2; ++side) {
        for (int32_t rank = 0; rank < worldSizes[side]; ++rank) {
            if (!paired[side][size_t(rank)])
                pairing.pairs.push_back(side == 0 ? std::array<int32_t, 2> { rank, -1 } : std::array { -1, rank });
        }
    }

    std::string sizesText;
    for (const RoleFamily* family : shared[0])
        sizesText += (sizesText.empty() ? "" : ", ") + std::to_string(family->shape.size());
    pairing.words = "world sizes differ (A " + std::to_string(a.worldSize) + ", B " + std::to_string(b.worldSize)
        + "): ranks paired by role, their places in the process groups both jobs have (groups of " + sizesText
        + (shared[0].size() == 1 ? " ranks" : " ranks each") + "): " + std::to_string(pairs) + " pairs in "
        + std::to_string(roles) + (roles == 1 ? " role" : " roles");
    const std::array<size_t, 2> alone { size_t(a.worldSize) - pairs, size_t(b.worldSize) - pairs };
    for (size_t side = 0; side < 2; ++side) {
        if (alone[side] > 0)
            pairing.words += std::string(", ") + (side == 0 ? "A's " : "B's ") + std::to_string(alone[side])
                + " other ranks unpaired";
    }
    return pairing;
}

} // namespace fusiondiff
