#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace fusiondiff {

struct FusionReport;

// What the efficiency table says of an operation's speed difference, for its where-to-look-first
// entry: for its rows with the most time at stake (at most `limit`), each side's share of its own
// roof and whether the gap is the kernel's or the hardware's ("aten::addmm M=8944 N=1024 K=1024 bias
// bf16: AMD runs it at 24% of its bf16 peak (MI300X), NVIDIA at 62% (H100 SXM): the kernel, not the
// hardware"), or that one side alone runs a shape. `operation` is the entry's operation: its own rows,
// or, for a wrapper (aten::linear, aten::matmul, aten::conv2d, ...), the rows of the operators it
// calls. Rows with less than `minStakeUs` at stake are left out. Empty when the table has nothing to say.
std::vector<std::string> rooflineDetails(
    const FusionReport& report, std::string_view operation, double minStakeUs, size_t limit = 2);

// Whether the efficiency rows of operator `op` belong to `operation` (an operation of the comparison):
// it is that operator, or a wrapper whose work is recorded under it (efficiency.cpp gives it the
// wrapper's kernels: aten::addmm under aten::linear, aten::convolution under aten::conv2d).
bool operationCoversOperator(std::string_view operation, std::string_view op);

} // namespace fusiondiff
