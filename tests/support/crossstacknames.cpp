#include "crossstacknames.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <regex>
#include <string_view>
#include <utility>

namespace fusiondiff::test::crossstack {

namespace {

constexpr std::string_view kWrapper = "autograd::engine::evaluate_function: ";

std::string lowerCase(std::string text)
{
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return text;
}

bool contains(const std::string& text, std::string_view word)
{
    return text.find(word) != std::string::npos;
}

// "ReluBackward0" -> "Relu"; "AccumulateGrad" and other names -> empty.
std::string nodeBase(const std::string& name)
{
    const size_t at = name.rfind("Backward");
    if (at == std::string::npos || at == 0 || contains(name, "::"))
        return {};
    for (size_t i = at + 8; i < name.size(); ++i) {
        if (!std::isdigit(static_cast<unsigned char>(name[i])))
            return {};
    }
    return name.substr(0, at);
}

// "NativeLayerNorm" -> "native_layer_norm"
std::string snakeCase(const std::string& camel)
{
    std::string snake;
    for (size_t i = 0; i < camel.size(); ++i) {
        const auto c = static_cast<unsigned char>(camel[i]);
        if (std::isupper(c) && i > 0 && !std::isupper(static_cast<unsigned char>(camel[i - 1])))
            snake += '_';
        snake += char(std::tolower(c));
    }
    return snake;
}

// "_foreach_add_" -> "ForeachAdd"
std::string camelCase(const std::string& snake)
{
    std::string camel;
    bool upper = true;
    for (const char c : snake) {
        if (!std::isalnum(static_cast<unsigned char>(c))) {
            upper = true;
            continue;
        }
        camel += upper ? char(std::toupper(static_cast<unsigned char>(c))) : c;
        upper = false;
    }
    return camel;
}

// What other stacks call common operators (oneDNN, XLA, ONNX Runtime, vendor builds).
const std::map<std::string, std::string>& synonyms()
{
    static const std::map<std::string, std::string> table {
        { "addmm", "linear_fwd" },
        { "mm", "matmul" },
        { "bmm", "batch_matmul" },
        { "linear", "dense" },
        { "matmul", "dot_general" },
        { "conv2d", "conv2d_nchw" },
        { "convolution", "conv_forward" },
        { "_convolution", "conv_forward_impl" },
        { "cudnn_convolution", "miopen_convolution" },
        { "miopen_convolution", "cudnn_convolution_fwd" },
        { "batch_norm", "batchnorm_train" },
        { "cudnn_batch_norm", "miopen_batch_norm" },
        { "miopen_batch_norm", "cudnn_bn_fwd" },
        { "relu", "activation_relu" },
        { "relu_", "activation_relu_inplace" },
        { "threshold_backward", "relu_grad_input" },
        { "add_", "add_inplace" },
        { "mul", "multiply" },
        { "div", "divide" },
        { "sum", "reduce_sum" },
        { "mean", "reduce_mean" },
        { "copy_", "memcpy_into" },
        { "fill_", "memset_value" },
        { "zero_", "memset_zero" },
        { "empty", "alloc" },
        { "_foreach_add_", "multi_tensor_axpy" },
        { "_fused_adam_", "fused_adam_step" },
        { "embedding_bag", "sparse_lengths_sum" },
        { "_embedding_bag", "sparse_lengths_sum_impl" },
        { "cat", "concat" },
        { "max_pool2d_with_indices", "pool2d_max" },
        { "native_layer_norm", "layer_norm_fwd" },
        { "mse_loss", "squared_error" },
        { "record_param_comms", "collective_launch" },
    };
    return table;
}

// nn.Module classes as other frameworks' layers are called.
const std::map<std::string, std::string>& moduleSynonyms()
{
    static const std::map<std::string, std::string> table {
        { "Linear", "Dense" },
        { "Conv2d", "Conv2D" },
        { "BatchNorm2d", "BatchNormalization" },
        { "ReLU", "Activation" },
        { "Sequential", "Stack" },
        { "MaxPool2d", "MaxPooling2D" },
        { "AdaptiveAvgPool2d", "GlobalAveragePooling2D" },
        { "Embedding", "Lookup" },
        { "EmbeddingBag", "SparseLookup" },
        { "LayerNorm", "LayerNormalization" },
        { "Dropout", "DropoutLayer" },
    };
    return table;
}

int pick(Rng& rng, int count)
{
    return std::uniform_int_distribution<int>(0, count - 1)(rng);
}

} // namespace

OperatorRenamer::OperatorRenamer(Rng& rng)
    : m_rng(rng)
{
    static const std::array<const char*, 4> namespaces { "hpu", "xla", "ort", "vnd" };
    static const std::array<const char*, 3> suffixes { "", "_impl", "_out" };
    m_atenNamespace = namespaces[size_t(pick(m_rng, int(namespaces.size())))];
    m_suffix = suffixes[size_t(pick(m_rng, int(suffixes.size())))];
    m_nodeStyle = pick(m_rng, 3);
}

std::string OperatorRenamer::unique(std::string name)
{
    std::string candidate = name;
    for (int n = 2; m_used.contains(candidate); ++n)
        candidate = name + "_v" + std::to_string(n);
    m_used.insert(candidate);
    return candidate;
}

std::string OperatorRenamer::rename(const std::string& name)
{
    const auto known = m_renamed.find(name);
    if (known != m_renamed.end())
        return known->second;
    std::string renamed;
    if (name.starts_with(kWrapper))
        renamed = std::string(kWrapper) + rename(name.substr(kWrapper.size()));
    else if (!nodeBase(name).empty() || name.starts_with("torch::autograd::"))
        renamed = renameNode(name);
    else
        renamed = renameOperator(name);
    m_renamed.emplace(name, renamed);
    return renamed;
}

std::string OperatorRenamer::renameOperator(const std::string& name)
{
    const size_t colons = name.rfind("::");
    const std::string space = colons == std::string::npos ? std::string() : name.substr(0, colons);
    const std::string base = colons == std::string::npos ? name : name.substr(colons + 2);
    std::string newSpace;
    if (space == "aten")
        newSpace = m_atenNamespace;
    else if (space.empty())
        newSpace = "rt";
    else
        newSpace = lowerCase(camelCase(space)) + "_ext";
    std::string newBase;
    const auto synonym = synonyms().find(base);
    if (synonym != synonyms().end() && pick(m_rng, 4) != 0)
        newBase = synonym->second;
    else if (pick(m_rng, 2) == 0)
        newBase = camelCase(base);
    else
        newBase = (base.starts_with('_') ? base.substr(1) : base) + m_suffix;
    if (newBase.empty())
        newBase = "op";
    return unique(newSpace + "::" + newBase);
}

std::string OperatorRenamer::renameNode(const std::string& node)
{
    if (node.starts_with("torch::autograd::")) { // the engine's own (AccumulateGrad, GraphRoot)
        const std::string base = node.substr(std::string_view("torch::autograd::").size());
        return unique(m_nodeStyle == 0 ? "engine::" + snakeCase(base) : "autodiff::" + base + "Node");
    }
    const std::string base = nodeBase(node);
    const std::string digits = node.substr(node.rfind("Backward") + 8);
    switch (m_nodeStyle) {
    case 0:
        return unique(snakeCase(base) + "_backward" + (digits == "0" || digits.empty() ? "" : digits));
    case 1:
        return unique("Grad" + base + (digits.empty() ? "" : "V" + digits));
    default:
        return unique("vjp::" + snakeCase(base));
    }
}

std::string OperatorRenamer::renameModule(const std::string& name)
{
    static const std::string prefix = "nn.Module: ";
    const auto known = m_renamed.find(name);
    if (known != m_renamed.end())
        return known->second;
    std::string body = name.substr(prefix.size());
    const size_t underscore = body.rfind('_');
    const std::string cls = underscore == std::string::npos ? body : body.substr(0, underscore);
    const std::string instance = underscore == std::string::npos ? std::string() : body.substr(underscore);
    const auto synonym = moduleSynonyms().find(cls);
    const std::string renamed
        = prefix + (synonym != moduleSynonyms().end() ? synonym->second : cls + "Block") + instance;
    m_renamed.emplace(name, renamed);
    return renamed;
}

bool looksLikeRocm(const std::string& kernelName)
{
    return kernelName.starts_with("Cijk_") || contains(kernelName, "miopen") || contains(kernelName, "MIOpen")
        || contains(kernelName, "rocprim") || contains(kernelName, "igemm_");
}

KernelRenamer::KernelRenamer(Rng& rng, bool toRocm)
    : m_rng(rng)
    , m_toRocm(toRocm)
    , m_tritonShift(1 + pick(rng, 40))
{ }

std::string KernelRenamer::gemm(const std::string& lowered)
{
    static const std::array<int, 3> tiles { 64, 128, 256 };
    const int m = tiles[size_t(pick(m_rng, 3))];
    const int n = tiles[size_t(pick(m_rng, 2))];
    const std::string id = std::to_string(m_next++);
    if (m_toRocm) {
        const std::string type = contains(lowered, "bf16")           ? "BBS"
            : (contains(lowered, "h") && contains(lowered, "hgemm")) ? "HHS"
                                                                     : "S";
        const std::string layout = pick(m_rng, 2) == 0 ? "Ailk_Bljk" : "Alik_Bljk";
        if (contains(lowered, "splitk") || contains(lowered, "reduce"))
            return "Cijk_" + layout + "_" + type + "_MT" + std::to_string(m) + "x" + std::to_string(n)
                + "x32_GSU4_PostGSU" + id;
        return "Cijk_" + layout + "_" + type + "_MT" + std::to_string(m) + "x" + std::to_string(n) + "x32_MI32x32x"
            + (type == "S" ? "2" : "8") + "x1_SN_K1_WG" + id;
    }
    switch (pick(m_rng, 3)) {
    case 0:
        return "sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize" + std::to_string(m) + "x" + std::to_string(n)
            + "x32_stage3_warpsize2x2x1_ffma_execute_kernel__5x_cublas_" + id;
    case 1:
        return "ampere_sgemm_" + std::to_string(m) + "x" + std::to_string(n) + "_tn_" + id;
    default:
        return "cutlass_80_simt_sgemm_" + std::to_string(m) + "x" + std::to_string(n) + "_8x5_nn_align1_" + id;
    }
}

std::string KernelRenamer::convolution(const std::string& lowered)
{
    const std::string id = std::to_string(m_next++);
    const bool wgrad = contains(lowered, "wgrad") || contains(lowered, "wrw");
    const bool dgrad = contains(lowered, "dgrad") || contains(lowered, "bwd") || contains(lowered, "backward");
    if (m_toRocm) {
        if (contains(lowered, "winograd"))
            return "miopenSp3AsmConv_v21_1_2_gfx9_fp32_stride1_" + id;
        if (contains(lowered, "offset"))
            return "SubTensorOpWithScalar1d_" + id; // MIOpen's helper kernels
        const std::string direction = wgrad ? "wrw" : dgrad ? "bwd" : "fwd";
        return "igemm_" + direction + "_gtcx_nchw_fp32_bx0_ex1_bt128x128x16_wt32x32x2_ws1x1_wr2x2_" + id;
    }
    const std::string direction = wgrad ? "wgrad" : dgrad ? "dgrad" : "fprop";
    return "sm80_xmma_" + direction + "_implicit_gemm_f32f32_f32f32_f32_nchwkcrs_nchw_tilesize128x128x16_" + id;
}

std::string KernelRenamer::rename(const std::string& name)
{
    const auto known = m_renamed.find(name);
    if (known != m_renamed.end())
        return known->second;
    const std::string lowered = lowerCase(name);
    std::string renamed;
    static const std::regex tritonNumber("^(triton_[a-z]+_fused_[A-Za-z0-9_]*?)_(\\d+)$");
    static const std::regex ncclOld("^ncclKernel_([A-Za-z]+)_([A-Z]+)_([A-Z]+)_([A-Za-z]+)_([A-Za-z0-9_]+)\\(.*$");
    static const std::regex ncclNew("^ncclDevKernel_([A-Za-z]+)_([A-Za-z]+)_([a-z0-9]+)_([A-Z]+)_([A-Z]+)\\(.*$");
    std::smatch match;
    if (std::regex_match(name, match, tritonNumber)) {
        renamed = match[1].str() + "_" + std::to_string(std::stoi(match[2].str()) + m_tritonShift);
    } else if (name.starts_with("triton")) {
        renamed = name + "_" + std::to_string(m_tritonShift); // Triton's older signature names
    } else if (std::regex_match(name, match, ncclOld)) {
        renamed = "ncclDevKernel_" + match[1].str() + "_" + match[4].str() + "_" + lowerCase(match[5].str()) + "_"
            + match[2].str() + "_" + match[3].str() + "(ncclDevKernelArgsStorage<4096ul>)";
    } else if (std::regex_match(name, match, ncclNew)) {
        renamed = "ncclKernel_" + match[1].str() + "_" + match[4].str() + "_" + match[5].str() + "_" + match[2].str()
            + "_" + match[3].str() + "(ncclDevComm*, unsigned long, ncclWork*)";
    } else if (lowered.starts_with("nccl")) {
        renamed = name; // RCCL and NCCL share their kernels' names
    } else if (contains(lowered, "bn_fw_tr") || contains(lowered, "batchnormfwdtrain")) {
        renamed = m_toRocm ? "MIOpenBatchNormFwdTrainSpatial" : "void cudnn::bn_fw_tr_1C11_kernel_NCHW<float, float>";
    } else if (contains(lowered, "bn_bw") || contains(lowered, "batchnormbwd")) {
        renamed = m_toRocm ? "MIOpenBatchNormBwdSpatial" : "void cudnn::bn_bw_1C11_kernel_new<float, float>";
    } else if (contains(lowered, "bn_fw_inf") || contains(lowered, "batchnormfwdinfer")) {
        renamed = m_toRocm ? "MIOpenBatchNormFwdInferSpatialEst" : "void cudnn::bn_fw_inf_1C11_kernel_NCHW<float>";
    } else if (contains(lowered, "conv") || contains(lowered, "winograd") || contains(lowered, "cudnn::cnn")
        || contains(lowered, "dgrad") || contains(lowered, "wgrad") || contains(lowered, "cask_")
        || contains(lowered, "igemm_")) {
        renamed = convolution(lowered);
    } else if (contains(lowered, "fbgemm")) {
        renamed = name + (m_toRocm ? "_hip" : "_cuda"); // FBGEMM's own kernels, on both stacks (not a GEMM)
    } else if (contains(lowered, "gemm") || contains(lowered, "cutlass") || contains(lowered, "xmma")
        || name.starts_with("Cijk_") || contains(lowered, "splitkreduce")) {
        renamed = gemm(lowered);
    } else if (contains(name, "cub::") || contains(name, "rocprim::")) {
        const bool init = contains(lowered, "init");
        if (m_toRocm)
            renamed = init
                ? "void rocprim::detail::init_lookback_scan_state_kernel<rocprim::detail::lookback_scan_state<int>>"
                : "void rocprim::detail::lookback_scan_kernel<rocprim::detail::default_config>";
        else
            renamed = init ? "void cub::DeviceScanInitKernel<cub::ScanTileState<int, true>>"
                           : "void cub::DeviceScanKernel<cub::DeviceScanPolicy<int>::Policy600>";
        renamed += "_" + std::to_string(m_next++);
    } else if (contains(name, "at::native::")) {
        // PyTorch's own templates, as the other build instantiates them: another vector width,
        // another block size, no anonymous namespace.
        renamed = std::regex_replace(name, std::regex("\\(anonymous namespace\\)::"), "");
        renamed = std::regex_replace(renamed, std::regex("vectorized_elementwise_kernel<4,"),
            m_toRocm ? "vectorized_elementwise_kernel<8," : "vectorized_elementwise_kernel<2,");
        renamed = std::regex_replace(
            renamed, std::regex("vectorized_elementwise_kernel<8,"), "vectorized_elementwise_kernel<4,");
        renamed = std::regex_replace(
            renamed, std::regex("unrolled_elementwise_kernel<"), "elementwise_kernel_manual_unroll<128, 4, ");
        renamed = std::regex_replace(renamed, std::regex("reduce_kernel<512, 1,"), "reduce_kernel<256, 2,");
        if (renamed == name)
            renamed = std::regex_replace(name, std::regex("at::native::"), "at::native::hip::");
    } else if (contains(name, "multi_tensor_apply_kernel")) {
        renamed = contains(name, "at::native::")
            ? name
            : "void at::native::multi_tensor_apply_kernel_" + std::to_string(m_next++);
    } else {
        renamed = name + (m_toRocm ? "_hip" : "_cuda");
    }
    m_renamed.emplace(name, renamed);
    return renamed;
}

std::string KernelRenamer::secondPartOf(const std::string& renamed)
{
    // Libraries that split a kernel run a different one for the rest: an epilogue, a tail.
    if (renamed.starts_with("Cijk_"))
        return renamed + "_PostGSU_tail";
    if (contains(renamed, "gemm") || contains(renamed, "xmma"))
        return "void splitKreduce_kernel<32, 16, int, float, float, float, float, true>";
    if (contains(renamed, "elementwise"))
        return "void at::native::vectorized_elementwise_kernel<4, at::native::MulFunctor<float>, std::array<char*, 3>>";
    return renamed + "_tail";
}

std::string KernelRenamer::collectiveKernel(const std::string& collective) const
{
    if (m_toRocm)
        return "ncclDevKernel_" + collective + "_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)";
    return "ncclKernel_" + collective + "_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)";
}

} // namespace fusiondiff::test::crossstack
