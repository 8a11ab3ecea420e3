// The efficiency table: FLOPs and bytes per call by operator family on shapes with known answers,
// against TraceLens's perf model on the five cross-vendor pairs, the GPU peaks file and the
// detection of every shared trace's GPU.
#include "classify/classifier.h"
#include "fusionanalysis.h"
#include "load/traceloader.h"
#include "model/tracestore.h"
#include "ops/attribution/opattribution.h"
#include "ops/efficiency/efficiency.h"
#include "ops/efficiency/gpupeaks.h"
#include "ops/efficiency/opwork.h"
#include "testdata.h"
#include "util/inputerror.h"

#include <QtTest>

#include <fstream>
#include <regex>

using namespace fusiondiff;

namespace {

// Shapes as the profiler records them: dims, types and concrete values of each input.
OpInputs inputs(
    std::vector<std::vector<int64_t>> dims, std::vector<std::string> types, std::vector<std::string> concrete = {})
{
    OpInputs result;
    result.dims = std::move(dims);
    result.types = std::move(types);
    result.concrete = std::move(concrete);
    return result;
}

OpWork workOf(std::string_view op, const OpInputs& shapes)
{
    const WorkEstimate estimate = estimateWork(op, shapes);
    if (!estimate.work)
        qWarning("%s: %s", std::string(op).c_str(), estimate.reason.c_str());
    return estimate.work.value_or(OpWork { WorkFamily::Memory, -1, -1, {}, {} });
}

const std::string kBf16 = "c10::BFloat16";

struct Pair
{
    std::string model;
    std::string amd; // trace1: MI300X
    std::string nvidia; // trace2: H100
};

std::vector<Pair> crossVendorPairs()
{
    const auto real = [](const char* name) { return test::dataPath(QStringLiteral("real/") + name).toStdString(); };
    return {
        { "Qwen1.5-0.5B-Chat", test::sampleA().toStdString(), test::sampleB().toStdString() },
        { "bert-small-uncased", real("bert-small-uncased.mi300x.json.gz"), real("bert-small-uncased.h100.json.gz") },
        { "nsfw_image_detection", real("nsfw_image_detection.mi300x.json.gz"),
            real("nsfw_image_detection.h100.json.gz") },
        { "owlv2-large-patch14-ensemble", real("owlv2-large-patch14-ensemble.mi300x.json.gz"),
            real("owlv2-large-patch14-ensemble.h100.json.gz") },
        { "timesformer-base-finetuned-k400", real("timesformer-base-finetuned-k400.mi300x.json.gz"),
            real("timesformer-base-finetuned-k400.h100.json.gz") },
    };
}

// The tokens of our shape text that a TraceLens row's parameters name: GEMM's M, N, K (and B),
// attention's B, heads, sequence and head size, a convolution's input shape.
std::vector<std::string> expectedShapeTokens(const std::string& category, const std::string& params)
{
    std::map<std::string, std::string> values;
    static const std::regex pair(R"(([A-Za-z_]+)=(\([^)]*\)|[^;]*))");
    for (auto it = std::sregex_iterator(params.begin(), params.end(), pair); it != std::sregex_iterator(); ++it)
        values[(*it)[1]] = (*it)[2];
    std::vector<std::string> tokens;
    if (category == "GEMM") {
        for (const char* key : { "M", "N", "K" })
            tokens.push_back(std::string(key) + "=" + values[key]);
        if (values.count("B") && values["B"] != "1")
            tokens.push_back("B=" + values["B"]);
    } else if (category == "SDPA_fwd") {
        tokens = { "B=" + values["B"], "H=" + values["H_Q"], "Sq=" + values["N_Q"], "Skv=" + values["N_KV"],
            "D=" + values["d_h_qk"] };
    } else {
        std::string shape = values["input_shape"];
        shape = "in=[" + shape.substr(1, shape.size() - 2) + "]";
        tokens = { shape };
    }
    return tokens;
}

// Each token is a word of the shape ("in=[...]" may hold spaces: it is its start).
bool shapeHas(const std::string& shape, const std::vector<std::string>& tokens)
{
    const std::string padded = " " + shape + " ";
    for (const std::string& token : tokens) {
        const bool list = token.ends_with("]");
        if (padded.find(" " + token + (list ? "" : " ")) == std::string::npos)
            return false;
    }
    return true;
}

} // namespace

