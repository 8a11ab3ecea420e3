#pragma once

#include "model/stringtable.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fusiondiff {

struct TraceStore;

// A frame of a CPU call stack: a PyTorch operator (cpu_op), a module call (nn.Module) or another
// Python call (with_stack traces).
struct OpFrame
{
    // 32 bytes, in this order: the analysis walks the stacks of millions of frames.
    double ts = 0;
    double end = 0;
    StringId name = 0;
    int32_t parent = -1; // the enclosing frame on the same thread, -1 at the top
    int32_t depth = 0; // 0 at the top
    bool isModule = false;
    bool isPython = false; // a Python frame other than a module call
};
static_assert(sizeof(OpFrame) == 32);

// Which CPU operation launched each kernel. A kernel's launch is the runtime call with its
// correlation id (for graph-replayed kernels: the graph launch); the launching frame is the
// innermost operator or module around that call on its thread (the operator with the call's
// External id when there is one), else the innermost Python frame (a Triton kernel launched from
// Python). Kernels whose launch is not in the trace (it began before the profiler's CPU window)
// stay unattributed.
struct KernelAttribution
{
    std::vector<OpFrame> frames; // stacks of every thread, parents before children
    std::vector<int32_t> launchingFrame; // per kernel; -1: unattributed
    std::vector<int32_t> launchCall; // per kernel: index into TraceStore::runtimeCalls, -1 if none
    uint64_t attributed = 0;

    // Frames from the outermost down to `frame`.
    std::vector<int32_t> stackOf(int32_t frame) const;
    // The same without Python frames: modules and operators.
    std::vector<int32_t> operationStackOf(int32_t frame) const;
};

KernelAttribution attributeKernels(const TraceStore& store);

// The spans PyTorch's profiler and optimizers record around whole steps (`ProfilerStep#3`,
// `Optimizer.step#SGD.step`, `Optimizer.zero_grad#SGD.zero_grad`): user annotations today, CPU
// operators in the 2021 schema. They are no operator: nothing nests in them, nothing is launched by
// them (else a whole step would be one operation).
bool isProfilerSpan(std::string_view operatorName);

// "Qwen2RMSNorm_3" -> "Qwen2RMSNorm": module instances share their class's name.
std::string moduleClassName(std::string_view moduleName);

// torch/nn/modules/module.py's _call_impl and _wrapped_call_impl: the Python frames that call every
// module, whatever it is (the module structure, not a unit of its own).
bool isModuleDispatch(std::string_view pythonFunction);

} // namespace fusiondiff
