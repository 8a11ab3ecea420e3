#include "model/fusionreport.h"

#include "util/textformat.h"

#include <limits>

namespace fusiondiff {

const char* mappingKindKey(MappingKind kind)
{
    switch (kind) {
    case MappingKind::GroupSequence:
        return "group_sequence";
    case MappingKind::PartialFusion:
        return "partial_fusion";
    case MappingKind::IntraTypeChain:
        return "intra_type_chain";
    case MappingKind::GlobalSequence:
        return "global_sequence";
    }
    return "";
}

double TypeCount::ratio() const
{
    return count[1] > 0 ? static_cast<double>(count[0]) / static_cast<double>(count[1])
                        : std::numeric_limits<double>::infinity();
}

std::string opportunityTimeText(const FusionReport& report, const FusionOpportunity& opportunity)
{
    const auto onSide = [&](size_t side) {
        return formatDuration(opportunity.timeMs[side] * 1000) + " on " + report.sideNames[side];
    };
    for (size_t side = 0; side < 2; ++side) {
        const size_t other = 1 - side;
        if (opportunity.total[other] == 0 && opportunity.total[side] > 0)
            return onSide(side) + "; " + report.sideNames[other] + " has no such kernels";
    }
    return onSide(0) + " vs " + onSide(1);
}

} // namespace fusiondiff
