#include "model/fusionreport.h"

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

} // namespace fusiondiff
