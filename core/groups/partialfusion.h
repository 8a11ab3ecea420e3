#pragma once

#include "groups/mappingcontext.h"
#include "model/fusionreport.h"

#include <span>
#include <vector>

namespace fusiondiff {

// The seed's _find_partial_fusion_via_groups: for a type both traces run in their matched groups,
// in counts differing by at least imbalance_min_ratio (together at least imbalance_min_total), look
// at the matched pairs where only the side with more of it has the type at all, and add up which
// other types the other side has more of there: its likely fusion targets (the top three are
// named). Needs at least partial_min_groups such pairs.
std::vector<FusionMapping> findPartialFusion(const std::array<std::vector<LargeGroup>, 2>& largeGroups,
    std::span<const GroupPair> pairs, const MappingContext& context);

} // namespace fusiondiff
