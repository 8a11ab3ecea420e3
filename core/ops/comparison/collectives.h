#pragma once

#include "model/opreport.h"

#include <array>
#include <string>
#include <vector>

namespace fusiondiff {

struct TraceStore;
enum class Platform;

// The collective a communication kernel performs, from its name (NCCL/RCCL kernel names, custom
// all-reduce kernels, expert-parallel all-to-all dispatch/combine kernels): "AllReduce",
// "AllGather", ...; "Other" when the name does not say (RCCL's ncclDevKernel_Generic_*); empty if
// the name is not a communication kernel's. ops/comparison/collectivecalls.h names calls by their operation.
struct CollectiveKind
{
    std::string collective;
    std::string implementation;
};
CollectiveKind collectiveOf(std::string_view kernelName, Platform platform);

// Whether a lower-case kernel name is one Inductor generated (triton_poi_, triton_red_, triton_per_,
// triton_tem_, triton_for_): never a collective, whatever ops its name lists.
bool isGeneratedTritonKernel(std::string_view lowerName);

} // namespace fusiondiff
