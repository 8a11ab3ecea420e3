#pragma once

#include <string_view>

namespace fusiondiff {

// What a kernel does for its operation, coarser than its type: kernels of one kind of work can stand
// in for each other across two stacks (one side's Conv kernel for the other's GEMM), kernels of
// different kinds never do (a layout transform is not the convolution it prepares).
enum class KernelWork
{
    Matrix, // GEMM, convolution, attention, MoE experts: the operation's arithmetic
    Layout, // copies, layout transforms (im2col, NCHW to NHWC, transposes), caches
    Pointwise, // elementwise, activations, norms, reductions, softmax, embeddings, rotary, quantization
    Communication,
    Any, // the classifier's fallback and types it does not know: may stand in for anything
};

// By the kernel's type name, unless its name says it moves data: Im2Col kernels are typed
// Conv by name but do a layout transform.
KernelWork kernelWork(std::string_view typeName, std::string_view kernelName);

} // namespace fusiondiff
