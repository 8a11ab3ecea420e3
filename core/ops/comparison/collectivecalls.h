#pragma once

#include "model/opreport.h"
#include "model/timegap.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace fusiondiff {

struct KernelAttribution;
struct TraceStore;

// One call of a collective: the communication kernels one collective operation launched (or one
// such kernel, where no collective operation is around it).
struct CollectiveCall
{
    std::vector<uint32_t> kernels; // indices into TraceStore::kernels
    double timeUs = 0;
    std::string collective; // AllReduce, AllGather, ReduceScatter, AllToAll, Broadcast, Reduce, SendRecv, Other
    std::string implementation; // NCCL, RCCL (generic kernel), custom all-reduce (...), DeepEP, ...
    std::string operation; // the outermost operation that names the collective ("vllm::all_reduce"), or ""
    int64_t messageBytes = -1; // from record_param_comms, -1 if the trace does not record it
    std::string group; // its process group, from record_param_comms; "" if the trace does not say
    int64_t sequence = -1; // its number in the group, from record_param_comms; -1 if not recorded
};

// The collective a name says, "" if none: an operation ("c10d::allreduce_", "vllm::all_reduce",
// "nccl:all_to_all") or a kernel ("ncclDevKernel_AllGather_RING_LL").
std::string collectiveOfName(std::string_view name);

// The collective calls of a trace in time order. A kernel is a collective's when its name is a
// communication kernel's (collectiveOf); the collective is the one its launching operation names
// when there is one (RCCL's ncclDevKernel_Generic_* says nothing; vllm::all_reduce does), else the
// kernel's.
std::vector<CollectiveCall> findCollectiveCalls(const TraceStore& store, const KernelAttribution& attribution);

// Launches and time per collective, whatever implements it on each side.
std::vector<CollectiveComparison> compareCollectives(const std::array<const std::vector<CollectiveCall>*, 2>& calls);

// The k-th call of a collective on A paired with the k-th on B, grouped by the implementations (and
// message sizes) of the two calls; calls left over on one side form groups of their own.
std::vector<CollectiveCallGroup> pairCollectiveCalls(const std::array<const std::vector<CollectiveCall>*, 2>& calls);

} // namespace fusiondiff
