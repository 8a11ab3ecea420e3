#pragma once

#include "groups/mappingcontext.h"
#include "model/fusionreport.h"

#include <span>
#include <vector>

namespace fusiondiff {

// The seed's _find_fusion_mappings over two kernel-type sequences in time order:
//  1. a type only one side runs (at least pattern_min_occurrences times) that nearly always
//     (share > pattern_min_share) follows the same type X, which the other side also runs:
//     "the other side fuses X + type into X";
//  2. a type both run, with counts differing by at least imbalance_min_ratio and together at least
//     imbalance_min_total: the side with fewer "likely fuses" it into its most frequent other type.
// Mappings come in category order within each of the three passes (the seed's order is that of
// Python sets, which varies from run to run).
std::vector<FusionMapping> findSequencePatterns(std::span<const CategoryId> sequence1,
    std::span<const CategoryId> sequence2, MappingKind kind, const MappingContext& context);

} // namespace fusiondiff
