#pragma once

#include "model/fusionreport.h"

namespace fusiondiff {

// A reference-analysis opportunity of communication kernels (one side's all-reduce inside its
// groups) is a collective difference, not fusion: the views say so instead of "fused by"
// (ops/comparison/collectivepart.h does the same for the operation findings).
inline bool isCollectiveOpportunity(const FusionReport& report, const FusionOpportunity& opportunity)
{
    return report.typeName(opportunity.kernelType) == "Communication";
}

// What the views say in place of "fused by X" for such an opportunity.
inline constexpr const char* kCollectiveNotFusion = "a collective difference, not fusion";

} // namespace fusiondiff
