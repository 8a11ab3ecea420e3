#include "ops/comparison/collectivecalls.h"

#include "model/tracestore.h"
#include "ops/attribution/opattribution.h"
#include "ops/comparison/collectives.h"
#include "util/textmatch.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_map>

namespace fusiondiff {

namespace {

constexpr std::string_view kOrder[]
    = { "AllReduce", "AllGather", "ReduceScatter", "AllToAll", "Broadcast", "Reduce", "SendRecv", "Other" };

size_t orderOf(const std::string& collective)
{
    return size_t(std::find(std::begin(kOrder), std::end(kOrder), collective) - std::begin(kOrder));
}

// The outermost operator around the kernel's launch whose name is a collective's, -1 if none.
int32_t collectiveFrame(const TraceStore& store, const KernelAttribution& attribution, int32_t launching)
{
    int32_t found = -1;
    for (int32_t f = launching; f >= 0; f = attribution.frames[size_t(f)].parent) {
        const OpFrame& frame = attribution.frames[size_t(f)];
        if (!frame.isModule && !collectiveOfName(store.name(frame.name)).empty())
            found = f;
    }
    return found;
}

// CPU annotations whose name is a collective's ("nccl:all_to_all" is one in older traces).
struct CollectiveAnnotations
{
    std::vector<const AnnotationEvent*> annotations;

    explicit CollectiveAnnotations(const TraceStore& store)
    {
        for (const AnnotationEvent& annotation : store.annotations) {
            if (!annotation.onGpu && !collectiveOfName(store.name(annotation.name)).empty())
                annotations.push_back(&annotation);
        }
    }

