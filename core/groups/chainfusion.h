#pragma once

#include "groups/mappingcontext.h"
#include "model/fusionreport.h"

#include <span>
#include <vector>

namespace fusiondiff {

// The seed's _detect_intra_type_fusion: in each trace's whole kernel sequence (time order), runs of
// consecutive kernels of one type. A type whose average run (of the runs longer than one) is more
// than chain_min_ratio times longer on one side, with totals differing by more than
// chain_min_difference kernels, is "fused" by the side with the shorter runs.
std::vector<FusionMapping> findChainFusion(
    std::span<const CategoryId> sequence1, std::span<const CategoryId> sequence2, const MappingContext& context);

} // namespace fusiondiff
