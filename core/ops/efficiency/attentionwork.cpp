// Attention: the score product Q·Kᵀ and the value product P·V, 2·B·H·Sq·Skv·(D + Dv) forward;
// causal masking does half of both (TraceLens counts the same); backward 2.5 times the forward
// (the score recomputed, then dQ, dK, dV: five products for the forward's two). Bytes: Q, K, V and
// the output once (backward: those, the output's gradient, and the three gradients).
#include "ops/efficiency/opwork.h"

namespace fusiondiff {

namespace {

enum class Layout
{
    BHSD, // [batch, heads, sequence, head dim]: the scaled_dot_product_* operators
    BSHD, // [batch, sequence, heads, head dim]: the flash-attention kernels' own operators
};

struct AttentionOperator
{
    std::string_view name;
    size_t query; // input index of Q (K and V follow)
    size_t causal; // input index of is_causal
    Layout layout;
    bool backward;
};

constexpr AttentionOperator kAttentionOperators[] = {
    { "aten::scaled_dot_product_attention", 0, 5, Layout::BHSD, false },
    { "aten::_scaled_dot_product_flash_attention", 0, 4, Layout::BHSD, false },
    { "aten::_scaled_dot_product_efficient_attention", 0, 6, Layout::BHSD, false },
    { "aten::_scaled_dot_product_cudnn_attention", 0, 6, Layout::BHSD, false },
    { "aten::_scaled_dot_product_flash_attention_backward", 1, 11, Layout::BHSD, true },
    { "aten::_scaled_dot_product_efficient_attention_backward", 1, 11, Layout::BHSD, true },
    { "aten::_scaled_dot_product_cudnn_attention_backward", 1, 14, Layout::BHSD, true },
    { "aten::_flash_attention_forward", 0, 8, Layout::BSHD, false },
    { "aten::_flash_attention_backward", 1, 11, Layout::BSHD, true },
    // The efficient kernels' own operators take custom_mask_type (0 none, 1 and 2 causal).
    { "aten::_efficient_attention_forward", 0, 9, Layout::BSHD, false },
    { "aten::_efficient_attention_backward", 1, 14, Layout::BSHD, true },
    { "flash_attn::_flash_attn_forward", 0, 5, Layout::BSHD, false },
    { "flash_attn::_flash_attn_backward", 1, 11, Layout::BSHD, true },
};

struct Extents
{
    int64_t batch = 0;
    int64_t heads = 0;
    int64_t sequence = 0;
    int64_t headDim = 0;
};

std::optional<Extents> extentsOf(const std::vector<int64_t>& dims, Layout layout)
{
    if (dims.size() != 4)
        return std::nullopt;
    if (layout == Layout::BHSD)
        return Extents { dims[0], dims[1], dims[2], dims[3] };
    return Extents { dims[0], dims[2], dims[1], dims[3] };
}

} // namespace

std::optional<WorkEstimate> attentionWork(std::string_view op, const OpInputs& inputs)
{
    const AttentionOperator* known = findByName(kAttentionOperators, op);
    if (!known)
        return std::nullopt;
    const std::optional<Extents> q = extentsOf(inputs.dimsOf(known->query), known->layout);
    const std::optional<Extents> k = extentsOf(inputs.dimsOf(known->query + 1), known->layout);
    const std::optional<Extents> v = extentsOf(inputs.dimsOf(known->query + 2), known->layout);
    if (!q || !k || !v)
        return noWork("shapes not understood: expected 4-d Q, K and V");
    std::optional<bool> causal = concreteBool(inputs.concreteOf(known->causal));
    if (const std::optional<std::vector<int64_t>> mask = concreteIntegers(inputs.concreteOf(known->causal));
        !causal && mask && mask->size() == 1)
        causal = (*mask)[0] != 0;
    if (!causal)
        return noWork("shapes not understood: is_causal not recorded (Concrete Inputs)");
    const double b = static_cast<double>(q->batch);
    const double h = static_cast<double>(q->heads);
    const double sq = static_cast<double>(q->sequence);
    const double skv = static_cast<double>(k->sequence);
    const double d = static_cast<double>(q->headDim);
    const double dv = static_cast<double>(v->headDim);
    double flops = 2 * b * h * sq * skv * (d + dv);
    if (*causal)
        flops /= 2;
    const double elementBytes = dtypeNameBytes(dtypeName(inputs.typeOf(known->query)));
    const double qElements = b * h * sq * d;
    const double kvElements = b * static_cast<double>(k->heads) * skv * (d + dv);
    const double outElements = b * h * sq * dv;
    double elements = qElements + kvElements + outElements;
    if (known->backward) {
        flops *= 2.5;
        // Q, K, V, O and dO read; dQ, dK, dV written.
        elements = 2 * (qElements + kvElements) + 2 * outElements;
    }
    OpWork work;
    work.family = WorkFamily::Attention;
    work.flops = flops;
    work.bytes = elements * elementBytes;
    work.dtype = dtypeName(inputs.typeOf(known->query));
    work.shape = "B=" + std::to_string(q->batch) + " H=" + std::to_string(q->heads) + " Hkv=" + std::to_string(k->heads)
        + " Sq=" + std::to_string(q->sequence) + " Skv=" + std::to_string(k->sequence)
        + " D=" + std::to_string(q->headDim) + (dv != d ? " Dv=" + std::to_string(v->headDim) : "")
        + (*causal ? " causal" : "");
    if (work.dtype.empty())
        return noWork("shapes not understood: no data type for Q");
    return WorkEstimate { std::move(work), {} };
}

} // namespace fusiondiff
