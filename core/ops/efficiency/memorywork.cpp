// Normalisation, elementwise operators and reductions: bytes bind them. Every tensor input is read
// once at its own size (a broadcast input is not re-read), and the output written once: for an
// elementwise operator the broadcast shape of its inputs (in place, `add_`: the first input), for a
// normalisation or softmax the input's shape, for a reduction nothing worth counting.
#include "ops/efficiency/opwork.h"

#include <algorithm>

namespace fusiondiff {

namespace {

enum class Output
{
    Broadcast, // elementwise
    FirstInput, // normalisation, softmax, in-place operators
    None, // reductions
};

struct MemoryOperator
{
    std::string_view name; // without "aten::" and a trailing '_'
    Output output;
};

constexpr MemoryOperator kMemoryOperators[] = {
    { "layer_norm", Output::FirstInput },
    { "native_layer_norm", Output::FirstInput },
    { "rms_norm", Output::FirstInput },
    { "_fused_rms_norm", Output::FirstInput },
    { "group_norm", Output::FirstInput },
    { "native_group_norm", Output::FirstInput },
    { "batch_norm", Output::FirstInput },
    { "native_batch_norm", Output::FirstInput },
    { "_native_batch_norm_legit", Output::FirstInput },
    { "_native_batch_norm_legit_no_training", Output::FirstInput },
    { "native_layer_norm_backward", Output::FirstInput },
    { "softmax", Output::FirstInput },
    { "_softmax", Output::FirstInput },
    { "log_softmax", Output::FirstInput },
    { "_log_softmax", Output::FirstInput },
    { "_softmax_backward_data", Output::FirstInput },
    { "add", Output::Broadcast },
    { "sub", Output::Broadcast },
    { "mul", Output::Broadcast },
    { "div", Output::Broadcast },
    { "pow", Output::Broadcast },
    { "where", Output::Broadcast },
    { "masked_fill", Output::Broadcast },
    { "maximum", Output::Broadcast },
    { "minimum", Output::Broadcast },
    { "addcmul", Output::Broadcast },
    { "addcdiv", Output::Broadcast },
    { "lerp", Output::Broadcast },
    { "gelu", Output::Broadcast },
    { "gelu_backward", Output::Broadcast },
    { "silu", Output::Broadcast },
    { "silu_backward", Output::Broadcast },
    { "relu", Output::Broadcast },
    { "threshold_backward", Output::Broadcast },
    { "sigmoid", Output::Broadcast },
    { "tanh", Output::Broadcast },
    { "exp", Output::Broadcast },
    { "log", Output::Broadcast },
    { "sqrt", Output::Broadcast },
    { "rsqrt", Output::Broadcast },
    { "neg", Output::Broadcast },
    { "abs", Output::Broadcast },
    { "reciprocal", Output::Broadcast },
    { "clamp", Output::Broadcast },
    { "fill", Output::Broadcast },
    { "zero", Output::Broadcast },
    { "copy", Output::FirstInput },
    { "clone", Output::Broadcast },
    { "contiguous", Output::Broadcast },
    { "cat", Output::None },
    { "sum", Output::None },
    { "mean", Output::None },
    { "amax", Output::None },
    { "amin", Output::None },
    { "max", Output::None },
    { "min", Output::None },
    { "norm", Output::None },
    { "linalg_vector_norm", Output::None },
    { "argmax", Output::None },
    { "cumsum", Output::FirstInput },
};

// The shape the inputs broadcast to (numpy's rules).
std::vector<int64_t> broadcastShape(const OpInputs& inputs)
{
    std::vector<int64_t> shape;
    for (size_t i = 0; i < inputs.size(); ++i) {
        const std::vector<int64_t>& dims = inputs.dimsOf(i);
        if (dims.size() > shape.size())
            shape.insert(shape.begin(), dims.size() - shape.size(), 1);
        for (size_t d = 0; d < dims.size(); ++d) {
            int64_t& extent = shape[shape.size() - dims.size() + d];
            extent = std::max(extent, dims[d]);
        }
    }
    return shape;
}

} // namespace

std::optional<WorkEstimate> memoryWork(std::string_view op, const OpInputs& inputs)
{
    if (!op.starts_with("aten::"))
        return std::nullopt;
    std::string_view name = baseName(op);
    const bool inPlace = name.size() > 1 && name.back() == '_' && name[name.size() - 2] != '_';
    if (inPlace)
        name.remove_suffix(1);
    const MemoryOperator* known = findByName(kMemoryOperators, name);
    if (!known)
        return std::nullopt;
    size_t first = inputs.size();
    double bytes = 0;
    for (size_t i = 0; i < inputs.size(); ++i) {
        if (!inputs.isTensor(i))
            continue;
        const double elementBytes = dtypeNameBytes(dtypeName(inputs.typeOf(i)));
        if (elementBytes == 0)
            return noWork("shapes not understood: input " + std::to_string(i) + " has no known data type");
        first = std::min(first, i);
        bytes += static_cast<double>(inputs.elements(i)) * elementBytes;
    }
    if (first == inputs.size())
        return noWork("shapes not understood: no tensor input recorded");
    const double firstBytes = dtypeNameBytes(dtypeName(inputs.typeOf(first)));
    if (inPlace || known->output == Output::FirstInput) {
        bytes += static_cast<double>(inputs.elements(first)) * firstBytes;
    } else if (known->output == Output::Broadcast) {
        double elements = 1;
        for (const int64_t extent : broadcastShape(inputs))
            elements *= static_cast<double>(extent);
        bytes += elements * firstBytes;
    }
    OpWork work;
    work.family = WorkFamily::Memory;
    work.bytes = bytes;
    work.dtype = dtypeName(inputs.typeOf(first));
    for (size_t i = 0; i < inputs.size(); ++i) {
        if (inputs.isTensor(i))
            work.shape += (work.shape.empty() ? "" : " ") + dimsText(inputs.dimsOf(i));
    }
    return WorkEstimate { std::move(work), {} };
}

} // namespace fusiondiff