class TestEfficiency : public QObject
{
    Q_OBJECT

private slots:
    void gemmFamily()
    {
        // mm: 2·M·N·K; bytes A + B + C.
        OpWork mm = workOf("aten::mm", inputs({ { 128, 64 }, { 64, 32 } }, { kBf16, kBf16 }));
        QCOMPARE(mm.flops, 2.0 * 128 * 32 * 64);
        QCOMPARE(mm.bytes, (128.0 * 64 + 64 * 32 + 128 * 32) * 2);
        QCOMPARE(mm.dtype, std::string("bf16"));
        QCOMPARE(mm.shape, std::string("M=128 N=32 K=64"));
        // addmm adds M·N for the bias, and reads the bias.
        OpWork addmm = workOf("aten::addmm",
            inputs({ { 32 }, { 128, 64 }, { 64, 32 }, {}, {} }, { kBf16, kBf16, kBf16, "Scalar", "Scalar" }));
        QCOMPARE(addmm.flops, 2.0 * 128 * 32 * 64 + 128 * 32);
        QCOMPARE(addmm.bytes, (128.0 * 64 + 64 * 32 + 128 * 32 + 32) * 2);
        // bmm: per batch.
        OpWork bmm = workOf("aten::bmm", inputs({ { 8, 16, 4 }, { 8, 4, 2 } }, { "float", "float" }));
        QCOMPARE(bmm.flops, 8 * 2.0 * 16 * 2 * 4);
        QCOMPARE(bmm.bytes, 8 * (16.0 * 4 + 4 * 2 + 16 * 2) * 4);
        QCOMPARE(bmm.dtype, std::string("fp32"));
        // baddbmm, like addmm per batch.
        OpWork baddbmm = workOf("aten::baddbmm",
            inputs({ { 8, 16, 2 }, { 8, 16, 4 }, { 8, 4, 2 }, {}, {} }, { kBf16, kBf16, kBf16, "Scalar", "Scalar" }));
        QCOMPARE(baddbmm.flops, 8 * (2.0 * 16 * 2 * 4 + 16 * 2));
        // matmul broadcasts: [2, 3, 16, 4] x [4, 8] is 6 products of 16x4 by 4x8; a vector on the left is a row.
        QCOMPARE(workOf("aten::matmul", inputs({ { 2, 3, 16, 4 }, { 4, 8 } }, { kBf16, kBf16 })).flops,
            6 * 2.0 * 16 * 8 * 4);
        QCOMPARE(workOf("aten::matmul", inputs({ { 4 }, { 5, 4, 8 } }, { kBf16, kBf16 })).flops, 5 * 2.0 * 1 * 8 * 4);
        // linear(x[..., K], W[N, K], bias): M is every leading dimension.
        OpWork linear
            = workOf("aten::linear", inputs({ { 4, 197, 768 }, { 3072, 768 }, { 3072 } }, { kBf16, kBf16, kBf16 }));
        QCOMPARE(linear.flops, 2.0 * 788 * 3072 * 768 + 788.0 * 3072);
        // _scaled_mm: fp8 in, the output 2 bytes.
        OpWork scaled = workOf("aten::_scaled_mm",
            inputs(
                { { 64, 32 }, { 32, 16 }, {}, {} }, { "c10::Float8_e4m3fn", "c10::Float8_e4m3fn", "float", "float" }));
        QCOMPARE(scaled.flops, 2.0 * 64 * 16 * 32);
        QCOMPARE(scaled.bytes, 64.0 * 32 + 32 * 16 + 64 * 16 * 2);
        QCOMPARE(scaled.dtype, std::string("fp8"));
        // A vendor GEMM with a weight W[N, K].
        QCOMPARE(
            workOf("vllm::rocm_unquantized_gemm", inputs({ { 10, 64 }, { 32, 64 }, {} }, { kBf16, kBf16, "" })).flops,
            2.0 * 10 * 32 * 64);
        // Shapes that do not fit say so.
        const WorkEstimate bad = estimateWork("aten::mm", inputs({ { 128, 64 }, { 32, 32 } }, { kBf16, kBf16 }));
        QVERIFY(!bad.work);
        QVERIFY(bad.reason.starts_with("shapes not understood"));
    }

