#pragma once

#include "model/opreport.h"

#include <array>
#include <string>
#include <vector>

namespace fusiondiff {

struct TraceStore;
enum class Platform;

// The collective a communication kernel performs, from its name (NCCL/RCCL kernel names, custom
// all-reduce kernels): "AllReduce", "AllGather", ...; empty if the name is not a collective's.
struct CollectiveKind
{
    std::string collective;
    std::string implementation;
};
CollectiveKind collectiveOf(std::string_view kernelName, Platform platform);

// Communication compared as collectives: NCCL on one side and RCCL or a custom all-reduce on the
// other are the same collective, so launches and time are compared per collective.
std::vector<CollectiveComparison> compareCollectives(const std::array<const TraceStore*, 2>& traces);

} // namespace fusiondiff
