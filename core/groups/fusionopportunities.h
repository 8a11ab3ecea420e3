#pragma once

#include "model/fusionreport.h"

#include <span>
#include <vector>

namespace fusiondiff {

// The seed's fusion opportunities. From the matched group pairs: per type, the kernels and time on
// each side and the average per pair that holds the type; significant if one side averages more
// than strong_ratio times the other, or more than significant_ratio times with more than
// significant_min_total kernels. Then, for the types this did not report, the same from whole-trace
// counts (more than global_min_total kernels, ratio above global_ratio). Sorted by impact
// (ratio x kernels), largest first; ties by kernels, then category order.
struct OpportunityInputs
{
    const AnalysisOptions& options;
    size_t typeCount = 0; // the classifier's categories
    const std::array<std::vector<LargeGroup>, 2>& largeGroups;
    const std::vector<GroupPair>& groupPairs; // into largeGroups
    const std::vector<TypeCount>& globalCounts; // whole-trace counts and times per type
};

std::vector<FusionOpportunity> findFusionOpportunities(const OpportunityInputs& inputs);

} // namespace fusiondiff
