#include "ops/comparison/kernelwork.h"

#include "util/textmatch.h"

namespace fusiondiff {

namespace {

bool nameSaysLayout(std::string_view kernelName)
{
    return containsAny(asciiLower(kernelName),
        { "im2col", "im2d2col", "col2im", "nchwtonhwc", "nhwctonchw", "transpose", "permute", "layout_convert" });
}

} // namespace

KernelWork kernelWork(std::string_view typeName, std::string_view kernelName)
{
    if (nameSaysLayout(kernelName))
        return KernelWork::Layout;
    if (typeName == "GEMM" || typeName == "Conv" || typeName == "Attention" || typeName == "MoE")
        return KernelWork::Matrix;
    if (typeName == "Memory" || typeName == "KVCache")
        return KernelWork::Layout;
    if (typeName == "Communication")
        return KernelWork::Communication;
    if (typeName == "Elementwise" || typeName == "Activation" || typeName == "Norm" || typeName == "Reduce"
        || typeName == "Softmax" || typeName == "Embedding" || typeName == "RoPE" || typeName == "Quantization"
        || typeName == "SortTopK")
        return KernelWork::Pointwise;
    return KernelWork::Any;
}

} // namespace fusiondiff
