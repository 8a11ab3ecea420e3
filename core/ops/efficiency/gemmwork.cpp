// GEMMs: 2·M·N·K per product (a multiply and an add), plus M·N where a bias or C is added
// (TraceLens's perf model counts the same); bytes: A, B and the output once, the bias once.
#include "ops/efficiency/opwork.h"

#include <algorithm>

namespace fusiondiff {

namespace {

struct Product
{
    double batch = 1;
    int64_t m = 0;
    int64_t n = 0;
    int64_t k = 0;
    bool bias = false;
};

std::string productText(const Product& product)
{
    std::string text = product.batch != 1 ? "B=" + std::to_string(static_cast<int64_t>(product.batch)) + " " : "";
    text += "M=" + std::to_string(product.m) + " N=" + std::to_string(product.n) + " K=" + std::to_string(product.k);
    return product.bias ? text + " bias" : text;
}

WorkEstimate productWork(const Product& product, double inputBytes, double outputBytes, double biasElements,
    const OpInputs& inputs, size_t typedInput)
{
    const double m = static_cast<double>(product.m);
    const double n = static_cast<double>(product.n);
    const double k = static_cast<double>(product.k);
    OpWork work;
    work.family = WorkFamily::Gemm;
    work.flops = product.batch * (2 * m * n * k + (product.bias ? m * n : 0));
    work.bytes = product.batch * (m * k + k * n) * inputBytes + product.batch * m * n * outputBytes
        + biasElements * outputBytes;
    work.dtype = dtypeName(inputs.typeOf(typedInput));
    work.shape = productText(product);
    if (work.dtype.empty())
        return noWork("shapes not understood: no data type for the matrices");
    return { std::move(work), {} };
}

double elementBytes(const OpInputs& inputs, size_t i)
{
    return dtypeNameBytes(dtypeName(inputs.typeOf(i)));
}

bool isMatrix(const OpInputs& inputs, size_t i)
{
    return inputs.dimsOf(i).size() == 2;
}

// mm(A[M,K], B[K,N]); addmm(C, A, B) with C broadcast to [M,N].
std::optional<WorkEstimate> plainProduct(const OpInputs& inputs, size_t a, bool bias, size_t biasInput)
{
    if (!isMatrix(inputs, a) || !isMatrix(inputs, a + 1) || inputs.dimsOf(a)[1] != inputs.dimsOf(a + 1)[0])
        return noWork("shapes not understood: expected A[M,K] and B[K,N]");
    const Product product { 1, inputs.dimsOf(a)[0], inputs.dimsOf(a + 1)[1], inputs.dimsOf(a)[1], bias };
    const double bytes = elementBytes(inputs, a);
    return productWork(product, bytes, bytes, bias ? static_cast<double>(inputs.elements(biasInput)) : 0, inputs, a);
}

// bmm(A[B,M,K], B[B,K,N]); baddbmm(C, A, B).
std::optional<WorkEstimate> batchedProduct(const OpInputs& inputs, size_t a, bool bias, size_t biasInput)
{
    const std::vector<int64_t>& left = inputs.dimsOf(a);
    const std::vector<int64_t>& right = inputs.dimsOf(a + 1);
    if (left.size() != 3 || right.size() != 3 || left[2] != right[1] || left[0] != right[0])
        return noWork("shapes not understood: expected A[B,M,K] and B[B,K,N]");
    const Product product { static_cast<double>(left[0]), left[1], right[2], left[2], bias };
    const double bytes = elementBytes(inputs, a);
    return productWork(product, bytes, bytes, bias ? static_cast<double>(inputs.elements(biasInput)) : 0, inputs, a);
}

// matmul(A, B) with torch.matmul's rules: vectors, matrices, broadcast batches.
std::optional<WorkEstimate> matmulProduct(const OpInputs& inputs)
{
    std::vector<int64_t> left = inputs.dimsOf(0);
    std::vector<int64_t> right = inputs.dimsOf(1);
    if (left.empty() || right.empty())
        return noWork("shapes not understood: matmul of a scalar");
    if (left.size() == 1)
        left.insert(left.begin(), 1);
    if (right.size() == 1)
        right.push_back(1);
    const int64_t k = left.back();
    if (right[right.size() - 2] != k)
        return noWork("shapes not understood: the inner dimensions of matmul differ");
    double batch = 1;
    const size_t leftBatch = left.size() - 2;
    const size_t rightBatch = right.size() - 2;
    for (size_t i = 0; i < std::max(leftBatch, rightBatch); ++i) {
        const int64_t l = i < leftBatch ? left[leftBatch - 1 - i] : 1;
        const int64_t r = i < rightBatch ? right[rightBatch - 1 - i] : 1;
        batch *= static_cast<double>(std::max(l, r));
    }
    const Product product { batch, left[left.size() - 2], right.back(), k, false };
    const double bytes = elementBytes(inputs, 0);
    return productWork(product, bytes, bytes, 0, inputs, 0);
}

// linear(x[..., K], W[N, K], bias[N]).
std::optional<WorkEstimate> linearProduct(const OpInputs& inputs)
{
    const std::vector<int64_t>& x = inputs.dimsOf(0);
    const std::vector<int64_t>& weight = inputs.dimsOf(1);
    if (x.empty() || weight.size() != 2 || x.back() != weight[1])
        return noWork("shapes not understood: expected x[..., K] and W[N, K]");
    int64_t m = 1;
    for (size_t i = 0; i + 1 < x.size(); ++i)
        m *= x[i];
    const bool bias = inputs.isTensor(2);
    const Product product { 1, m, weight[0], weight[1], bias };
    const double bytes = elementBytes(inputs, 0);
    return productWork(product, bytes, bytes, bias ? static_cast<double>(inputs.elements(2)) : 0, inputs, 0);
}

// _scaled_mm(A[M,K] fp8, B[K,N] fp8, scale_a, scale_b, bias, scale_result, out_dtype, ...): the
// output is taken as 2 bytes an element (bf16, what it is used for) unless the bias says otherwise.
std::optional<WorkEstimate> scaledProduct(const OpInputs& inputs)
{
    if (!isMatrix(inputs, 0) || !isMatrix(inputs, 1) || inputs.dimsOf(0)[1] != inputs.dimsOf(1)[0])
        return noWork("shapes not understood: expected A[M,K] and B[K,N]");
    const bool bias = inputs.isTensor(4);
    const Product product { 1, inputs.dimsOf(0)[0], inputs.dimsOf(1)[1], inputs.dimsOf(0)[1], bias };
    const double outputBytes = bias ? elementBytes(inputs, 4) : 2;
    return productWork(
        product, elementBytes(inputs, 0), outputBytes, bias ? static_cast<double>(inputs.elements(4)) : 0, inputs, 0);
}

// A vendor GEMM operator (vllm::rocm_unquantized_gemm, _C::cutlass_scaled_mm, aiter::gemm_a8w8,
// ...): the first two matrices in argument order that share an inner dimension, as A[M,K] with
// B[K,N] or with a weight W[N,K].
std::optional<WorkEstimate> vendorProduct(const OpInputs& inputs)
{
    for (size_t a = 0; a + 1 < inputs.size(); ++a) {
        if (!isMatrix(inputs, a) || !isMatrix(inputs, a + 1))
            continue;
        const std::vector<int64_t>& left = inputs.dimsOf(a);
        const std::vector<int64_t>& right = inputs.dimsOf(a + 1);
        Product product { 1, left[0], 0, left[1], false };
        if (right[0] == left[1])
            product.n = right[1];
        else if (right[1] == left[1])
            product.n = right[0];
        else
            continue;
        const double bytes = elementBytes(inputs, a);
        return productWork(product, bytes, bytes, 0, inputs, a);
    }
    return noWork("shapes not understood: no two matrices sharing an inner dimension");
}

bool isVendorGemm(std::string_view op)
{
    if (op.starts_with("aten::"))
        return false;
    const std::string_view name = baseName(op);
    return name.find("gemm") != std::string_view::npos || name.find("scaled_mm") != std::string_view::npos;
}

} // namespace

std::optional<WorkEstimate> gemmWork(std::string_view op, const OpInputs& inputs)
{
    if (op == "aten::mm")
        return plainProduct(inputs, 0, false, 0);
    if (op == "aten::addmm")
        return plainProduct(inputs, 1, inputs.isTensor(0), 0);
    if (op == "aten::bmm")
        return batchedProduct(inputs, 0, false, 0);
    if (op == "aten::baddbmm")
        return batchedProduct(inputs, 1, inputs.isTensor(0), 0);
    if (op == "aten::matmul")
        return matmulProduct(inputs);
    if (op == "aten::linear")
        return linearProduct(inputs);
    if (op == "aten::_scaled_mm")
        return scaledProduct(inputs);
    if (isVendorGemm(op))
        return vendorProduct(inputs);
    return std::nullopt;
}

} // namespace fusiondiff
