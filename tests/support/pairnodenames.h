#pragma once

// Autograd node and optimizer names as PyTorch records them, for the pair constructor.
#include <string>
#include <string_view>
#include <utility>

namespace fusiondiff::test::pairdetail {

constexpr std::string_view kBackwardWrapper = "autograd::engine::evaluate_function: ";
// The autograd engine's own nodes (`torch::autograd::AccumulateGrad`), recorded without the
// wrapper in the 2021 schema: PyTorch's, so another build records them in this namespace too.
constexpr std::string_view kEngineNodes = "torch::autograd::";

bool isEngineNode(const std::string& name);
bool isOptimizerStep(const std::string& name);
// "AddmmBackward0" -> { "Addmm", "Backward0" }; empty if the name is not an autograd node's.
std::pair<std::string, std::string> splitNodeName(const std::string& name);
// The operator name without namespace and underscores, lower case: "aten::native_layer_norm" ->
// "nativelayernorm", as PyTorch derives an autograd node's name (NativeLayerNormBackward0).
std::string nodeStem(const std::string& name);
// "op_25" -> "Op25", as PyTorch names an autograd node after its operator (addmm -> AddmmBackward0).
std::string camelCase(const std::string& name);

} // namespace fusiondiff::test::pairdetail
