// alignbench: times the operation comparison (core/ops) on two synthetic traces of N operations
// each, as a transformer's layers record them (modules, Python frames, operators, one or two
// kernels an operator), in four cases:
//   same        the same stack on both sides; every 50th layer one operator runs one more kernel
//   renamed     B's operators renamed (a vendor's custom operators) and its kernels named in
//               another vendor's style; Python frames and modules kept
//   bare        as renamed, without Python frames or modules: only kernels line the traces up
//   unrelated   B's layers are another model's (other operators, kernels in another order): the
//               alignment's worst case, nothing in common to anchor on
//
//   alignbench [--ops N] [--runs R]
//
// Prints, per case, the median of R runs (wall and CPU time) of attributeKernels (both traces) and
// of compareOperations (grouping, the level-by-level alignment, the kernel comparison of every
// matched pair, findings), and what the alignment paired on.
#include "classify/classifier.h"
#include "classify/kerneltypes.h"
#include "model/tracestore.h"
#include "ops/attribution/opattribution.h"
#include "ops/comparison/opcomparison.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

using namespace fusiondiff;

namespace {

using Clock = std::chrono::steady_clock;

// CPU time of this process: on a shared machine, what the work costs whatever else runs.
double cpuSeconds()
{
    timespec now {};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
    return double(now.tv_sec) + double(now.tv_nsec) * 1e-9;
}

struct OpSpec
{
    const char* module;
    const char* python;
    const char* op;
    std::vector<const char*> kernels;
};

// One decoder layer: 10 operators.
const std::vector<OpSpec>& layerOf(bool otherModel)
{
    static const std::vector<OpSpec> llama {
        { "LlamaRMSNorm", "models/llama.py: forward", "aten::rms_norm", { "void at::native::rms_norm_kernel<bf16>" } },
        { "Linear", "torch/nn/modules/linear.py: forward", "aten::linear", { "Cijk_Alik_Bljk_BBS_BH_MT128x128x64" } },
        { "RotaryEmbedding", "models/llama.py: apply_rotary", "aten::mul", { "void rotary_embedding_kernel<bf16>" } },
        { "Attention", "layers/attention.py: forward", "aten::scaled_dot_product_attention",
            { "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<int>>", "attn_fwd" } },
        { "Linear", "torch/nn/modules/linear.py: forward", "aten::linear", { "Cijk_Alik_Bljk_BBS_BH_MT64x64x64" } },
        { "LlamaDecoderLayer", "models/llama.py: forward", "aten::add", { "void at::native::add_kernel<bf16>" } },
        { "LlamaRMSNorm", "models/llama.py: forward", "aten::rms_norm", { "void at::native::rms_norm_kernel<bf16>" } },
        { "Linear", "torch/nn/modules/linear.py: forward", "aten::linear", { "Cijk_Alik_Bljk_BBS_BH_MT256x128x64" } },
        { "SiluAndMul", "layers/activation.py: forward", "aten::silu", { "void act_and_mul_kernel<silu>" } },
        { "Linear", "torch/nn/modules/linear.py: forward", "aten::linear", { "Cijk_Alik_Bljk_BBS_BH_MT128x64x64" } },
    };
    static const std::vector<OpSpec> other {
        { "Conv2d", "torch/nn/modules/conv.py: forward", "aten::conv2d", { "igemm_fwd_gtcx3_nhwc_bf16" } },
        { "BatchNorm2d", "torch/nn/modules/batchnorm.py: forward", "aten::batch_norm", { "void batch_norm_kernel" } },
        { "ReLU", "torch/nn/modules/activation.py: forward", "aten::relu", { "void at::native::relu_kernel" } },
        { "Conv2d", "torch/nn/modules/conv.py: forward", "aten::conv2d", { "igemm_fwd_gtcx3_nhwc_bf16" } },
        { "MaxPool2d", "torch/nn/modules/pooling.py: forward", "aten::max_pool2d", { "void max_pool_kernel" } },
    };
    return otherModel ? other : llama;
}

// The other vendor's name of a kernel, of the same category.
std::string otherVendor(const std::string& name)
{
    if (name.starts_with("Cijk_"))
        return "nvjet_tst_" + name.substr(name.size() - 9) + "_v_bz_TNT";
    if (name == "attn_fwd")
        return "void flash::flash_fwd_kernel<Flash_fwd_kernel_traits<128>>";
    return name + "_cuda";
}

enum class Case
{
    Same,
    Renamed,
    Bare,
    Unrelated,
};

TraceStore makeTrace(size_t operations, bool sideB, Case which)
{
    TraceStore store;
    store.pythonThreads.push_back({ 1, 1 }); // every event below is on pid 1, tid 1
    store.platform = sideB ? Platform::NVIDIA : Platform::AMD;
    const bool otherModel = sideB && which == Case::Unrelated;
    const bool renamed = sideB && which != Case::Same;
    const bool stacks = which != Case::Bare;
    const std::vector<OpSpec>& layer = layerOf(otherModel);
    const StringId runtime = store.strings.intern(sideB ? "cudaLaunchKernel" : "hipLaunchKernel");
    double cpu = 0;
    double gpu = 0;
    int64_t correlation = 1;
    size_t op = 0;
    for (size_t l = 0; op < operations; ++l) {
        const double layerBegin = cpu;
        const size_t layerModule = store.modules.size();
        if (stacks)
            store.modules.push_back({ cpu, 0, 1, 1, store.strings.intern("LlamaDecoderLayer_" + std::to_string(l)) });
        cpu += 1;
        for (size_t i = 0; i < layer.size() && op < operations; ++i, ++op) {
            const OpSpec& spec = layer[i];
            const double begin = cpu;
            std::vector<std::string> kernels(spec.kernels.begin(), spec.kernels.end());
            if (sideB && which != Case::Unrelated && l % 50 == 7 && i == 4)
                kernels.push_back("void cublasLt::splitKreduce_kernel<bf16>"); // the injected difference
            const double length = 4 + 3 * double(kernels.size());
            if (stacks) {
                store.modules.push_back({ begin, length + 2, 1, 1,
                    store.strings.intern(std::string(spec.module) + "_" + std::to_string(op)) });
                store.pythonFrames.push_back({ begin + 0.5, length + 1, 0, store.strings.intern(spec.python) });
            }
            const std::string opName = renamed ? std::string("vendor_ops::op_") + std::to_string(i) : spec.op;
            const int64_t external = int64_t(op) + 1;
            store.cpuOps.push_back({ begin + 1, length, external, 1, 1, store.strings.intern(opName) });
            for (size_t k = 0; k < kernels.size(); ++k) {
                const std::string kernel = sideB && which != Case::Unrelated ? otherVendor(kernels[k]) : kernels[k];
                store.runtimeCalls.push_back(
                    { begin + 2 + 3 * double(k), 2, correlation, external, 1, 1, runtime, false });
                gpu = std::max(gpu, begin + 5 + 3 * double(k));
                store.kernels.push_back({ gpu, 2.5, correlation, external, 0, 7, store.strings.intern(kernel) });
                gpu += 2.5;
                ++correlation;
            }
            cpu = begin + length + 3;
        }
        if (stacks)
            store.modules[layerModule].dur = cpu - layerBegin;
        cpu += 1;
    }
    return store;
}

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

} // namespace

