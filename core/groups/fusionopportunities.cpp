#include "groups/fusionopportunities.h"

#include <algorithm>
#include <limits>

namespace fusiondiff {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

double divide(double numerator, double denominator)
{
    return denominator > 0 ? numerator / denominator : kInfinity;
}

struct TypeDifference
{
    std::array<uint64_t, 2> count {};
    std::array<double, 2> timeUs {};
    uint64_t groupsWithDifference = 0;
    uint64_t groups = 0; // matched pairs in which either side has the type
};

void addGroupOpportunities(const OpportunityInputs& inputs, std::vector<FusionOpportunity>& out)
{
    const size_t typeCount = inputs.typeCount;
    const AnalysisOptions& options = inputs.options;
    std::vector<TypeDifference> differences(typeCount);
    for (const GroupPair& pair : inputs.groupPairs) {
        const LargeGroup& group1 = inputs.largeGroups[0][pair.group1];
        const LargeGroup& group2 = inputs.largeGroups[1][pair.group2];
        for (size_t type = 0; type < typeCount; ++type) {
            const uint32_t count1 = group1.typeCounts[type];
            const uint32_t count2 = group2.typeCounts[type];
            if (count1 == 0 && count2 == 0)
                continue;
            TypeDifference& difference = differences[type];
            difference.count[0] += count1;
            difference.count[1] += count2;
            difference.timeUs[0] += group1.typeTimesUs[type];
            difference.timeUs[1] += group2.typeTimesUs[type];
            difference.groups += 1;
            difference.groupsWithDifference += count1 != count2;
        }
    }

    for (size_t typeIndex = 0; typeIndex < typeCount; ++typeIndex) {

        const auto type = static_cast<CategoryId>(typeIndex);
        const TypeDifference& difference = differences[type];
        if (difference.groups == 0)
            continue;
        const double groups = static_cast<double>(difference.groups);
        const double average1 = static_cast<double>(difference.count[0]) / groups;
        const double average2 = static_cast<double>(difference.count[1]) / groups;
        const double ratio = divide(average1, average2);
        const double reverse = divide(average2, average1);
        const bool significant = ratio > options.strongRatio || reverse > options.strongRatio
            || ((ratio > options.significantRatio || reverse > options.significantRatio)
                && static_cast<int64_t>(difference.count[0] + difference.count[1]) > options.significantMinTotal);
        if (!significant)
            continue;
        FusionOpportunity opportunity;
        opportunity.kernelType = type;
        opportunity.total = difference.count;
        opportunity.avgPerGroup = { average1, average2 };
        opportunity.timeMs = { difference.timeUs[0] / 1000, difference.timeUs[1] / 1000 };
        opportunity.timeRatio = divide(opportunity.timeMs[0], opportunity.timeMs[1]);
        const bool trace2Fuses = ratio > options.fusedByRatio;
        opportunity.fusedBy = trace2Fuses ? Side::Trace2 : Side::Trace1;
        opportunity.ratio = trace2Fuses ? ratio : reverse;
        opportunity.groupsAffected = difference.groupsWithDifference;
        opportunity.totalGroups = difference.groups;
        opportunity.source = OpportunitySource::MatchedGroups;
        out.push_back(opportunity);
    }
}

void addGlobalOpportunities(const OpportunityInputs& inputs, std::vector<FusionOpportunity>& out)
{
    const AnalysisOptions& options = inputs.options;
    const double pairs = static_cast<double>(inputs.groupPairs.size());
    for (const TypeCount& counts : inputs.globalCounts) {
        const bool reported = std::any_of(out.begin(), out.end(),
            [&](const FusionOpportunity& opportunity) { return opportunity.kernelType == counts.type; });
        if (reported)
            continue;
        const auto total = static_cast<int64_t>(counts.count[0] + counts.count[1]);
        const double count1 = static_cast<double>(counts.count[0]);
        const double count2 = static_cast<double>(counts.count[1]);
        const double ratio = divide(count1, count2);
        const double reverse = divide(count2, count1);
        if (!(ratio > options.globalRatio || reverse > options.globalRatio) || !(total > options.globalMinTotal))
            continue;
        FusionOpportunity opportunity;
        opportunity.kernelType = counts.type;
        opportunity.total = counts.count;
        opportunity.avgPerGroup = { pairs > 0 ? count1 / pairs : 0.0, pairs > 0 ? count2 / pairs : 0.0 };
        opportunity.timeMs = { counts.timeUs[0] / 1000, counts.timeUs[1] / 1000 };
        opportunity.timeRatio = divide(opportunity.timeMs[0], opportunity.timeMs[1]);
        const bool trace2Fuses = ratio > options.fusedByRatio;
        opportunity.fusedBy = trace2Fuses ? Side::Trace2 : Side::Trace1;
        opportunity.ratio = trace2Fuses ? ratio : reverse;
        opportunity.groupsAffected = 0;
        opportunity.totalGroups = inputs.groupPairs.size();
        opportunity.source = OpportunitySource::GlobalCounts;
        out.push_back(opportunity);
    }
}

} // namespace

std::vector<FusionOpportunity> findFusionOpportunities(const OpportunityInputs& inputs)
{
    std::vector<FusionOpportunity> opportunities;
    addGroupOpportunities(inputs, opportunities);
    addGlobalOpportunities(inputs, opportunities);
    std::stable_sort(
        opportunities.begin(), opportunities.end(), [](const FusionOpportunity& a, const FusionOpportunity& b) {
            if (a.impact() != b.impact())
                return a.impact() > b.impact();
            if (a.total[0] + a.total[1] != b.total[0] + b.total[1])
                return a.total[0] + a.total[1] > b.total[0] + b.total[1];
            return a.kernelType < b.kernelType;
        });
    return opportunities;
}

} // namespace fusiondiff