    void attentionFamily()
    {
        // [B, H, S, D] = [2, 4, 128, 64]: 4·B·H·Sq·Skv·D, causal half, backward 2.5 times.
        const auto sdpa = [](const char* causal) {
            return inputs({ { 2, 4, 128, 64 }, { 2, 4, 128, 64 }, { 2, 4, 128, 64 }, {}, {}, {}, {} },
                { kBf16, kBf16, kBf16, "Scalar", "Scalar", "Scalar", "Scalar" },
                { "", "", "", "0.", causal, "False", "" });
        };
        const double full = 4.0 * 2 * 4 * 128 * 128 * 64;
        OpWork forward = workOf("aten::_scaled_dot_product_flash_attention", sdpa("False"));
        QCOMPARE(forward.flops, full);
        QCOMPARE(forward.bytes, 4 * (2.0 * 4 * 128 * 64) * 2);
        QCOMPARE(workOf("aten::_scaled_dot_product_flash_attention", sdpa("True")).flops, full / 2);
        // Grouped-query attention: K and V have fewer heads; the products do not change, the bytes do.
        OpWork gqa = workOf("aten::_scaled_dot_product_efficient_attention",
            inputs({ { 1, 8, 16, 64 }, { 1, 2, 32, 64 }, { 1, 2, 32, 64 }, {}, {}, {}, {} },
                { kBf16, kBf16, kBf16, "", "Scalar", "Scalar", "Scalar" }, { "", "", "", "", "False", "0.", "True" }));
        QCOMPARE(gqa.flops, 4.0 * 8 * 16 * 32 * 64 / 2);
        QCOMPARE(gqa.bytes, (8.0 * 16 * 64 * 2 + 2 * 32 * 64 * 2) * 2);
        // The flash kernels' own operator is [B, S, H, D].
        OpWork bshd = workOf("aten::_flash_attention_forward",
            inputs({ { 2, 128, 4, 64 }, { 2, 128, 4, 64 }, { 2, 128, 4, 64 }, {}, {}, {}, {}, {}, {} },
                { kBf16, kBf16, kBf16, "", "", "Scalar", "Scalar", "Scalar", "Scalar" },
                { "", "", "", "", "", "128", "128", "0.", "False" }));
        QCOMPARE(bshd.flops, full);
        // Backward: grad_out first, is_causal at 11.
        std::vector<std::vector<int64_t>> dims(15);
        std::vector<std::string> types(15, "Scalar");
        std::vector<std::string> concrete(15);
        for (size_t i = 0; i < 5; ++i) {
            dims[i] = { 2, 4, 128, 64 };
            types[i] = kBf16;
        }
        concrete[11] = "True";
        QCOMPARE(workOf("aten::_scaled_dot_product_flash_attention_backward", inputs(dims, types, concrete)).flops,
            2.5 * full / 2);
        // The efficient kernel's own operator: custom_mask_type 2 (causal from the bottom right).
        std::vector<std::vector<int64_t>> efficient(12);
        std::vector<std::string> efficientTypes(12, "Scalar");
        std::vector<std::string> efficientConcrete(12);
        for (size_t i = 0; i < 3; ++i) {
            efficient[i] = { 2, 128, 4, 64 };
            efficientTypes[i] = kBf16;
        }
        efficientConcrete[9] = "2";
        QCOMPARE(
            workOf("aten::_efficient_attention_forward", inputs(efficient, efficientTypes, efficientConcrete)).flops,
            full / 2);
        // is_causal not recorded: no guess.
        QVERIFY(!estimateWork("aten::_scaled_dot_product_flash_attention", sdpa("")).work);
    }