int main(int argc, char** argv)
{
    size_t operations = 100000;
    int runs = 5;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--ops") == 0 && i + 1 < argc)
            operations = std::strtoull(argv[++i], nullptr, 10);
        else if (std::strcmp(argv[i], "--runs") == 0 && i + 1 < argc)
            runs = std::max(1, std::atoi(argv[++i]));
    }
    const Classifier classifier = Classifier::builtin("default");
    const std::pair<Case, const char*> cases[] = { { Case::Same, "same" }, { Case::Renamed, "renamed" },
        { Case::Bare, "bare" }, { Case::Unrelated, "unrelated" } };
    for (const auto& [which, name] : cases) {
        const std::array<TraceStore, 2> stores { makeTrace(operations, false, which),
            makeTrace(operations, true, which) };
        const std::array<KernelTypes, 2> types { classifyKernels(stores[0], classifier),
            classifyKernels(stores[1], classifier) };
        std::vector<double> attributionTimes, comparisonTimes, attributionCpu, comparisonCpu;
        OpComparison result;
        for (int run = 0; run < runs; ++run) {
            auto start = Clock::now();
            double cpu = cpuSeconds();
            const std::array<KernelAttribution, 2> attributions { attributeKernels(stores[0]),
                attributeKernels(stores[1]) };
            attributionTimes.push_back(std::chrono::duration<double>(Clock::now() - start).count());
            attributionCpu.push_back(cpuSeconds() - cpu);
            start = Clock::now();
            cpu = cpuSeconds();
            result = compareOperations({ OpComparisonTrace { stores[0], types[0], attributions[0] },
                                           OpComparisonTrace { stores[1], types[1], attributions[1] } },
                {}, classifier, OpLevel::Auto, { "A", "B" });
            comparisonTimes.push_back(std::chrono::duration<double>(Clock::now() - start).count());
            comparisonCpu.push_back(cpuSeconds() - cpu);
        }
        std::string levels;
        for (const AlignmentLevel& level : result.alignment.levels) {
            if (level.matched > 0)
                levels += " " + level.key + "=" + std::to_string(level.matched);
        }
        std::printf("alignbench: %-9s %7zu x %7zu operations: attribution %.3f s (cpu %.3f s), comparison %.3f s "
                    "(cpu %.3f s), median of %d; matched %llu (%.0f%%), %zu findings;%s\n",
            name, size_t(result.alignment.occurrences[0]), size_t(result.alignment.occurrences[1]),
            median(attributionTimes), median(attributionCpu), median(comparisonTimes), median(comparisonCpu), runs,
            static_cast<unsigned long long>(result.alignment.matched), result.alignment.matchedShare * 100,
            result.findings.size(), levels.c_str());
    }
    return 0;
}
