#pragma once

#include "ops/efficiency/opshapes.h"

#include <optional>
#include <string>
#include <string_view>

namespace fusiondiff {

enum class WorkFamily
{
    Gemm,
    Attention,
    Convolution,
    Memory, // normalisation, elementwise, reductions: bytes bind them, FLOPs are not counted
};

const char* workFamilyName(WorkFamily family);

// What one call of an operator does, from its recorded shapes: the floating-point operations
// (multiply and add count two) and the bytes it must move at least (each input read once, each
// output written once), with the data type whose peak applies.
struct OpWork
{
    WorkFamily family = WorkFamily::Memory;
    double flops = 0;
    double bytes = 0;
    std::string dtype; // "bf16", "fp32", ...; the first tensor input's
    std::string shape; // what the table shows: "M=8944 N=2816 K=1024", "[4, 197, 768]"
};

// The work, or why there is none ("shapes not understood: ..."): never a guess.
struct WorkEstimate
{
    std::optional<OpWork> work;
    std::string reason;
};

// How strongly the efficiency table prefers an operator as the owner of the kernels under it:
// 2 for the operators whose shapes define the work (aten::mm, aten::convolution,
// aten::_scaled_dot_product_flash_attention, aten::layer_norm, aten::add, ...), 1 for the wrappers
// around them (aten::linear, aten::matmul, aten::conv2d, aten::scaled_dot_product_attention), which
// own kernels only where no operator of rank 2 is found, 0 for operators without a model.
int workOperatorRank(std::string_view op);

WorkEstimate estimateWork(std::string_view op, const OpInputs& inputs);

// The families, each in its own file.
std::optional<WorkEstimate> gemmWork(std::string_view op, const OpInputs& inputs);
std::optional<WorkEstimate> attentionWork(std::string_view op, const OpInputs& inputs);
std::optional<WorkEstimate> convolutionWork(std::string_view op, const OpInputs& inputs);
std::optional<WorkEstimate> memoryWork(std::string_view op, const OpInputs& inputs);

// Shared by the families.
WorkEstimate noWork(std::string reason);
std::string dimsText(const std::vector<int64_t>& dims); // "[4, 197, 768]"
// The operator name without its namespace ("aten::addmm" -> "addmm").
std::string_view baseName(std::string_view op);
// The entry of a family's table of operators (each with a `name`) that is `name`, or nullptr.
template<typename Entry, size_t N>
const Entry* findByName(const Entry (&table)[N], std::string_view name)
{
    for (const Entry& entry : table) {
        if (entry.name == name)
            return &entry;
    }
    return nullptr;
}

} // namespace fusiondiff