    void convolutionFamily()
    {
        // ViT patch embedding: [4, 3, 224, 224] * [768, 3, 16, 16], stride 16 -> [4, 768, 14, 14].
        const auto convolution
            = [](std::vector<int64_t> input, std::vector<int64_t> weight, std::string stride, std::string padding,
                  std::string dilation, std::string transposed, std::string groups) {
                  return inputs({ input, weight, {}, {}, {}, {}, {}, {}, {} },
                      { kBf16, kBf16, "", "ScalarList", "ScalarList", "ScalarList", "Scalar", "ScalarList", "Scalar" },
                      { "", "", "", stride, padding, dilation, transposed, "[0, 0]", groups });
              };
        OpWork patch = workOf("aten::convolution",
            convolution({ 4, 3, 224, 224 }, { 768, 3, 16, 16 }, "[16, 16]", "[0, 0]", "[1, 1]", "False", "1"));
        QCOMPARE(patch.flops, 2.0 * 4 * 768 * 14 * 14 * 3 * 16 * 16);
        QCOMPARE(patch.bytes, (4.0 * 3 * 224 * 224 + 768 * 3 * 16 * 16 + 4 * 768 * 14 * 14) * 2);
        // Padding 1, dilation 2, 3x3: out = (32 + 2 - 2·2 - 1) / 1 + 1 = 30.
        QCOMPARE(workOf("aten::convolution",
                     convolution({ 1, 8, 32, 32 }, { 16, 8, 3, 3 }, "[1, 1]", "[1, 1]", "[2, 2]", "False", "1"))
                     .flops,
            2.0 * 16 * 30 * 30 * 8 * 9);
        // Depthwise: groups 8, weight [8, 1, 3, 3].
        QCOMPARE(workOf("aten::convolution",
                     convolution({ 1, 8, 10, 10 }, { 8, 1, 3, 3 }, "[1, 1]", "[0, 0]", "[1, 1]", "False", "8"))
                     .flops,
            2.0 * 8 * 8 * 8 * 1 * 9);
        // Transposed, stride 2: weight [Cin, Cout/groups, k, k], the products counted from the input.
        OpWork transposed = workOf("aten::convolution",
            convolution({ 1, 16, 8, 8 }, { 16, 4, 2, 2 }, "[2, 2]", "[0, 0]", "[1, 1]", "True", "1"));
        QCOMPARE(transposed.flops, 2.0 * 16 * 64 * 4 * 4);
        QCOMPARE(transposed.bytes, (16.0 * 64 + 16 * 4 * 4 + 4 * 16 * 16) * 2);
        // 1-d, a single stride for every dimension.
        const OpInputs oneDimension = inputs({ { 2, 4, 100 }, { 6, 4, 5 }, {}, {}, {}, {}, {}, {}, {} },
            { kBf16, kBf16, "", "ScalarList", "ScalarList", "ScalarList", "Scalar", "ScalarList", "Scalar" },
            { "", "", "", "[1]", "[0]", "[1]", "False", "[0]", "1" });
        QCOMPARE(workOf("aten::convolution", oneDimension).flops, 2.0 * 2 * 6 * 96 * 4 * 5);
        // Backward: both gradients asked for are two forwards.
        std::vector<std::vector<int64_t>> dims { { 4, 768, 14, 14 }, { 4, 3, 224, 224 }, { 768, 3, 16, 16 }, {}, {}, {},
            {}, {}, {}, {}, {} };
        std::vector<std::string> types { kBf16, kBf16, kBf16, "ScalarList", "ScalarList", "ScalarList", "ScalarList",
            "Scalar", "ScalarList", "Scalar", "ScalarList" };
        std::vector<std::string> concrete { "", "", "", "[768]", "[16, 16]", "[0, 0]", "[1, 1]", "False", "[0, 0]", "1",
            "[False, True, True]" };
        QCOMPARE(workOf("aten::convolution_backward", inputs(dims, types, concrete)).flops, patch.flops);
        concrete[10] = "[True, True, True]";
        QCOMPARE(workOf("aten::convolution_backward", inputs(dims, types, concrete)).flops, 2 * patch.flops);
    }

