#include "ops/collectives.h"

#include "model/tracestore.h"

#include <algorithm>
#include <map>
#include <unordered_map>

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

constexpr std::string_view kOrder[]
    = { "AllReduce", "AllGather", "ReduceScatter", "AllToAll", "Broadcast", "Reduce", "SendRecv", "Other" };

} // namespace

CollectiveKind collectiveOf(std::string_view kernelName, Platform platform)
{
    const std::string name = lower(kernelName);
    std::string implementation;
    if (has(name, { "nccl", "rccl" }))
        implementation = platform == Platform::AMD || has(name, { "rccl" }) ? "RCCL" : "NCCL";
    else if (has(name, { "cross_device_reduce" }))
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

std::vector<CollectiveComparison> compareCollectives(const std::array<const TraceStore*, 2>& traces)
{
    std::map<std::string, CollectiveComparison> byCollective;
    std::map<std::string, std::array<std::map<std::string, uint64_t>, 2>> implementations;
    for (size_t side = 0; side < 2; ++side) {
        const TraceStore& store = *traces[side];
        std::unordered_map<StringId, CollectiveKind> kindOfName;
        for (const KernelEvent& kernel : store.kernels) {
            auto [it, inserted] = kindOfName.try_emplace(kernel.name);
            if (inserted)
                it->second = collectiveOf(store.name(kernel.name), store.platform);
            if (it->second.collective.empty())
                continue;
            CollectiveComparison& row = byCollective[it->second.collective];
            row.collective = it->second.collective;
            ++row.count[side];
            row.timeUs[side] += kernel.dur;
            ++implementations[row.collective][side][it->second.implementation];
        }
    }
    std::vector<CollectiveComparison> rows;
    for (const std::string_view collective : kOrder) {
        const auto it = byCollective.find(std::string(collective));
        if (it == byCollective.end())
            continue;
        CollectiveComparison row = it->second;
        for (size_t side = 0; side < 2; ++side) {
            const auto& used = implementations[row.collective][side];
            const auto most = std::max_element(
                used.begin(), used.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
            if (most != used.end())
                row.implementation[side] = most->first;
        }
        rows.push_back(std::move(row));
    }
    return rows;
}

} // namespace fusiondiff
