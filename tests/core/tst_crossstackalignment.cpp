// The automatic alignment (OpLevel::Auto): traces whose stacks differ are lined up on what they
// share, level by level; findings name the operation as each trace calls it; missing structure
// (no Python frames, no modules, no steps, one side without launches) degrades with a note.

#include "comparedpair.h"
#include "fusionanalysis.h"
#include "load/pythonframes.h"
#include "ops/alignment/alignmentkeys.h"
#include "ops/alignment/cascadealignment.h"
#include "ops/attribution/stepparts.h"
#include "report/reportnotes.h"
#include "report/reportwriters.h"

#include <QTest>

#include <algorithm>
#include <map>
#include <set>

using namespace fusiondiff;
using namespace fusiondiff::test;

namespace {

const std::string kNvGemm = "nvjet_tst_128x64_64x4_2x1_v_bz_TNT";
const std::string kNvGemmRelu = "void cutlass::Kernel2<cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_64x64_64x6_tn>";
const std::string kMul = "void at::native::vectorized_elementwise_kernel<4, at::native::MulFunctor<float>>";
const std::string kNvNorm = "void vllm::rms_norm_kernel<c10::BFloat16>";

struct Names
{
    std::string norm = "aten::layer_norm";
    std::string linear = "aten::linear";
    std::string mul = "aten::mul";
    std::string add = "aten::add";
};

// A layer: norm, linear (+ ReLU unless fused), an elementwise mul and an add.
void layer(TraceWriter& writer, const Names& names, bool nvidia, bool fusedRelu, const std::vector<std::string>& stack)
{
    writer.launch(names.norm, { nvidia ? kNvNorm : kNorm }, stack);
    if (fusedRelu)
        writer.launch(names.linear, { kNvGemmRelu }, stack);
    else
        writer.launch(names.linear, { nvidia ? kNvGemm : kGemm, kRelu }, stack);
    writer.launch(names.mul, { kMul }, stack);
    writer.launch(names.add, { kAdd }, stack);
}

} // namespace