    void memoryFamily()
    {
        // Elementwise with broadcast: both inputs read at their own size, the broadcast output written.
        OpWork add = workOf("aten::add", inputs({ { 4, 197, 768 }, { 1, 197, 768 }, {} }, { kBf16, kBf16, "Scalar" }));
        QCOMPARE(add.bytes, (4.0 * 197 * 768 + 197 * 768 + 4 * 197 * 768) * 2);
        QCOMPARE(add.family, WorkFamily::Memory);
        // In place: the first input written back.
        QCOMPARE(workOf("aten::mul_", inputs({ { 1000 }, { 1000 } }, { "float", "float" })).bytes, 3 * 1000.0 * 4);
        // A normalisation: input, weight and bias read, output written.
        QCOMPARE(workOf("aten::layer_norm",
                     inputs({ { 8, 768 }, {}, { 768 }, { 768 }, {}, {} },
                         { kBf16, "ScalarList", kBf16, kBf16, "Scalar", "Scalar" }))
                     .bytes,
            (2 * 8.0 * 768 + 2 * 768) * 2);
        // A reduction: the input read.
        QCOMPARE(workOf("aten::sum", inputs({ { 64, 64 }, {} }, { "float", "ScalarList" })).bytes, 64.0 * 64 * 4);
        // Unknown operators are said to be so.
        const WorkEstimate unknown
            = estimateWork("aten::embedding", inputs({ { 10, 4 }, { 3 } }, { kBf16, "long int" }));
        QVERIFY(!unknown.work);
        QVERIFY(unknown.reason.starts_with("unsupported operator"));
        QCOMPARE(workOperatorRank("aten::embedding"), 0);
        QCOMPARE(workOperatorRank("aten::linear"), 1);
        QCOMPARE(workOperatorRank("aten::addmm"), 2);
        QCOMPARE(workOperatorRank("aten::add_"), 2);
    }

    void parsesRecordedShapes()
    {
        const std::optional<OpInputs> parsed = parseOpInputs(
            "[[4, 3, 224, 224], [768, 3, 16, 16], [768], [], []]\x1f[\"c10::BFloat16\", \"c10::BFloat16\", "
            "\"c10::BFloat16\", \"ScalarList\", \"Scalar\"]\x1f[\"\", \"\", \"\", \"[16, 16]\", \"1\"]");
        QVERIFY(parsed);
        QCOMPARE(parsed->size(), size_t(5));
        QCOMPARE(parsed->dimsOf(1), (std::vector<int64_t> { 768, 3, 16, 16 }));
        QCOMPARE(parsed->typeOf(2), std::string_view("c10::BFloat16"));
        QCOMPARE(parsed->concreteOf(3), std::string_view("[16, 16]"));
        QCOMPARE(*concreteIntegers(parsed->concreteOf(3)), (std::vector<int64_t> { 16, 16 }));
        QVERIFY(!parseOpInputs("[[4, \"x\"]]\x1f[]\x1f[]"));
    }

    // Every row of TraceLens's perf model on the five pairs: the same calls, FLOPs per call within
    // 1%, achieved TFLOPS within 15%.
    void agreesWithTraceLens()
    {
        std::ifstream file(test::dataPath(QStringLiteral("references/tracelens_perf_model.tsv")).toStdString());
        QVERIFY(file);
        std::vector<std::vector<std::string>> references;
        for (std::string line; std::getline(file, line);) {
            if (line.empty() || line[0] == '#')
                continue;
            std::vector<std::string> fields;
            std::stringstream stream(line);
            for (std::string field; std::getline(stream, field, '\t');)
                fields.push_back(field);
            QCOMPARE(fields.size(), size_t(11));
            references.push_back(fields);
        }
        QCOMPARE(references.size(), size_t(96));
        const GpuPeakTable peaks = builtinGpuPeaks();
        size_t checked = 0;
        double worstFlops = 0;
        double worstTflops = 0;
        for (const Pair& pair : crossVendorPairs()) {
            const TraceStore amd = loadTrace(pair.amd);
            const TraceStore nvidia = loadTrace(pair.nvidia);
            const KernelAttribution amdAttribution = attributeKernels(amd);
            const KernelAttribution nvidiaAttribution = attributeKernels(nvidia);
            const EfficiencyReport report = analyzeEfficiency(
                { EfficiencyTrace { amd, amdAttribution }, EfficiencyTrace { nvidia, nvidiaAttribution } }, peaks);
            QCOMPARE(report.gpus[0].gpu, std::string("MI300X"));
            QCOMPARE(report.gpus[1].gpu, std::string("H100 SXM"));
            for (const std::vector<std::string>& reference : references) {
                const std::string& trace = reference[0];
                if (!trace.starts_with(pair.model + "."))
                    continue;
                const size_t side = trace.ends_with("mi300x") ? 0 : 1;
                const std::vector<std::string> tokens = expectedShapeTokens(reference[1], reference[3]);
                const EfficiencyRow* found = nullptr;
                for (const EfficiencyRow& row : report.rows) {
                    if (row.op == reference[2] && row.sides[side].calls > 0 && shapeHas(row.shape, tokens))
                        found = &row;
                }
                if (!found)
                    QFAIL(qPrintable(
                        QString::fromStdString("no row for " + trace + " " + reference[2] + " " + reference[3])));
                const double flops = std::stod(reference[4]) * 1e9;
                const double tflops = std::stod(reference[6]);
                const double flopsError = std::fabs(found->flops - flops) / flops;
                const double tflopsError = std::fabs(found->sides[side].tflops - tflops) / tflops;
                worstFlops = std::max(worstFlops, flopsError);
                worstTflops = std::max(worstTflops, tflopsError);
                QVERIFY2(flopsError < 0.01, qPrintable(QString::fromStdString(trace + " " + found->shape)));
                QVERIFY2(tflopsError < 0.15, qPrintable(QString::fromStdString(trace + " " + found->shape)));
                QCOMPARE(found->sides[side].calls, std::stoull(reference[9]));
                ++checked;
            }
        }
        QCOMPARE(checked, references.size());
        qInfo("TraceLens rows %zu: worst FLOPs difference %.4f%%, worst TFLOPS difference %.2f%%", checked,
            worstFlops * 100, worstTflops * 100);
    }

