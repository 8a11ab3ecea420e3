#pragma once

#include "fusionanalysis.h"
#include "tracewriter.h"

#include <array>
#include <string>

namespace fusiondiff::test {

// Kernel names the operation, graph and time-gap suites build their small models from, as the
// profiler records them on AMD (the GEMM) and NVIDIA (the rest), so that the built-in classifier
// types them as real traces: GEMM, GEMM with a fused ReLU, Activation, Elementwise, Normalization.
inline const std::string kGemm = "Cijk_Alik_Bljk_BBS_MT128x128_gemm";
inline const std::string kGemmRelu
    = "void cutlass::Kernel2<cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_64x64_64x6_tn_align8>";
inline const std::string kRelu
    = "void at::native::vectorized_elementwise_kernel<4, at::native::threshold_kernel_impl<float>>";
inline const std::string kAdd = "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>>";
inline const std::string kNorm = "void at::native::vectorized_layer_norm_kernel<float>";

// Writes `a` and `b` to a temporary folder, loads them and compares them with the built-in
// "default" classifier (and the graph-capture traces `captures`, null for none).
FusionReport compareWritten(const TraceWriter& a, const TraceWriter& b, const AnalysisOptions& options = {},
    const std::array<const CaptureTrace*, 2>& captures = {});

} // namespace fusiondiff::test
