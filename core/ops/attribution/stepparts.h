#pragma once

#include "ops/attribution/opoccurrences.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fusiondiff {

struct TraceStore;

// The parts of a training step, in the order they run: the forward pass, the backward pass (the
// autograd engine's nodes, with the data-parallel communication they start) and the optimizer step.
enum class StepPart : uint8_t
{
    Forward,
    Backward,
    Optimizer,
};

// Each occurrence's part: Backward inside an autograd node (`autograd::engine::evaluate_function:
// X`, or a node recorded on its own: `XBackward0`, or one of the engine's own such as
// `torch::autograd::AccumulateGrad`), Optimizer inside an `Optimizer.step#...` span
// on its thread (an annotation or an operator), else Forward. These names are PyTorch's own (its
// autograd engine and torch.optim record them), so another build's trace has them too, whatever
// its operators are called. Where the operations run on several threads and some of them run
// such a node while another runs none, those are the autograd engine's threads, and everything
// on them outside the optimizer is Backward: a node recorded on its own (the 2021 schema) under a
// name that says nothing (`VendorGrad7` for `MeanBackward1`) is backward work there too.
std::vector<StepPart> stepPartsOf(
    const TraceStore& store, const KernelAttribution& attribution, const std::vector<OpOccurrence>& occurrences);

// The forward operator an autograd node is named after, as PyTorch derives it: the node name
// without the engine's prefix and its `Backward<N>` suffix, lower case without underscores
// ("autograd::engine::evaluate_function: NativeLayerNormBackward0" -> "nativelayernorm"), and the
// suffix ("Backward0"); a namespace before the node's name is left out like the operator's
// ("vendor::FooBackward0" -> "foo"). isNode is false if the name is not an autograd node's; the stem is empty
// for nodes not named after an operator (`torch::autograd::AccumulateGrad`, wrapped or not).
struct AutogradNode
{
    std::string forwardStem;
    std::string suffix;
    bool wrapped = false; // recorded inside the engine's evaluate_function
    bool isNode = false;
};
AutogradNode autogradNodeOf(std::string_view operatorName);

// An operator name as the stem of the nodes named after it: without namespace and underscores,
// lower case ("aten::native_layer_norm" -> "nativelayernorm", "vendor::op_7" -> "op7").
std::string forwardStemOf(std::string_view operatorName);

} // namespace fusiondiff
