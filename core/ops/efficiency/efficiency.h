#pragma once

#include "model/efficiencyreport.h"
#include "ops/efficiency/gpupeaks.h"

#include <array>

namespace fusiondiff {

struct TraceStore;
struct KernelAttribution;

struct EfficiencyTrace
{
    const TraceStore& store;
    const KernelAttribution& attribution;
};

// The efficiency table: every kernel launched by an operator is given to the operator that defines
// its work (the outermost of the highest rank, workOperatorRank: aten::addmm under aten::linear,
// aten::_scaled_dot_product_flash_attention over aten::_flash_attention_forward), else to the
// operator that launched it; each call's time is the sum of its kernels. Calls are grouped by
// operator, shape and data type, and the groups of both traces joined on that key.
EfficiencyReport analyzeEfficiency(const std::array<EfficiencyTrace, 2>& traces, const GpuPeakTable& peaks);

} // namespace fusiondiff
