#include "ops/attribution/stepparts.h"

#include "model/tracestore.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>
#include <utility>

namespace fusiondiff {

namespace {

constexpr std::string_view kEngineWrapper = "autograd::engine::evaluate_function: ";
// The namespace of the autograd engine's own nodes, which no operator is named in
// (`torch::autograd::AccumulateGrad`, `CopySlices`, `GraphRoot`); the 2021 schema records them
// without the engine's wrapper.
constexpr std::string_view kEngineNodes = "torch::autograd::";

bool isOptimizerStep(std::string_view name)
{
    return name.starts_with("Optimizer.step");
}

// "AddmmBackward0" -> { "Addmm", "Backward0" }; { "", "" } if not a node's name.
std::pair<std::string_view, std::string_view> splitNode(std::string_view name)
{
    const size_t at = name.rfind("Backward");
    if (at == std::string_view::npos || at == 0)
        return {};
    for (size_t i = at + 8; i < name.size(); ++i) {
        if (name[i] < '0' || name[i] > '9')
            return {};
    }
    return { name.substr(0, at), name.substr(at) };
}

// The autograd engine's threads: where the operations' outermost operators run on more than one
// thread, those that run an autograd node known by its name while another thread runs none. The
// engine runs the backward pass of GPU work on a thread of its own, and a node there whose name says
// nothing (another stack's own name for it) is backward work too. `chains` holds each
// occurrence's outermost operator (an index into the operators) or a negative mark.
std::set<int64_t> autogradEngineThreads(
    const TraceStore& store, const std::vector<OpOccurrence>& occurrences, const std::vector<int32_t>& chains)
{
    std::set<int64_t> operationThreads;
    for (size_t i = 0; i < occurrences.size(); ++i) {
        if (chains[i] >= 0)
            operationThreads.insert(store.cpuOps[size_t(chains[i])].tid);
    }
    if (operationThreads.size() < 2)
        return {};
    std::unordered_map<StringId, bool> isNodeName;
    std::set<int64_t> withNodes;
    for (const CpuOpEvent& op : store.cpuOps) {
        if (!operationThreads.contains(op.tid) || withNodes.contains(op.tid))
            continue;
        const auto [known, inserted] = isNodeName.try_emplace(op.name, false);
        if (inserted)
            known->second = autogradNodeOf(store.name(op.name)).isNode;
        if (known->second)
            withNodes.insert(op.tid);
    }
    if (withNodes.size() == operationThreads.size())
        return {}; // every thread runs nodes: the backward pass runs where the forward does
    return withNodes;
}

} // namespace

std::string forwardStemOf(std::string_view operatorName)
{
    const size_t colons = operatorName.rfind("::");
    const std::string_view base = colons == std::string_view::npos ? operatorName : operatorName.substr(colons + 2);
    std::string stem;
    for (const char c : base) {
        if (c != '_')
            stem += char(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    }
    return stem;
}

AutogradNode autogradNodeOf(std::string_view operatorName)
{
    AutogradNode node;
    std::string_view name = operatorName;
    if (name.starts_with(kEngineWrapper)) {
        name.remove_prefix(kEngineWrapper.size());
        node.wrapped = true;
    }
    const auto [base, suffix] = splitNode(name);
    node.isNode = node.wrapped || !base.empty() || name.starts_with(kEngineNodes);
    if (base.empty())
        return node; // AccumulateGrad and other nodes not named after an operator
    node.forwardStem = forwardStemOf(base); // a namespace in front (vendor::FooBackward0) is left out
    node.suffix = std::string(suffix);
    return node;
}

std::vector<StepPart> stepPartsOf(
    const TraceStore& store, const KernelAttribution& attribution, const std::vector<OpOccurrence>& occurrences)
{
    // The optimizer steps of each thread, in time order.
    std::map<int64_t, std::vector<std::pair<double, double>>> optimizerSpans;
    for (const AnnotationEvent& annotation : store.annotations) {
        if (!annotation.onGpu && isOptimizerStep(store.name(annotation.name)))
            optimizerSpans[annotation.tid].emplace_back(annotation.ts, annotation.ts + annotation.dur);
    }
    for (const CpuOpEvent& op : store.cpuOps) {
        if (isOptimizerStep(store.name(op.name)))
            optimizerSpans[op.tid].emplace_back(op.ts, op.ts + op.dur);
    }
    for (auto& [tid, spans] : optimizerSpans)
        std::sort(spans.begin(), spans.end());
    // Asked only where a thread has optimizer steps: reading an operator's thread misses the cache.
    auto inOptimizer = [&](int64_t tid, double ts) {
        const auto spans = optimizerSpans.find(tid);
        if (spans == optimizerSpans.end())
            return false;
        auto after = std::upper_bound(spans->second.begin(), spans->second.end(), std::make_pair(ts, 1e300));
        return after != spans->second.begin() && ts <= std::prev(after)->second;
    };

    // What a frame's chain (the frame and those around it) says, each frame decided once from the
    // one around it: Backward or Optimizer where the innermost frame of the chain that is an
    // autograd node or an optimizer step is one, else Forward with the outermost operator, whose
    // thread's optimizer spans then decide.
    constexpr int32_t kUnknown = -4, kBackward = -3, kOptimizer = -2, kForwardNoOperator = -1;
    std::vector<int32_t> chainOf(attribution.frames.size(), kUnknown); // or the outermost operator's index
    std::vector<int32_t> pending;
    const auto decide = [&](int32_t frame) {
        pending.clear();
        int32_t f = frame;
        for (; f >= 0 && chainOf[size_t(f)] == kUnknown; f = attribution.frames[size_t(f)].parent)
            pending.push_back(f);
        int32_t chain = f >= 0 ? chainOf[size_t(f)] : kForwardNoOperator;
        for (size_t k = pending.size(); k-- > 0;) { // outermost first
            const int32_t inner = pending[k];
            const OpFrame& own = attribution.frames[size_t(inner)];
            if (!own.isModule && !own.isPython) {
                const std::string_view name = store.name(own.name);
                if (autogradNodeOf(name).isNode)
                    chain = kBackward;
                else if (isOptimizerStep(name))
                    chain = kOptimizer;
                else if (chain == kForwardNoOperator && size_t(inner) < store.cpuOps.size())
                    chain = inner; // cpu ops are frames 0..n-1
            }
            chainOf[size_t(inner)] = chain;
        }
        return chain;
    };
    std::vector<int32_t> chains(occurrences.size(), kUnknown);
    for (size_t i = 0; i < occurrences.size(); ++i) {
        if (occurrences[i].frame >= 0)
            chains[i] = decide(occurrences[i].frame);
    }
    const std::set<int64_t> engineThreads = autogradEngineThreads(store, occurrences, chains);
    std::vector<StepPart> parts(occurrences.size(), StepPart::Forward);
    for (size_t i = 0; i < occurrences.size(); ++i) {
        const int32_t chain = chains[i];
        if (chain == kUnknown)
            continue;
        const int64_t tid = chain >= 0 ? store.cpuOps[size_t(chain)].tid : -1;
        const bool optimizer = chain != kBackward
            && (chain == kOptimizer || (!optimizerSpans.empty() && inOptimizer(tid, occurrences[i].ts)));
        if (chain == kBackward || (!optimizer && chain >= 0 && engineThreads.contains(tid)))
            parts[i] = StepPart::Backward;
        else if (optimizer)
            parts[i] = StepPart::Optimizer;
    }
    return parts;
}

} // namespace fusiondiff
