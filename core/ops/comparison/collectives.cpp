#include "ops/comparison/collectives.h"

#include "model/tracestore.h"
#include "util/textmatch.h"

namespace fusiondiff {

bool isGeneratedTritonKernel(std::string_view lowerName)
{
    for (const std::string_view prefix :
        { "triton_poi_", "triton_red_", "triton_per_", "triton_tem_", "triton_for_" }) {
        if (lowerName.starts_with(prefix))
            return true;
    }
    return false;
}

CollectiveKind collectiveOf(std::string_view kernelName, Platform platform)
{
    const std::string name = asciiLower(kernelName);
    // Inductor-generated Triton kernels name the ATen ops they fused (triton_poi_fused_add_all_reduce_3
    // is the pointwise work around a functional all_reduce), and never communicate themselves.
    if (isGeneratedTritonKernel(name))
        return {};
    std::string implementation;
    if (containsAny(name, { "deep_ep" })) // DeepEP's expert-parallel dispatch and combine
        return { "AllToAll", "DeepEP" };
    if (containsAny(name, { "mori::", "epdispatch", "epcombine" })) // ROCm's MORI expert-parallel kernels
        return { "AllToAll", "MORI" };
    if (containsAny(name, { "pplx", "a2a_dispatch", "a2a_combine" }))
        return { "AllToAll", "pplx-kernels" };
    // Another library's expert-parallel kernels, by role: dispatch, combine or notify on the
    // intranode, internode or low-latency path, whatever the namespace.
    if (containsAny(name, { "intranode", "internode", "low_latency", "lowlatency" })
        && containsAny(name, { "dispatch", "combine", "notify" }))
        return { "AllToAll", "expert-parallel" };
    if (containsAny(name, { "nccl", "rccl" })) {
        implementation = platform == Platform::AMD || containsAny(name, { "rccl" }) ? "RCCL" : "NCCL";
        if (containsAny(name, { "generic" }))
            implementation += " (generic kernel)";
    } else if (containsAny(name, { "cross_device_reduce" }))
        implementation = "custom all-reduce (vLLM cross_device_reduce)";
    else if (containsAny(name, { "multimem" }))
        implementation = "symmetric memory (multimem)";
    else if (containsAny(name, { "quickreduce" }))
        implementation = "QuickReduce";
    else if (containsAny(name, { "mscclpp", "msccl" }))
        implementation = "MSCCL";
    else if (containsAny(name,
                 { "allreduce", "all_reduce", "allgather", "all_gather", "reduce_scatter", "reducescatter", "alltoall",
                     "all_to_all", "custom_ar" }))
        implementation = "custom";
    else
        return {};

    std::string collective = "Other";
    if (containsAny(name, { "allreduce", "all_reduce", "cross_device_reduce", "quickreduce", "custom_ar" }))
        collective = "AllReduce";
    else if (containsAny(name, { "allgather", "all_gather" }))
        collective = "AllGather";
    else if (containsAny(name, { "reducescatter", "reduce_scatter" }))
        collective = "ReduceScatter";
    else if (containsAny(name, { "alltoall", "all_to_all" }))
        collective = "AllToAll";
    else if (containsAny(name, { "broadcast" }))
        collective = "Broadcast";
    else if (containsAny(name, { "sendrecv", "send_", "recv_", "_send", "_recv" }))
        collective = "SendRecv";
    else if (containsAny(name, { "_reduce_", "kernel_reduce", "devkernel_reduce" }))
        collective = "Reduce";
    return { collective, implementation };
}

} // namespace fusiondiff
