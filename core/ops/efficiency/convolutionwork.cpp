// Convolution: 2 FLOPs per multiply-add, N·Cout·(output positions)·(Cin/groups)·(kernel positions),
// the bias not counted (TraceLens counts the same); transposed: the same products seen from the
// input, N·Cin·(input positions)·(Cout/groups)·(kernel positions). Backward: one forward's work for
// each of the input's and the weight's gradients that output_mask asks for. Bytes: input, weight,
// output once (and the bias).
#include "ops/efficiency/opwork.h"

namespace fusiondiff {

namespace {

struct ConvolutionArguments
{
    size_t input;
    size_t weight;
    size_t bias; // SIZE_MAX: none
    size_t stride;
    size_t padding;
    size_t dilation;
    size_t transposed; // SIZE_MAX: not transposed
    size_t outputPadding; // SIZE_MAX: none
    size_t groups;
    bool backward;
};

// aten::convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding,
// groups) and its relatives; conv1d/2d/3d(input, weight, bias, stride, padding, dilation, groups);
// convolution_backward(grad_output, input, weight, bias_sizes, stride, padding, dilation,
// transposed, output_padding, groups, output_mask).
std::optional<ConvolutionArguments> argumentsOf(std::string_view op)
{
    constexpr size_t kNone = SIZE_MAX;
    if (op == "aten::convolution" || op == "aten::_convolution")
        return ConvolutionArguments { 0, 1, 2, 3, 4, 5, 6, 7, 8, false };
    if (op == "aten::conv1d" || op == "aten::conv2d" || op == "aten::conv3d")
        return ConvolutionArguments { 0, 1, 2, 3, 4, 5, kNone, kNone, 6, false };
    if (op == "aten::convolution_backward")
        return ConvolutionArguments { 1, 2, kNone, 4, 5, 6, 7, 8, 9, true };
    return std::nullopt;
}

// An int list argument, a single value repeated for every spatial dimension.
std::optional<std::vector<int64_t>> spatialList(const OpInputs& inputs, size_t index, size_t spatial, int64_t fallback)
{
    if (index == SIZE_MAX)
        return std::vector<int64_t>(spatial, fallback);
    std::optional<std::vector<int64_t>> values = concreteIntegers(inputs.concreteOf(index));
    if (!values)
        return std::nullopt;
    if (values->size() == 1)
        values->assign(spatial, (*values)[0]);
    if (values->size() != spatial)
        return std::nullopt;
    return values;
}

} // namespace

std::optional<WorkEstimate> convolutionWork(std::string_view op, const OpInputs& inputs)
{
    const std::optional<ConvolutionArguments> arguments = argumentsOf(op);
    if (!arguments)
        return std::nullopt;
    const std::vector<int64_t>& input = inputs.dimsOf(arguments->input);
    const std::vector<int64_t>& weight = inputs.dimsOf(arguments->weight);
    if (input.size() < 3 || weight.size() != input.size())
        return noWork("shapes not understood: expected input[N, C, ...] and a weight of the same rank");
    const size_t spatial = input.size() - 2;
    const std::optional<std::vector<int64_t>> stride = spatialList(inputs, arguments->stride, spatial, 1);
    const std::optional<std::vector<int64_t>> padding = spatialList(inputs, arguments->padding, spatial, 0);
    const std::optional<std::vector<int64_t>> dilation = spatialList(inputs, arguments->dilation, spatial, 1);
    const std::optional<std::vector<int64_t>> outputPadding = spatialList(inputs, arguments->outputPadding, spatial, 0);
    const std::optional<std::vector<int64_t>> groupList = concreteIntegers(inputs.concreteOf(arguments->groups));
    const std::optional<bool> transposed = arguments->transposed == SIZE_MAX
        ? std::optional<bool>(false)
        : concreteBool(inputs.concreteOf(arguments->transposed));
    if (!stride || !padding || !dilation || !outputPadding || !groupList || groupList->size() != 1 || !transposed
        || (*groupList)[0] < 1)
        return noWork("shapes not understood: stride, padding, dilation, groups or transposed not recorded "
                      "as numbers (Concrete Inputs)");
    const double groups = static_cast<double>((*groupList)[0]);
    const double batch = static_cast<double>(input[0]);
    double kernelPositions = 1;
    double inputPositions = 1;
    double outputPositions = 1;
    for (size_t i = 0; i < spatial; ++i) {
        const int64_t in = input[2 + i];
        const int64_t kernel = weight[2 + i];
        const int64_t span = (*dilation)[i] * (kernel - 1);
        const int64_t out = *transposed ? (in - 1) * (*stride)[i] - 2 * (*padding)[i] + span + (*outputPadding)[i] + 1
                                        : (in + 2 * (*padding)[i] - span - 1) / std::max<int64_t>((*stride)[i], 1) + 1;
        if (out <= 0)
            return noWork("shapes not understood: the output would be empty");
        kernelPositions *= static_cast<double>(kernel);
        inputPositions *= static_cast<double>(in);
        outputPositions *= static_cast<double>(out);
    }
    // Forward weight: [Cout, Cin/groups, k...]; transposed: [Cin, Cout/groups, k...].
    const double inChannels = static_cast<double>(input[1]);
    const double outChannels = *transposed ? static_cast<double>(weight[1]) * groups : static_cast<double>(weight[0]);
    double flops = *transposed ? 2 * batch * inChannels * inputPositions * (outChannels / groups) * kernelPositions
                               : 2 * batch * outChannels * outputPositions * (inChannels / groups) * kernelPositions;
    double weightElements = 1;
    for (const int64_t extent : weight)
        weightElements *= static_cast<double>(extent);
    double elements = batch * inChannels * inputPositions + weightElements + batch * outChannels * outputPositions;
    if (arguments->bias != SIZE_MAX)
        elements += static_cast<double>(inputs.elements(arguments->bias));
    if (arguments->backward) {
        // output_mask [input, weight, bias]: each gradient asked for is one forward's products.
        const std::optional<std::vector<bool>> mask = concreteBools(inputs.concreteOf(10));
        const int gradients = mask && mask->size() >= 2 ? int((*mask)[0]) + int((*mask)[1]) : 2;
        flops *= gradients;
        elements *= 2; // the output's gradient and the input and weight read, their gradients written
    }
    OpWork work;
    work.family = WorkFamily::Convolution;
    work.flops = flops;
    work.bytes = elements * dtypeNameBytes(dtypeName(inputs.typeOf(arguments->input)));
    work.dtype = dtypeName(inputs.typeOf(arguments->input));
    work.shape = "in=" + dimsText(input) + " w=" + dimsText(weight) + " s=" + dimsText(*stride)
        + " p=" + dimsText(*padding) + (groups != 1 ? " g=" + std::to_string((*groupList)[0]) : "")
        + (*transposed ? " transposed" : "");
    if (work.dtype.empty())
        return noWork("shapes not understood: no data type for the input");
    return WorkEstimate { std::move(work), {} };
}

} // namespace fusiondiff