class TestCrossStackAlignment : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void pythonFrameNamesLeaveOutWhatMovesBetweenVersions()
    {
        std::string scratch;
        QCOMPARE(
            pythonFrameKey("models/llama.py(212): forward", scratch), std::string_view("models/llama.py: forward"));
        QCOMPARE(pythonFrameKey("/usr/lib/python3.10/site-packages/torch/nn/modules/linear.py(125): forward", scratch),
            std::string_view("torch/nn/modules/linear.py: forward"));
        QCOMPARE(pythonFrameKey("<built-in method append of list object at 0x7f1bafbe0340>", scratch),
            std::string_view("<built-in method append of list object>"));
        QCOMPARE(pythonFrameKey("<built-in function linear>", scratch), std::string_view("<built-in function linear>"));
        QCOMPARE(pythonFrameKey("f(x)(3)", scratch), std::string_view("f(x)(3)")); // no ": " after the number
    }

    void cascadeFillsGapsWithCoarserKeysOnly()
    {
        // Level 0 pairs 1-1 and 4-4; level 1 may pair only inside the gaps: 9 against 9 at both
        // ends of the gap, never across the level-0 pairs.
        const std::vector<uint32_t> first0 { 1, 2, 3, 4 }, second0 { 1, 7, 8, 4 };
        const std::vector<uint32_t> first1 { 5, 9, 6, 5 }, second1 { 5, 6, 9, 5 };
        const std::vector<CascadeLevel> levels { { { first0, second0 }, SIZE_MAX, false, {}, 0 },
            { { first1, second1 }, SIZE_MAX, false, {}, 0 } };
        const std::vector<CascadeMatch> matches = alignByLevels(levels, 4, 4);
        QCOMPARE(matches.size(), size_t(3));
        QCOMPARE(matches[0].first, 0u);
        QCOMPARE(matches[0].level, 0u);
        QCOMPARE(matches[1].level, 1u);
        QVERIFY(matches[1].first == 1 || matches[1].first == 2);
        QCOMPARE(matches[2].first, 3u);
        QCOMPARE(matches[2].second, 3u);
        // A level limited to short stretches is skipped on longer ones.
        const std::vector<CascadeLevel> limited { { { first1, second1 }, 3, false, {}, 0 } };
        QVERIFY(alignByLevels(limited, 4, 4).empty());
        // No key: never paired.
        const std::vector<uint32_t> none { kNoKey, kNoKey };
        const std::vector<CascadeLevel> unkeyed { { { none, none }, SIZE_MAX, false, {}, 0 } };
        QVERIFY(alignByLevels(unkeyed, 2, 2).empty());
    }

    void aShortStretchPairsTheMostKernelsInOrder()
    {
        // A's calls run kernels [c, s] and [c]; B's [c] and [c, c] (A's first call merged in B,
        // its second split): B's first call equals A's second exactly, but pairing them leaves
        // A's first and B's second unpaired across each other. On a short stretch the level pairs
        // the most kernels in order instead: first with first, second with second.
        constexpr uint32_t c = 1, s = 2;
        const std::vector<std::vector<uint32_t>> firstKernels { { c, s }, { c } }, secondKernels { { c }, { c, c } };
        const std::vector<uint32_t> firstKeys { 10, 11 }, secondKeys { 11, 12 }; // equal signatures, equal keys
        auto similarity = [&](size_t a, size_t b) { return sharedKernels(firstKernels[a], secondKernels[b]); };
        const std::vector<CascadeLevel> scored { { { firstKeys, secondKeys }, SIZE_MAX, false, similarity, 16 } };
        const std::vector<CascadeMatch> matches = alignByLevels(scored, 2, 2);
        QCOMPARE(matches.size(), size_t(2));
        QCOMPARE(matches[0].first, 0u);
        QCOMPARE(matches[0].second, 0u);
        QCOMPARE(matches[1].first, 1u);
        QCOMPARE(matches[1].second, 1u);
        // Equal keys alone (no score, or a stretch longer than the scored one) pair the look-alike.
        const std::vector<CascadeLevel> exact { { { firstKeys, secondKeys }, SIZE_MAX, false, similarity, 1 } };
        const std::vector<CascadeMatch> byKeys = alignByLevels(exact, 2, 2);
        QCOMPARE(byKeys.size(), size_t(1));
        QCOMPARE(byKeys[0].first, 1u);
        QCOMPARE(byKeys[0].second, 0u);
        // Where sharing the kernels ties, equal keys win: A's [c] pairs with B's [c], not [c, x].
        constexpr uint32_t x = 3;
        const std::vector<std::vector<uint32_t>> one { { c } }, two { { c, x }, { c } };
        const std::vector<uint32_t> oneKeys { 20 }, twoKeys { 21, 20 };
        auto tie = [&](size_t a, size_t b) { return sharedKernels(one[a], two[b]); };
        const std::vector<CascadeLevel> tied { { { oneKeys, twoKeys }, SIZE_MAX, false, tie, 16 } };
        const std::vector<CascadeMatch> tieMatches = alignByLevels(tied, 1, 2);
        QCOMPARE(tieMatches.size(), size_t(1));
        QCOMPARE(tieMatches[0].second, 1u);
    }

    void longRunsOfAboutTheSameLengthPairOnSharedKernels()
    {
        // An optimizer's run over 400 parameters, three calls each, every call of A's one kernel
        // split in two in B: no signature is equal, and the stretch is far longer than a short
        // scored one. With scoreLongRuns, every call pairs with its own, in order.
        constexpr uint32_t e = 1, g = 2;
        constexpr size_t calls = 1200;
        std::vector<std::vector<uint32_t>> firstKernels(calls, { e }), secondKernels(calls, { e, e });
        firstKernels[700] = { g }; // a GEMM among them pairs only with a GEMM
        secondKernels[700] = { g, g };
        std::vector<uint32_t> firstKeys(calls, 10), secondKeys(calls, 11);
        firstKeys[700] = 12;
        secondKeys[700] = 13;
        auto similarity = [&](size_t a, size_t b) { return sharedKernels(firstKernels[a], secondKernels[b]); };
        CascadeLevel level { { firstKeys, secondKeys }, SIZE_MAX, false, similarity, 16 };
        QVERIFY(alignByLevels(std::vector<CascadeLevel> { level }, calls, calls).empty()); // without it: nothing
        level.scoreLongRuns = true;
        const std::vector<CascadeMatch> matches = alignByLevels(std::vector<CascadeLevel> { level }, calls, calls);
        QCOMPARE(matches.size(), calls);
        for (const CascadeMatch& match : matches)
            QCOMPARE(match.first, match.second);
        // A run the other side repeats far fewer times is not the same run: left to the next level.
        const std::vector<CascadeMatch> unbalanced
            = alignByLevels(std::vector<CascadeLevel> { level }, calls, calls / 2);
        QVERIFY(unbalanced.empty());
    }

    void sharedKernelsCountsOnlyCallsThatMostlyAgree()
    {
        const std::vector<uint32_t> gemm { 1 }, split { 1, 1 }, merged { 1, 2, 3 }, three { 1, 2, 3, 4 }, other { 5 };
        QCOMPARE(sharedKernels(gemm, gemm), 1u);
        QCOMPARE(sharedKernels(gemm, split), 1u); // one kernel split in two
        QCOMPARE(sharedKernels(merged, three), 3u);
        QCOMPARE(sharedKernels(gemm, other), 0u);
        QCOMPARE(sharedKernels(gemm, three), 0u); // 1 of 4: not the same call
        QCOMPARE(sharedKernels(std::vector<uint32_t> {}, gemm), 0u);
        // Long signatures count only when equal.
        const std::vector<uint32_t> longOne(100, 7);
        std::vector<uint32_t> longOther = longOne;
        QCOMPARE(sharedKernels(longOne, longOther), 100u);
        longOther.back() = 8;
        QCOMPARE(sharedKernels(longOne, longOther), 0u);
    }

    void renamedOperatorsAreLinedUpAndNamedOnBothSides()
    {
        TraceWriter a, b;
        a.amd();
        b.nvidia();
        const Names vendor { "vendor::rms_norm", "vendor::gemm", "vendor::scale", "vendor::residual" };
        for (int i = 0; i < 8; ++i) {
            layer(a, Names {}, false, false, {});
            layer(b, vendor, true, true, {});
        }
        // On names alone, nothing lines up: the traces would be called different work.
        const FusionReport byName = compareWritten(a, b, { .opLevel = OpLevel::Operator });
        QVERIFY(!byName.opAlignment.comparable);

        const FusionReport report = compareWritten(a, b);
        QVERIFY(report.opAlignment.comparable);
        QCOMPARE(report.opAlignment.matched, uint64_t(32));
        uint64_t byKernels = 0;
        for (const AlignmentLevel& level : report.opAlignment.levels) {
            if (level.key == "renamed_operator" || level.key == "kernels" || level.key == "first_kernel")
                byKernels += level.matched;
        }
        QCOMPARE(byKernels, uint64_t(32));
        QCOMPARE(report.opFindings.size(), size_t(1));
        const OpFinding& finding = report.opFindings.front();
        QCOMPARE(finding.sideOps[0], std::string("aten::linear"));
        QCOMPARE(finding.sideOps[1], std::string("vendor::gemm"));
        QCOMPARE(finding.op, std::string("aten::linear / vendor::gemm"));
        QCOMPARE(finding.sideStacks[1].back(), std::string("vendor::gemm"));
        QCOMPARE(finding.fusedSide, Side::Trace2);
        QCOMPARE(finding.occurrences, uint64_t(8));
        QVERIFY(report.opAlignment.verdict.find("Aligned on") != std::string::npos);

        const std::string json = reportToJson(report);
        QVERIFY(json.find(R"("trace1_op": "aten::linear")") != std::string::npos);
        QVERIFY(json.find(R"("trace2_op": "vendor::gemm")") != std::string::npos);
        QVERIFY(json.find(R"("trace2_stack": [)") != std::string::npos);
        QVERIFY(json.find(R"("levels": [)") != std::string::npos);
        bool csvNamesBoth = false;
        for (const CsvTable& table : reportToCsv(report)) {
            if (table.name == "op_findings")
                csvNamesBoth
                    = table.text.find("trace1_op,trace2_op,trace1_stack,trace2_stack,aligned_on") != std::string::npos
                    && table.text.find("vendor::gemm") != std::string::npos;
        }
        QVERIFY(csvNamesBoth);
    }

    void autogradNodesAreNamedAfterTheirForwardOperators()
    {
        QCOMPARE(
            autogradNodeOf("autograd::engine::evaluate_function: AddmmBackward0").forwardStem, std::string("addmm"));
        QCOMPARE(autogradNodeOf("NativeLayerNormBackward0").forwardStem, forwardStemOf("aten::native_layer_norm"));
        QCOMPARE(autogradNodeOf("Op7Backward1").forwardStem, forwardStemOf("vendor_ops::op_7"));
        QCOMPARE(autogradNodeOf("Op7Backward1").suffix, std::string("Backward1"));
        QCOMPARE(autogradNodeOf("CompiledFunctionBackward").forwardStem, forwardStemOf("CompiledFunction"));
        QCOMPARE(autogradNodeOf("vendor_ops::op_7Backward0").forwardStem, forwardStemOf("vendor_ops::op_7"));
        QVERIFY(autogradNodeOf("autograd::engine::evaluate_function: torch::autograd::AccumulateGrad").isNode);
        QVERIFY(autogradNodeOf("autograd::engine::evaluate_function: torch::autograd::AccumulateGrad")
                    .forwardStem.empty()); // a node, but not named after an operator
        // The 2021 schema records the engine's own nodes alone, without the wrapper: still nodes
        // (the parameters' gradient accumulation runs in the backward pass).
        QVERIFY(autogradNodeOf("torch::autograd::AccumulateGrad").isNode);
        QVERIFY(autogradNodeOf("torch::autograd::AccumulateGrad").forwardStem.empty());
        QVERIFY(autogradNodeOf("torch::autograd::CopySlices").isNode);
        QVERIFY(!autogradNodeOf("aten::native_layer_norm_backward").isNode);
        QVERIFY(!autogradNodeOf("aten::linear").isNode);
    }

    void backwardOperatorsPairThroughTheirForwardOperators()
    {
        // A training step as two builds record it: B's operators are renamed (a vendor's), and its
        // autograd nodes are named after them. B's backward nodes also run one more kernel first,
        // so that kernels cannot pair them: only their forward operators' renaming can.
        TraceWriter a, b;
        a.nvidia();
        b.nvidia();
        for (int step = 0; step < 6; ++step) {
            a.launch("aten::addmm", { kNvGemm });
            a.launch("aten::mul", { kMul });
            a.launch("autograd::engine::evaluate_function: MulBackward0", { kMul, kMul });
            a.launch("autograd::engine::evaluate_function: AddmmBackward0", { kNvGemm, kNvGemm });
            b.launch("vendor::fast_gemm", { kNvGemm });
            b.launch("vendor::scale", { kMul });
            b.launch("autograd::engine::evaluate_function: ScaleBackward0", { kNvNorm, kMul, kMul });
            b.launch("autograd::engine::evaluate_function: FastGemmBackward0", { kNvNorm, kNvGemm, kNvGemm });
        }
        const FusionReport report = compareWritten(a, b);
        std::map<std::string, uint64_t> levels;
        for (const AlignmentLevel& level : report.opAlignment.levels)
            levels[level.key] = level.matched;
        QCOMPARE(levels["kernels"], uint64_t(0)); // the forward operators, on the first pass only
        QCOMPARE(levels["renamed_operator"], uint64_t(24)); // forward and backward, every step
        QVERIFY(report.opAlignment.comparable);
        bool backwardFinding = false;
        for (const OpFinding& finding : report.opFindings) {
            backwardFinding = backwardFinding
                || (finding.sideOps[0] == "autograd::engine::evaluate_function: AddmmBackward0"
                    && finding.sideOps[1] == "autograd::engine::evaluate_function: FastGemmBackward0");
        }
        QVERIFY(backwardFinding);
    }

    void optimizerRunsLineUpWhenEveryCallChanged()
    {
        // Five training steps (the first a warm-up) with SGD over 150 parameters: A's optimizer
        // runs add_, mul_, add_ of one elementwise kernel each per parameter; B, another build,
        // names them otherwise and runs each as two kernels. No name and no signature is equal in
        // the optimizer, which is most of the step: only the kernels the calls share, in the
        // optimizer part of each step, pair them. Then the pair is the same work, and both changes
        // are found.
        auto training = [](TraceWriter& writer, bool vendor, int parameters, int steps) {
            writer.nvidia();
            for (int step = 0; step < steps; ++step) {
                writer.beginStep("ProfilerStep#" + std::to_string(step));
                writer.launch(vendor ? "vendor::fast_gemm" : "aten::addmm", { kNvGemm });
                writer.launch(vendor ? "autograd::engine::evaluate_function: FastGemmBackward0"
                                     : "autograd::engine::evaluate_function: AddmmBackward0",
                    { kNvGemm, kNvGemm });
                const double begin = writer.cpuTs();
                for (int p = 0; p < parameters; ++p) {
                    if (vendor) {
                        writer.launch("vendor::axpy", { kAdd, kAdd });
                        writer.launch("vendor::scale", { kMul, kMul });
                        writer.launch("vendor::axpy", { kAdd, kAdd });
                    } else {
                        writer.launch("aten::add_", { kAdd });
                        writer.launch("aten::mul_", { kMul });
                        writer.launch("aten::add_", { kAdd });
                    }
                }
                writer.rawEvent(R"({"ph": "X", "cat": "user_annotation", "name": "Optimizer.step#SGD.step", "pid": 1, )"
                                R"("tid": 1, "ts": )"
                    + std::to_string(begin) + R"(, "dur": )" + std::to_string(writer.cpuTs() - begin) + "}");
                writer.endStep();
            }
        };
        TraceWriter a, b;
        training(a, false, 150, 5);
        training(b, true, 150, 5);
        const FusionReport report = compareWritten(a, b);
        QVERIFY2(report.opAlignment.comparable, report.opAlignment.verdict.c_str());
        QCOMPARE(report.opAlignment.matched, uint64_t(4 * 452)); // every call of the compared steps
        QCOMPARE(report.opAlignment.matchedShare, 1.0); // of the compared steps: the warm-up is left out
        std::set<std::string> found;
        for (const OpFinding& finding : report.opFindings) {
            if (finding.fusedSide == Side::Trace1)
                found.insert(finding.sideOps[0] + " / " + finding.sideOps[1]);
        }
        QVERIFY(found.contains("aten::add_ / vendor::axpy"));
        QVERIFY(found.contains("aten::mul_ / vendor::scale"));
        // Another model's training step (60 parameters): its optimizer run is not the same run.
        TraceWriter other;
        training(other, true, 60, 5);
        const FusionReport different = compareWritten(a, other);
        QVERIFY(!different.opAlignment.comparable);
        QVERIFY(different.opFindings.empty());
    }

    void pythonFramesLineUpWhereOperatorNamesDiffer()
    {
        // The same Python code (lines moved) calls differently named operators; two elementwise
        // operators of one kernel each could not be told apart by kernels alone.
        TraceWriter a, b;
        a.amd();
        b.nvidia();
        for (int i = 0; i < 6; ++i) {
            a.launch("aten::mul", { kMul }, { "Block_" + std::to_string(i), "models/block.py(10): scale" });
            a.launch("aten::add", { kAdd }, { "Block_" + std::to_string(i), "models/block.py(20): residual" });
            b.launch("vendor::scale", { kMul, kMul }, { "Block_" + std::to_string(i), "models/block.py(14): scale" });
            b.launch("vendor::residual", { kAdd }, { "Block_" + std::to_string(i), "models/block.py(27): residual" });
        }
        const FusionReport report = compareWritten(a, b);
        QVERIFY(report.opAlignment.comparable);
        QCOMPARE(report.opAlignment.matched, uint64_t(12));
        QCOMPARE(report.opAlignment.levels[1].key, std::string("python"));
        QCOMPARE(report.opAlignment.levels[1].matched, uint64_t(12));
        QCOMPARE(report.opFindings.size(), size_t(1));
        QCOMPARE(report.opFindings.front().sideOps[1], std::string("vendor::scale"));
        QCOMPARE(report.opFindings.front().alignedOn, std::string("python"));
    }

    void oneSideWithoutModulesAlignsOnOperators()
    {
        TraceWriter a, b;
        a.amd();
        b.nvidia();
        for (int i = 0; i < 5; ++i) {
            layer(a, Names {}, false, false, { "Model_0", "Layer_" + std::to_string(i) });
            layer(b, Names {}, true, false, {});
        }
        const FusionReport report = compareWritten(a, b);
        QVERIFY(report.opAlignment.comparable);
        QCOMPARE(report.opAlignment.matched, uint64_t(20));
        QCOMPARE(report.opAlignment.notes.size(), size_t(1));
        QVERIFY(report.opAlignment.notes.front().find("has no nn.Module frames") != std::string::npos);
        QVERIFY(reportSummary(report).find("has no nn.Module frames") != std::string::npos);
    }

    void stepsOnOneSideOnlyAreNoted()
    {
        TraceWriter a, b;
        a.amd();
        b.nvidia();
        for (int step = 0; step < 3; ++step) {
            a.beginStep("ProfilerStep#" + std::to_string(step));
            for (int i = 0; i < 3; ++i)
                layer(a, Names {}, false, false, {});
            a.endStep();
            for (int i = 0; i < 3; ++i)
                layer(b, Names {}, true, false, {});
        }
        const FusionReport report = compareWritten(a, b);
        QVERIFY(!report.opAlignment.notes.empty());
        QVERIFY(report.opAlignment.notes.front().find("ProfilerStep") != std::string::npos);
        QVERIFY(report.opAlignment.matched > 0);
    }

    void oneSideWithoutLaunchesStillReportsKernelTypes()
    {
        TraceWriter a, b;
        a.amd();
        b.nvidia();
        for (int i = 0; i < 4; ++i)
            layer(a, Names {}, false, false, {});
        b.kernels(kNvGemm, 4).kernels(kAdd, 4).kernels(kNvNorm, 4); // no runtime calls, no operators
        const FusionReport report = compareWritten(a, b);
        QVERIFY(!report.opAlignment.comparable);
        QVERIFY(report.opFindings.empty());
        QVERIFY(!report.globalCounts.empty()); // the kernel types are still compared
        bool noted = false;
        for (const std::string& note : report.opAlignment.notes)
            noted = noted || note.find("has no kernel whose launch is in the trace") != std::string::npos;
        QVERIFY(noted);
        QVERIFY(!reportToJson(report).empty());
        QVERIFY(!reportToMarkdown(report).empty());
    }

    void aRepeatedPythonCallMakesTheSteps()
    {
        // No ProfilerStep: four calls of the serving loop's execute_model (three layers each), the
        // first a prefill (other operations), the rest decode steps. None is left out as a warm-up.
        TraceWriter a, b;
        a.amd();
        b.nvidia();
        for (int step = 0; step < 4; ++step) {
            for (TraceWriter* writer : { &a, &b }) {
                writer->beginStep("worker/model_runner.py(" + std::to_string(100 + step) + "): execute_model");
                if (step == 0)
                    writer->launch("aten::embedding", { kAdd });
                for (int i = 0; i < 3; ++i)
                    layer(*writer, Names {}, writer == &b, false, {});
                writer->endStep();
            }
        }
        const FusionReport report = compareWritten(a, b);
        for (const Iterations& iterations : report.iterations) {
            QCOMPARE(iterations.method, std::string("repeated Python call worker/model_runner.py: execute_model"));
            QCOMPARE(iterations.count, uint64_t(4));
            QCOMPARE(iterations.compared, uint64_t(4));
            QVERIFY(!iterations.warmupSkipped);
            QCOMPARE(iterations.phases.size(), size_t(2)); // prefill and decode
        }
        QCOMPARE(report.opAlignment.matched, uint64_t(49));
        QVERIFY(reportSummary(report).find("calls of the Python function") != std::string::npos);
        const std::vector<std::string> notes = reportNotes(report);
        QVERIFY(std::find(notes.begin(), notes.end(),
                    "A has no profiler steps; its steps are the 4 calls of the Python function "
                    "worker/model_runner.py: execute_model, which fall into 2 phases that run different operations "
                    "(such as prefill and decode), compared phase by phase.")
            != notes.end());
    }

    void layersArePairedInOrderWhateverTheyAreCalled()
    {
        // Two steps of an embedding, four decoder layers and a head. B's stack names the layer
        // class and every operator differently; only its layer 2 fuses the ReLU into the GEMM.
        TraceWriter a, b;
        a.amd();
        b.nvidia();
        const Names vendor { "vendor::rms_norm", "vendor::gemm", "vendor::scale", "vendor::residual" };
        for (int step = 0; step < 2; ++step) {
            for (TraceWriter* writer : { &a, &b }) {
                const bool nvidia = writer == &b;
                writer->beginStep("ProfilerStep#" + std::to_string(step));
                writer->launch(nvidia ? "vendor::embed" : "aten::embedding", { kAdd });
                for (int i = 0; i < 4; ++i) {
                    writer->beginCall((nvidia ? "VendorDecoderLayer_" : "LlamaDecoderLayer_") + std::to_string(i));
                    layer(*writer, nvidia ? vendor : Names {}, nvidia, nvidia && i == 2, {});
                    writer->endCall();
                }
                writer->launch(nvidia ? "vendor::head" : "aten::linear", { nvidia ? kNvGemm : kGemm });
                writer->endStep();
            }
        }
        const FusionReport report = compareWritten(a, b);
        const LayerAlignment& layers = report.opAlignment.layers;
        QCOMPARE(layers.perStep, uint64_t(4));
        QCOMPARE(layers.unit[0], std::string("nn.Module: LlamaDecoderLayer"));
        QCOMPARE(layers.unit[1], std::string("nn.Module: VendorDecoderLayer"));
        QCOMPARE(layers.calls[0], uint64_t(8));
        QCOMPARE(layers.calls[1], uint64_t(8));
        QCOMPARE(layers.matched, uint64_t(32));
        QCOMPARE(layers.share[0], 32.0 / 36.0);
        QVERIFY(report.opAlignment.verdict.find("Aligned layer by layer (4 calls a step: nn.Module: LlamaDecoderLayer "
                                                "in AMD, nn.Module: VendorDecoderLayer in NVIDIA)")
            != std::string::npos);
        QCOMPARE(report.opAlignment.matched, uint64_t(36));

        QCOMPARE(report.opFindings.size(), size_t(1));
        const OpFinding& finding = report.opFindings.front();
        QCOMPARE(finding.op, std::string("aten::linear / vendor::gemm"));
        QCOMPARE(finding.occurrences, uint64_t(2));
        QCOMPARE(finding.layers, std::string("2"));

        QCOMPARE(report.layerTimes.size(), size_t(4));
        for (const LayerTimes& row : report.layerTimes) {
            QCOMPARE(row.calls[0], uint64_t(2));
            QCOMPARE(row.calls[1], uint64_t(2));
            QCOMPARE(row.kernels[0], uint64_t(10)); // 5 kernels a call
            QCOMPARE(row.kernels[1], uint64_t(row.index == 2 ? 8 : 10));
        }
        bool tableWritten = false;
        for (const CsvTable& table : reportToCsv(report)) {
            if (table.name == "layer_times")
                tableWritten
                    = table.text.starts_with("layer,trace1_calls,trace2_calls,trace1_kernels,trace2_kernels,"
                                             "trace1_time_us,trace2_time_us,delta_time_us,phase\r\n0,2,2,10,10,")
                    && table.text.find("\r\n2,2,2,10,8,") != std::string::npos;
        }
        QVERIFY(tableWritten);
        const std::string json = reportToJson(report);
        QVERIFY(json.find(R"("layers": "2")") != std::string::npos);
        QVERIFY(json.find(R"("trace2_unit": "nn.Module: VendorDecoderLayer")") != std::string::npos);
        const std::vector<std::string> notes = reportNotes(report);
        QVERIFY(std::any_of(notes.begin(), notes.end(), [](const std::string& note) {
            return note.starts_with("By layer (4 a step, nn.Module: LlamaDecoderLayer): ")
                && note.find("the largest difference is layer 2") != std::string::npos;
        }));
    }

    void operationsAtTheEndsOfLayersPairAcrossThem()
    {
        // A's layer module holds the residual add; B's model adds after each layer call: the adds
        // fall in different segments (inside layer i, between layers i and i + 1) and still pair.
        TraceWriter a, b;
        a.amd();
        b.nvidia();
        for (TraceWriter* writer : { &a, &b }) {
            const bool nvidia = writer == &b;
            for (int i = 0; i < 4; ++i) {
                writer->beginCall("DecoderLayer_" + std::to_string(i));
                writer->launch("aten::layer_norm", { nvidia ? kNvNorm : kNorm });
                writer->launch("aten::linear", { nvidia ? kNvGemm : kGemm, kRelu });
                writer->launch("aten::mul", { kMul });
                if (!nvidia)
                    writer->launch("aten::add", { kAdd });
                writer->endCall();
                if (nvidia)
                    writer->launch("aten::add", { kAdd });
            }
        }
        const FusionReport report = compareWritten(a, b);
        QCOMPARE(report.opAlignment.layers.perStep, uint64_t(4));
        QCOMPARE(report.opAlignment.matched, uint64_t(16));
        QVERIFY(report.opFindings.empty());
        for (const TimeGapPart& part : report.timeGap.kernelTime.parts) {
            if (part.cause == GapCause::OneSide)
                QCOMPARE(part.kernels, (std::array<uint64_t, 2> {}));
        }
    }

    void layersThatDoNotCorrespondAreNotUsed()
    {
        // A's steps hold four layer calls, B's three of one class and one of another (a model that
        // is not the same depth): no layers pair; the steps are aligned whole, as without layers.
        TraceWriter a, b;
        a.amd();
        b.nvidia();
        for (TraceWriter* writer : { &a, &b }) {
            for (int i = 0; i < 4; ++i) {
                const bool other = writer == &b && i == 3;
                writer->beginCall((other ? "OtherLayer_" : "DecoderLayer_") + std::to_string(i));
                layer(*writer, Names {}, writer == &b, false, {});
                writer->endCall();
            }
        }
        const FusionReport report = compareWritten(a, b);
        QCOMPARE(report.opAlignment.layers.perStep, uint64_t(0));
        QVERIFY(report.layerTimes.empty());
        QCOMPARE(report.opAlignment.matched, uint64_t(16));
        QVERIFY(report.opAlignment.verdict.find("layer by layer") == std::string::npos);
        QVERIFY(std::find(report.opAlignment.notes.begin(), report.opAlignment.notes.end(),
                    "No layers in common: AMD has 4 calls of nn.Module: DecoderLayer a step, NVIDIA 3 calls of "
                    "nn.Module: DecoderLayer a step; the operations were aligned without layers")
            != report.opAlignment.notes.end());
        for (const OpFinding& finding : report.opFindings)
            QCOMPARE(finding.layers, std::string());
    }

    void pythonFunctionsAreLayersWhereNoModuleIs()
    {
        // No nn.Module calls (a compiled model): the Python function each layer runs in repeats.
        TraceWriter a, b;
        a.amd();
        b.nvidia();
        for (TraceWriter* writer : { &a, &b }) {
            for (int i = 0; i < 3; ++i) {
                writer->beginCall(
                    writer == &a ? "models/llama.py(300): layer_forward" : "models/llama.py(310): layer_forward");
                layer(*writer, Names {}, writer == &b, false, {});
                writer->endCall();
            }
        }
        const FusionReport report = compareWritten(a, b);
        QCOMPARE(report.opAlignment.layers.perStep, uint64_t(3));
        QCOMPARE(report.opAlignment.layers.unit[0], std::string("models/llama.py: layer_forward"));
        QCOMPARE(report.layerTimes.size(), size_t(3));
        QVERIFY(!report.opAlignment.layers.graphPieces);
        QVERIFY(report.opAlignment.verdict.find("layer by layer") != std::string::npos);
    }

    void compiledGraphPiecesAreNotCalledLayers()
    {
        // A piecewise-compiled model (vLLM): the repeating Python function is the graph backend's, one
        // call per piece between two attention calls. The report calls them graph pieces, not layers.
        TraceWriter a, b;
        a.amd();
        b.nvidia();
        for (TraceWriter* writer : { &a, &b }) {
            for (int i = 0; i < 3; ++i) {
                writer->beginCall("vllm/compilation/cuda_piecewise_backend.py(120): __call__");
                layer(*writer, Names {}, writer == &b, false, {});
                writer->endCall();
            }
        }
        const FusionReport report = compareWritten(a, b);
        QCOMPARE(report.opAlignment.layers.perStep, uint64_t(3));
        QVERIFY(report.opAlignment.layers.graphPieces);
        QVERIFY2(report.opAlignment.verdict.find("graph piece by graph piece (3 calls of") != std::string::npos,
            report.opAlignment.verdict.c_str());
        QVERIFY(report.opAlignment.verdict.find("layer by layer") == std::string::npos);
        const std::vector<std::string> notes = reportNotes(report);
        QVERIFY(std::any_of(notes.begin(), notes.end(), [](const std::string& note) {
            return note.starts_with("By graph piece (3 a step, ")
                && note.find("torch.compile graph pieces rather than the model's layers") != std::string::npos;
        }));
        QVERIFY(reportToJson(report).find("\"graph_pieces\": true") != std::string::npos);
        QVERIFY(isCompiledGraphPiece("torch/_dynamo/eval_frame.py: _fn"));
        QVERIFY(isCompiledGraphPiece("nn.Module: GraphModule"));
        QVERIFY(!isCompiledGraphPiece("nn.Module: LlamaDecoderLayer"));
        QVERIFY(!isCompiledGraphPiece("models/llama.py: layer_forward"));
    }

    void whatOneStackSplitsIntoSeveralOperatorsIsComparedWithTheOthersOne()
    {
        // Each of six blocks: four projections both run alike, a norm module where A runs the residual add and the norm
        // as two operators and B one fused custom operator; a Linear where B runs the GEMM and then a split-K reduce as
        // an operator of its own; outside any module, a region where A runs four operators and B one whose kernel none
        // of A's resembles (no level pairs them). Nothing is one-side work: each is the same work done differently.
        const std::string kReduce = "void cublasLt::splitKreduce_kernel<float>";
        const std::string kPow = "void at::native::vectorized_elementwise_kernel<4, at::native::pow_tensor_scalar>";
        const std::string kMean = "void at::native::reduce_kernel<512, 1, at::native::MeanOps<float>>";
        const std::string kSoftmax = "void at::native::(anonymous namespace)::cunn_SoftMaxForward<4, float>";
        TraceWriter a, b;
        a.amd();
        b.nvidia();
        for (int i = 0; i < 6; ++i) {
            const std::string block = "Block_" + std::to_string(i);
            for (const char* projection : { "q", "k", "v", "o" }) {
                a.launch("aten::linear", { kGemm }, { block, std::string(projection) + "_proj_" + std::to_string(i) });
                b.launch(
                    "aten::linear", { kNvGemm }, { block, std::string(projection) + "_proj_" + std::to_string(i) });
            }
            a.beginCall("RMSNorm_" + std::to_string(i));
            a.launch("aten::add", { kAdd }).launch("aten::rms_norm", { kNorm });
            a.endCall();
            b.beginCall("RMSNorm_" + std::to_string(i));
            b.launch("vendor::fused_add_rms_norm", { kNvNorm });
            b.endCall();
            a.beginCall("Linear_" + std::to_string(2 * i + 1));
            a.launch("aten::mm", { kGemm });
            a.endCall();
            b.beginCall("Linear_" + std::to_string(2 * i + 1));
            b.launch("aten::mm", { kNvGemm }).launch("vendor::splitk_reduce", { kReduce });
            b.endCall();
            a.launch("aten::pow", { kPow }).launch("aten::mean", { kMean }).launch("aten::rsqrt", { kMul });
            a.launch("aten::mul", { kMul });
            b.launch("vendor::scale", { kSoftmax });
        }
        a.launch("aten::linear", { kGemm }, { "lm_head" });
        b.launch("aten::linear", { kNvGemm }, { "lm_head" });
        const FusionReport report = compareWritten(a, b);
        QVERIFY(report.opAlignment.comparable);
        std::map<std::string, uint64_t> levels;
        for (const AlignmentLevel& level : report.opAlignment.levels)
            levels[level.key] = level.matched;
        QCOMPARE(levels["joined"], uint64_t(12)); // the adds and the reduces
        QCOMPARE(levels["between_pairs"], uint64_t(6)); // the scale regions
        auto findingFor = [&](const std::string& trace1, const std::string& trace2) -> const OpFinding* {
            for (const OpFinding& finding : report.opFindings) {
                if (finding.sideOps[0] == trace1 && finding.sideOps[1] == trace2)
                    return &finding;
            }
            return nullptr;
        };
        const OpFinding* norm = findingFor("aten::add + aten::rms_norm", "vendor::fused_add_rms_norm");
        QVERIFY(norm);
        QCOMPARE(norm->fusedSide, Side::Trace2);
        QCOMPARE(norm->occurrences, uint64_t(6));
        const OpFinding* reduce = findingFor("aten::mm", "aten::mm + vendor::splitk_reduce");
        QVERIFY(reduce);
        QCOMPARE(reduce->fusedSide, Side::Trace1);
        const OpFinding* scale = findingFor("aten::pow + aten::mean + aten::rsqrt + aten::mul", "vendor::scale");
        QVERIFY(scale);
        QCOMPARE(scale->launchDifference, int64_t(3));
        QCOMPARE(scale->alignedOn, std::string("between_pairs"));
        QCOMPARE(report.opFindings.size(), size_t(3));
        // No kernel is left as work one trace runs alone.
        for (const TimeGapPart& part : report.timeGap.kernelTime.parts) {
            if (part.cause == GapCause::OneSide)
                QCOMPARE(part.kernels, (std::array<uint64_t, 2> {}));
        }
    }

    void unrelatedOperatorsBetweenPairsStayOneSided()
    {
        // B runs an extra operator outside any module, between two operations both traces run:
        // it belongs to neither neighbour, so it stays work B runs alone.
        TraceWriter a, b;
        a.amd();
        b.nvidia();
        for (int i = 0; i < 4; ++i) {
            for (TraceWriter* writer : { &a, &b }) {
                const bool nvidia = writer == &b;
                writer->launch("aten::linear", { nvidia ? kNvGemm : kGemm }, { "Linear_" + std::to_string(2 * i) });
                if (nvidia)
                    writer->launch("aten::copy_", { kAdd });
                writer->launch("aten::linear", { nvidia ? kNvGemm : kGemm }, { "Linear_" + std::to_string(2 * i + 1) });
            }
        }
        const FusionReport report = compareWritten(a, b);
        QVERIFY(report.opFindings.empty());
        for (const AlignmentLevel& level : report.opAlignment.levels) {
            if (level.key == "joined" || level.key == "between_pairs")
                QCOMPARE(level.matched, uint64_t(0));
        }
    }

    void noCpuSideAtAllIsSaidPlainly()
    {
        TraceWriter a, b;
        a.amd().kernels(kGemm, 3);
        b.nvidia().kernels(kNvGemm, 3);
        const FusionReport report = compareWritten(a, b);
        QVERIFY(!report.opAlignment.comparable);
        QVERIFY(report.opAlignment.verdict.find("No kernel could be attributed") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestCrossStackAlignment)
#include "tst_crossstackalignment.moc"