    // The innermost such annotation around a runtime call, on its thread.
    const AnnotationEvent* around(const RuntimeEvent& call) const
    {
        const AnnotationEvent* found = nullptr;
        for (const AnnotationEvent* annotation : annotations) {
            if (annotation->pid == call.pid && annotation->tid == call.tid && annotation->ts <= call.ts
                && call.ts <= annotation->ts + annotation->dur && (!found || annotation->dur < found->dur))
                found = annotation;
        }
        return found;
    }
};

} // namespace

std::string collectiveOfName(std::string_view name)
{
    const std::string text = asciiLower(name);
    if (containsAny(text, { "allreduce", "all_reduce", "cross_device_reduce", "quickreduce", "custom_ar" }))
        return "AllReduce";
    if (containsAny(text, { "allgather", "all_gather" }))
        return "AllGather";
    if (containsAny(text, { "reducescatter", "reduce_scatter" }))
        return "ReduceScatter";
    if (containsAny(text, { "alltoall", "all_to_all" }))
        return "AllToAll";
    if (containsAny(text, { "broadcast" }))
        return "Broadcast";
    if (text.starts_with("nccl:") || text.starts_with("c10d::")) {
        if (containsAny(text, { "send", "recv" }))
            return "SendRecv";
        if (containsAny(text, { "reduce" }))
            return "Reduce";
    }
    return {};
}

std::vector<CollectiveCall> findCollectiveCalls(const TraceStore& store, const KernelAttribution& attribution)
{
    std::unordered_map<StringId, CollectiveKind> kindOfName;
    std::vector<uint32_t> kernels;
    for (uint32_t k = 0; k < store.kernels.size(); ++k) {
        const KernelEvent& kernel = store.kernels[k];
        auto [it, inserted] = kindOfName.try_emplace(kernel.name);
        if (inserted)
            it->second = collectiveOf(store.name(kernel.name), store.platform);
        if (!it->second.collective.empty())
            kernels.push_back(k);
    }
    std::stable_sort(kernels.begin(), kernels.end(),
        [&](uint32_t a, uint32_t b) { return store.kernels[a].ts < store.kernels[b].ts; });

    const CollectiveAnnotations annotations(store);
    std::unordered_map<int32_t, const CommMessage*> messageOfFrame; // cpu ops are frames 0..n-1
    for (const CommMessage& message : store.commMessages)
        messageOfFrame[int32_t(message.cpuOp)] = &message;
    // The message recorded by a record_param_comms around the launch, nullptr if none.
    auto messageAround = [&](int32_t launching) -> const CommMessage* {
        for (int32_t f = launching; f >= 0 && !messageOfFrame.empty(); f = attribution.frames[size_t(f)].parent) {
            if (const auto it = messageOfFrame.find(f); it != messageOfFrame.end())
                return it->second;
        }
        return nullptr;
    };
    std::vector<CollectiveCall> calls;
    // A collective operation (a frame, or an annotation standing in for one) -> its call.
    std::unordered_map<const void*, size_t> callOfOperation;
    for (const uint32_t k : kernels) {
        const KernelEvent& kernel = store.kernels[k];
        const CollectiveKind& kind = kindOfName[kernel.name];
        const int32_t launching = k < attribution.launchingFrame.size() ? attribution.launchingFrame[k] : -1;
        const int32_t frame = launching >= 0 ? collectiveFrame(store, attribution, launching) : -1;
        const void* operation = nullptr;
        StringId operationName = 0;
        if (frame >= 0) {
            operation = &attribution.frames[size_t(frame)];
            operationName = attribution.frames[size_t(frame)].name;
        } else if (k < attribution.launchCall.size() && attribution.launchCall[k] >= 0) {
            if (const AnnotationEvent* annotation
                = annotations.around(store.runtimeCalls[size_t(attribution.launchCall[k])])) {
                operation = annotation;
                operationName = annotation->name;
            }
        }
        size_t index = calls.size();
        if (operation) {
            const auto [it, inserted] = callOfOperation.try_emplace(operation, calls.size());
            index = it->second;
        }
        if (index == calls.size()) {
            CollectiveCall call;
            call.implementation = kind.implementation;
            if (const CommMessage* message = messageAround(launching)) {
                if (message->elements >= 0 && message->elementBytes > 0)
                    call.messageBytes = message->elements * int64_t(message->elementBytes);
                call.group = message->group;
                call.sequence = message->sequence;
            }
            if (operation) {
                call.operation = std::string(store.name(operationName));
                call.collective = collectiveOfName(call.operation);
            } else {
                call.collective = kind.collective;
            }
            calls.push_back(std::move(call));
        }
        CollectiveCall& call = calls[index];
        call.kernels.push_back(k);
        call.timeUs += kernel.dur;
    }
    return calls;
}

std::vector<CollectiveComparison> compareCollectives(const std::array<const std::vector<CollectiveCall>*, 2>& calls)
{
    std::map<std::string, CollectiveComparison> byCollective;
    std::map<std::string, std::array<std::map<std::string, uint64_t>, 2>> implementations;
    for (size_t side = 0; side < 2; ++side) {
        for (const CollectiveCall& call : *calls[side]) {
            CollectiveComparison& row = byCollective[call.collective];
            row.collective = call.collective;
            row.count[side] += call.kernels.size();
            row.timeUs[side] += call.timeUs;
            implementations[call.collective][side][call.implementation] += call.kernels.size();
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

std::vector<CollectiveCallGroup> pairCollectiveCalls(const std::array<const std::vector<CollectiveCall>*, 2>& calls)
{
    // Per collective, the calls of each side in time order.
    std::map<std::string, std::array<std::vector<const CollectiveCall*>, 2>> byCollective;
    for (size_t side = 0; side < 2; ++side) {
        for (const CollectiveCall& call : *calls[side])
            byCollective[call.collective][side].push_back(&call);
    }
    using Key = std::tuple<size_t, std::string, std::string, std::string, std::string, std::string, int64_t, int64_t>;
    std::map<Key, CollectiveCallGroup> groups;
    for (const auto& [collective, sides] : byCollective) {
        const size_t count = std::max(sides[0].size(), sides[1].size());
        for (size_t i = 0; i < count; ++i) {
            std::array<const CollectiveCall*, 2> pair { i < sides[0].size() ? sides[0][i] : nullptr,
                i < sides[1].size() ? sides[1][i] : nullptr };
            auto field = [&](size_t side, std::string CollectiveCall::*member) {
                return pair[side] ? pair[side]->*member : std::string();
            };
            const Key key { orderOf(collective), collective, field(0, &CollectiveCall::implementation),
                field(1, &CollectiveCall::implementation), field(0, &CollectiveCall::operation),
                field(1, &CollectiveCall::operation), pair[0] ? pair[0]->messageBytes : -1,
                pair[1] ? pair[1]->messageBytes : -1 };
            CollectiveCallGroup& group = groups[key];
            group.collective = collective;
            for (size_t side = 0; side < 2; ++side) {
                if (!pair[side])
                    continue;
                group.implementation[side] = pair[side]->implementation;
                group.operation[side] = pair[side]->operation;
                group.messageBytes[side] = pair[side]->messageBytes;
                ++group.calls[side];
                group.timeUs[side] += pair[side]->timeUs;
            }
        }
    }
    std::vector<CollectiveCallGroup> result;
    result.reserve(groups.size());
    for (auto& [key, group] : groups)
        result.push_back(std::move(group));
    // By collective, then by the time at stake.
    std::stable_sort(result.begin(), result.end(), [](const CollectiveCallGroup& a, const CollectiveCallGroup& b) {
        if (a.collective != b.collective)
            return orderOf(a.collective) < orderOf(b.collective);
        return std::max(a.timeUs[0], a.timeUs[1]) > std::max(b.timeUs[0], b.timeUs[1]);
    });
    return result;
}

} // namespace fusiondiff
