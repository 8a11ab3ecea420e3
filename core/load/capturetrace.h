#pragma once

#include "model/graphreport.h"

#include <string>
#include <string_view>

namespace fusiondiff {

// Reads a graph-capture trace: a PyTorch profiler trace recorded while CUDA/HIP graphs were
// captured (cudaStreamBeginCapture ... cudaStreamEndCapture), in which each kernel launch of a
// graph is a runtime call (with the kernel's name in `args.kernel`, where the trace records it)
// under the operators and Python frames that issued it. Each begin/end-capture pair on a thread
// gives one CapturedGraph, its launches in order, each with the outermost operator around it and
// its stack. Plain or gzip; up to kMaxCaptureBytes of JSON. Throws InputError if the file is not
// such a trace (not JSON, no events, or no graph capture in it).
CaptureTrace loadCaptureTrace(const std::string& path);
CaptureTrace loadCaptureTraceFromMemory(std::string_view bytes, const std::string& name);

constexpr size_t kMaxCaptureBytes = size_t(2) << 30;

} // namespace fusiondiff
