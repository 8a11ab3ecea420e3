#include "ops/collectives.h"

#include "model/tracestore.h"

#include <algorithm>

namespace fusiondiff {

namespace {

std::string lower(std::string_view text)
{
    std::string out(text);
    for (char& c : out) {
        if (c >= 'A' && c <= 'Z')
            c = char(c - 'A' + 'a');
    }
    return out;
}

bool has(const std::string& text, std::initializer_list<std::string_view> parts)
{
    return std::any_of(
        parts.begin(), parts.end(), [&](std::string_view part) { return text.find(part) != std::string::npos; });
}

} // namespace

CollectiveKind collectiveOf(std::string_view kernelName, Platform platform)
{
    const std::string name = lower(kernelName);
    std::string implementation;
    if (has(name, { "deep_ep" })) // DeepEP's expert-parallel dispatch and combine
        return { "AllToAll", "DeepEP" };
    if (has(name, { "mori::", "epdispatch", "epcombine" })) // ROCm's MORI expert-parallel kernels
        return { "AllToAll", "MORI" };
    if (has(name, { "pplx", "a2a_dispatch", "a2a_combine" }))
        return { "AllToAll", "pplx-kernels" };
    if (has(name, { "nccl", "rccl" })) {
        implementation = platform == Platform::AMD || has(name, { "rccl" }) ? "RCCL" : "NCCL";
        if (has(name, { "generic" }))
            implementation += " (generic kernel)";
    } else if (has(name, { "cross_device_reduce" }))
        implementation = "custom all-reduce (vLLM cross_device_reduce)";
    else if (has(name, { "multimem" }))
        implementation = "symmetric memory (multimem)";
    else if (has(name, { "quickreduce" }))
        implementation = "QuickReduce";
    else if (has(name, { "mscclpp", "msccl" }))
        implementation = "MSCCL";
    else if (has(name,
                 { "allreduce", "all_reduce", "allgather", "all_gather", "reduce_scatter", "reducescatter", "alltoall",
                     "all_to_all", "custom_ar" }))
        implementation = "custom";
    else
        return {};

    std::string collective = "Other";
    if (has(name, { "allreduce", "all_reduce", "cross_device_reduce", "quickreduce", "custom_ar" }))
        collective = "AllReduce";
    else if (has(name, { "allgather", "all_gather" }))
        collective = "AllGather";
    else if (has(name, { "reducescatter", "reduce_scatter" }))
        collective = "ReduceScatter";
    else if (has(name, { "alltoall", "all_to_all" }))
        collective = "AllToAll";
    else if (has(name, { "broadcast" }))
        collective = "Broadcast";
    else if (has(name, { "sendrecv", "send_", "recv_", "_send", "_recv" }))
        collective = "SendRecv";
    else if (has(name, { "_reduce_", "kernel_reduce", "devkernel_reduce" }))
        collective = "Reduce";
    return { collective, implementation };
}

} // namespace fusiondiff