    // The first device of every trace in the shared collection (deviceProperties), and what it is.
    void detectsEveryGpu_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("major");
        QTest::addColumn<int>("minor");
        QTest::addColumn<qulonglong>("memory");
        QTest::addColumn<int>("multiprocessors");
        QTest::addColumn<bool>("amd");
        QTest::addColumn<QString>("expected"); // "" unknown
        QTest::newRow("H100") << "NVIDIA H100 80GB HBM3" << 9 << 0 << 85018279936ull << 132 << false << "H100 SXM";
        QTest::newRow("MI300X VF") << "AMD Instinct MI300X VF" << 9 << 4 << 205571227648ull << 304 << true << "MI300X";
        QTest::newRow("MI300X") << "AMD Instinct MI300X" << 9 << 4 << 206141652992ull << 304 << true << "MI300X";
        QTest::newRow("MI300X unnamed") << "" << 9 << 4 << 206141652992ull << 304 << true << "MI300X";
        QTest::newRow("V100 32GB") << "Tesla V100-SXM2-32GB" << 7 << 0 << 34079899648ull << 80 << false << "V100 SXM2";
        QTest::newRow("V100 16GB") << "Tesla V100-SXM2-16GB" << 7 << 0 << 16945512448ull << 80 << false << "V100 SXM2";
        QTest::newRow("A100 40GB") << "NVIDIA A100-PG509-200" << 8 << 0 << 42505273344ull << 108 << false
                                   << "A100 SXM4 40GB";
        QTest::newRow("A100 80GB") << "NVIDIA A100-SXM4-80GB" << 8 << 0 << 84990623744ull << 108 << false
                                   << "A100 SXM4 80GB";
        QTest::newRow("H200") << "NVIDIA H200" << 9 << 0 << 150111715328ull << 132 << false << "H200 SXM";
        QTest::newRow("MI350 unnamed") << "" << 9 << 5 << 270566162432ull << 256 << true << "MI350X";
        QTest::newRow("B200") << "NVIDIA B200" << 10 << 0 << 191503138816ull << 148 << false << "B200";
        QTest::newRow("MI210") << "AMD Instinct MI210" << 9 << 0 << 68702699520ull << 104 << true << "MI210";
        QTest::newRow("MI250 GCD as Radeon")
            << "AMD Radeon Graphics" << 9 << 0 << 68702699520ull << 104 << true << "MI210";
        QTest::newRow("unknown") << "NVIDIA GeForce RTX 4090" << 8 << 9 << 25757220864ull << 128 << false << "";
    }

    void detectsEveryGpu()
    {
        QFETCH(QString, name);
        QFETCH(int, major);
        QFETCH(int, minor);
        QFETCH(qulonglong, memory);
        QFETCH(int, multiprocessors);
        QFETCH(bool, amd);
        QFETCH(QString, expected);
        const GpuProperties gpu { true, name.toStdString(), major, minor, memory, multiprocessors };
        const GpuPeakTable peaks = builtinGpuPeaks();
        const GpuMatch match = detectGpu(peaks, gpu, amd ? Platform::AMD : Platform::NVIDIA);
        QCOMPARE(QString::fromStdString(match.peak ? match.peak->gpu : ""), expected);
        QVERIFY(!match.how.empty());
        if (expected.isEmpty())
            QVERIFY(match.how.starts_with("unknown GPU"));
        if (name.isEmpty() && major == 9 && minor == 5)
            QVERIFY2(match.how.find("MI350X or MI355X") != std::string::npos, match.how.c_str());
    }

    // The loader keeps deviceProperties' identity; the real traces are detected end to end.
    void detectsLoadedTraces()
    {
        const std::pair<const char*, const char*> traces[] = {
            { "real/pi0_torchcompile_hipgraph.mi350.json.gz", "MI350X" },
            { "real/pi0_torchcompile_cudagraph.h200.json.gz", "H200 SXM" },
            { "real/eager.b200.json.gz", "B200" },
            { "real/gpu_only.mi210.json.gz", "MI210" },
            { "real/hta_trace_diff_test.v100.json.gz", "V100 SXM2" },
            { "real/hta_trace_diff_control.a100.json.gz", "A100 SXM4 40GB" },
            { "real/minitoy_train_rocm6.2.mi250.json.gz", "MI210" },
            { "real/resnet50_2021_schema.worker0.pt.trace.json.gz", "" },
        };
        const GpuPeakTable peaks = builtinGpuPeaks();
        for (const auto& [path, expected] : traces) {
            const TraceStore store = loadTrace(test::dataPath(QString::fromUtf8(path)).toStdString());
            const GpuMatch match = detectGpu(peaks, store.gpu, store.platform);
            QCOMPARE(QString::fromStdString(match.peak ? match.peak->gpu : ""), QString::fromUtf8(expected));
        }
    }

    void builtinPeaksAreComplete()
    {
        const GpuPeakTable peaks = builtinGpuPeaks();
        QCOMPARE(peaks.definition, std::string("datasheet"));
        for (const char* gpu : { "V100 SXM2", "A100 SXM4 80GB", "H100 SXM", "H100 PCIe", "H200 SXM", "B200", "MI210",
                 "MI250X (one GCD)", "MI300X", "MI325X", "MI350X", "MI355X" }) {
            const auto row = std::find_if(
                peaks.gpus.begin(), peaks.gpus.end(), [&](const GpuPeak& peak) { return peak.gpu == gpu; });
            QVERIFY2(row != peaks.gpus.end(), gpu);
            QVERIFY(row->hbmTBps > 0 && row->vectorTflops > 0 && !row->source.empty());
            QVERIFY(row->matrixTflops.count("fp32") && row->matrixTflops.count("fp64"));
            QVERIFY(row->gpu.starts_with("V100") || row->matrixTflops.count("bf16"));
        }
        // The datasheets' figures, dense: MI300X bf16 1307.4, H100 SXM 989.5.
        QCOMPARE(peaks
                     .gpus[size_t(std::find_if(peaks.gpus.begin(), peaks.gpus.end(),
                                      [](const GpuPeak& p) { return p.gpu == "MI300X"; })
                         - peaks.gpus.begin())]
                     .matrixTflops.at("bf16"),
            1307.4);
    }

    void replacingPeaksFile()
    {
        QTemporaryDir folder;
        const std::string path = folder.filePath(QStringLiteral("measured.json")).toStdString();
        std::ofstream(path) << R"({"definition": "max achievable", "gpus": [{"gpu": "MI300X measured",
            "vendor": "AMD", "names": ["MI300X"], "matrixTflops": {"bf16": 708}, "vectorTflops": 80,
            "hbmTBps": 4.3, "source": "measured"}]})";
        const GpuPeakTable peaks = loadGpuPeaks(path);
        QCOMPARE(peaks.definition, std::string("max achievable"));
        QCOMPARE(peaks.origin, path);
        const GpuMatch match
            = detectGpu(peaks, { true, "AMD Instinct MI300X", 9, 4, 206141652992ull, 304 }, Platform::AMD);
        QVERIFY(match.peak);
        QCOMPARE(match.peak->matrixTflops.at("bf16"), 708.0);
        // A file that is not one: the path and the reason.
        std::ofstream(path) << R"({"definition": "x", "gpus": [{"gpu": "G", "vendor": "AMD", "source": "s"}]})";
        try {
            loadGpuPeaks(path);
            QFAIL("no error");
        } catch (const InputError& error) {
            QVERIFY(std::string(error.what()).find(path) != std::string::npos);
            QVERIFY2(std::string(error.what()).find("matrixTflops") != std::string::npos, error.what());
        }
        QVERIFY_THROWS_EXCEPTION(InputError, loadGpuPeaks(path + ".missing"));
    }

    // Where to look first puts the bundled pair's GEMM speed entries against the roofs, in the
    // entries the speed difference already has (no entry of its own), and the report carries the table.
    void whereToLookFirstSaysKernelOrHardware()
    {
        const TraceStore amd = loadTrace(test::sampleA().toStdString());
        const TraceStore nvidia = loadTrace(test::sampleB().toStdString());
        const FusionReport report = analyzeFusion(amd, nvidia, Classifier::builtin("default"), AnalysisOptions {});
        QCOMPARE(report.efficiency.gpus[0].gpu, std::string("MI300X"));
        QVERIFY(!report.efficiency.rows.empty());
        size_t roofline = 0;
        for (const LookFirstEntry& entry : report.whereToLookFirst) {
            for (const std::string& detail : entry.details) {
                if (detail.find("of its bf16 peak") == std::string::npos)
                    continue;
                ++roofline;
                QVERIFY2(entry.kind == LookFirstKind::Speed || entry.kind == LookFirstKind::OneSide, detail.c_str());
                // aten::mm M=8944 N=2816 K=1024: AMD at 36% of its peak, NVIDIA at 62%.
                if (detail.starts_with("aten::mm M=8944 N=2816 K=1024 (bf16)")) {
                    QVERIFY2(detail.find("AMD runs it at 36% of its bf16 peak (MI300X") != std::string::npos,
                        detail.c_str());
                    QVERIFY2(
                        detail.find("NVIDIA at 62% of its bf16 peak (H100 SXM") != std::string::npos, detail.c_str());
                    QVERIFY2(detail.find("the kernel, not the hardware") != std::string::npos, detail.c_str());
                }
            }
        }
        QVERIFY(roofline >= 2);
    }

    // Blank cells say why: a trace without shapes (the 2021 schema's), an unknown GPU.
    void blanksSayWhy()
    {
        const TraceStore hta = loadTrace(
            test::dataPath(QStringLiteral("real/resnet50_2021_schema.worker0.pt.trace.json.gz")).toStdString());
        TraceStore unknown = loadTrace(test::sampleB().toStdString());
        unknown.gpu.name = "Some Future GPU";
        unknown.gpu.computeMajor = 12;
        const KernelAttribution htaAttribution = attributeKernels(hta);
        const KernelAttribution unknownAttribution = attributeKernels(unknown);
        const EfficiencyReport report = analyzeEfficiency(
            { EfficiencyTrace { hta, htaAttribution }, EfficiencyTrace { unknown, unknownAttribution } },
            builtinGpuPeaks());
        QVERIFY(report.gpus[1].gpu.empty());
        QVERIFY(report.gpus[1].how.starts_with("unknown GPU"));
        size_t noShapes = 0;
        size_t unknownGpu = 0;
        for (const EfficiencyRow& row : report.rows) {
            for (size_t side = 0; side < 2; ++side) {
                const EfficiencySide& cells = row.sides[side];
                if (cells.peakShare < 0)
                    QVERIFY2(!cells.blank.empty(), row.op.c_str());
            }
            noShapes += row.workBlank.starts_with("no shapes recorded");
            unknownGpu += row.sides[1].calls > 0 && row.flops >= 0 && row.sides[1].blank.starts_with("unknown GPU");
        }
        QVERIFY(noShapes > 0); // the HTA trace was recorded without record_shapes
        QVERIFY(unknownGpu > 0);
    }
};

QTEST_GUILESS_MAIN(TestEfficiency)
#include "tst_efficiency.moc"
