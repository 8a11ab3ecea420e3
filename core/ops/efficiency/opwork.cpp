#include "ops/efficiency/opwork.h"

namespace fusiondiff {

namespace {

// Wrappers: their shapes hold the same work as the operator they call, which is preferred.
constexpr std::string_view kWrappers[] = { "aten::linear", "aten::matmul", "aten::conv1d", "aten::conv2d",
    "aten::conv3d", "aten::conv_transpose1d", "aten::conv_transpose2d", "aten::conv_transpose3d",
    "aten::scaled_dot_product_attention", "aten::_convolution", "aten::cudnn_convolution", "aten::miopen_convolution",
    "aten::cudnn_convolution_transpose", "aten::miopen_convolution_transpose", "aten::_flash_attention_forward",
    "aten::_flash_attention_backward", "aten::_efficient_attention_forward", "aten::_efficient_attention_backward" };

} // namespace

const char* workFamilyName(WorkFamily family)
{
    switch (family) {
    case WorkFamily::Gemm:
        return "GEMM";
    case WorkFamily::Attention:
        return "attention";
    case WorkFamily::Convolution:
        return "convolution";
    case WorkFamily::Memory:
        return "memory";
    }
    return "";
}

WorkEstimate noWork(std::string reason)
{
    return { std::nullopt, std::move(reason) };
}

std::string dimsText(const std::vector<int64_t>& dims)
{
    std::string text = "[";
    for (size_t i = 0; i < dims.size(); ++i)
        text += (i ? ", " : "") + std::to_string(dims[i]);
    return text + "]";
}

std::string_view baseName(std::string_view op)
{
    const size_t colons = op.rfind("::");
    return colons == std::string_view::npos ? op : op.substr(colons + 2);
}

WorkEstimate estimateWork(std::string_view op, const OpInputs& inputs)
{
    for (const auto family : { gemmWork, attentionWork, convolutionWork, memoryWork }) {
        if (std::optional<WorkEstimate> estimate = family(op, inputs))
            return std::move(*estimate);
    }
    return noWork("unsupported operator: no FLOPs or bytes model for " + std::string(op));
}

int workOperatorRank(std::string_view op)
{
    for (const std::string_view wrapper : kWrappers) {
        if (op == wrapper)
            return 1;
    }
    // Recognised by a family with shapes that do not matter here: an empty call tells only whether
    // the family knows the name (it answers with a reason, not with nullopt).
    const OpInputs none;
    for (const auto family : { gemmWork, attentionWork, convolutionWork, memoryWork }) {
        if (family(op, none))
            return 2;
    }
    return 0;
}

} // namespace fusiondiff
