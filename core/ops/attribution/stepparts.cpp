#include "ops/attribution/stepparts.h"

#include "model/tracestore.h"

#include <algorithm>
#include <map>
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
    auto inOptimizer = [&](int64_t tid, double ts) {
        const auto spans = optimizerSpans.find(tid);
        if (spans == optimizerSpans.end())
            return false;
        auto after = std::upper_bound(spans->second.begin(), spans->second.end(), std::make_pair(ts, 1e300));
        return after != spans->second.begin() && ts <= std::prev(after)->second;
    };

    std::vector<int8_t> partOfFrame(attribution.frames.size(), -1);
    std::vector<int32_t> pending;
    std::vector<StepPart> parts(occurrences.size(), StepPart::Forward);
    for (size_t i = 0; i < occurrences.size(); ++i) {
        const int32_t frame = occurrences[i].frame;
        if (frame < 0)
            continue;
        // Backward if a frame around it (or itself) is an autograd node; known frames are reused.
        pending.clear();
        int8_t part = -1;
        int64_t tid = -1;
        for (int32_t f = frame; f >= 0; f = attribution.frames[size_t(f)].parent) {
            if (partOfFrame[size_t(f)] >= 0) {
                part = partOfFrame[size_t(f)];
                break;
            }
            pending.push_back(f);
            const OpFrame& own = attribution.frames[size_t(f)];
            if (own.isModule || own.isPython)
                continue;
            if (size_t(f) < store.cpuOps.size())
                tid = store.cpuOps[size_t(f)].tid; // cpu ops are frames 0..n-1
            const std::string_view name = store.name(own.name);
            if (autogradNodeOf(name).isNode) {
                part = int8_t(StepPart::Backward);
                break;
            }
            if (isOptimizerStep(name)) {
                part = int8_t(StepPart::Optimizer);
                break;
            }
        }
        if (part < 0)
            part = int8_t(inOptimizer(tid, occurrences[i].ts) ? StepPart::Optimizer : StepPart::Forward);
        if (part == int8_t(StepPart::Backward)) {
            for (const int32_t f : pending)
                partOfFrame[size_t(f)] = part; // a backward frame's frames below it are backward too
        }
        parts[i] = StepPart(part);
    }
    return parts;
}

} // namespace fusiondiff
