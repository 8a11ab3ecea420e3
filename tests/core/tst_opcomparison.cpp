// Beyond the seed: kernels attributed to the operations that launched them, operations aligned
// between the traces, findings with their kernels, explanations and spreads.

#include "classify/classifier.h"
#include "comparedpair.h"
#include "fusionanalysis.h"
#include "load/traceloader.h"
#include "ops/attribution/opattribution.h"
#include "ops/comparison/collectives.h"
#include "ops/comparison/findingparts.h"
#include "ops/comparison/kernelcomparison.h"
#include "ops/comparison/kernelwork.h"
#include "report/reportwriters.h"

#include <QTemporaryDir>
#include <QTest>

#include <array>

using namespace fusiondiff;
using namespace fusiondiff::test;

namespace {

// Operations matched by name, the level these small models are built to show.
const AnalysisOptions kByOperator { .opLevel = OpLevel::Operator };
const std::string kCopy = "void at::native::elementwise_kernel<128, 4, direct_copy_kernel_cuda>";

// A small model: per layer a norm, a linear with a ReLU, an add; A runs the ReLU as its own kernel.
void layer(TraceWriter& writer, bool fusedRelu, int index, double dur = 3)
{
    const std::string suffix = "_" + std::to_string(index);
    writer.launch("aten::layer_norm", { kNorm }, { "Model_0", "Layer" + suffix, "LayerNorm" + suffix }, dur);
    writer.launch("aten::linear", fusedRelu ? std::vector { kGemmRelu } : std::vector { kGemm, kRelu },
        { "Model_0", "Layer" + suffix, "Linear" + suffix }, dur);
    writer.launch("aten::add", { kAdd }, { "Model_0", "Layer" + suffix }, dur);
}

} // namespace

class TestOpComparison : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void kernelsAreAttributedToTheirOperators()
    {
        TraceWriter writer;
        writer.amd();
        layer(writer, false, 0);
        writer.kernels("launched before the profiler's CPU window", 1);
        QTemporaryDir dir;
        const TraceStore store = loadTrace(writer.write(dir, QStringLiteral("t.json")).toStdString());
        QCOMPARE(store.modules.size(), size_t(8));
        const KernelAttribution attribution = attributeKernels(store);
        QCOMPARE(attribution.attributed, uint64_t(4));
        QCOMPARE(attribution.launchingFrame.back(), -1);
        // The GEMM of aten::linear: Model_0 > Layer_0 > Linear_0 > aten::linear.
        const int32_t frame = attribution.launchingFrame[1];
        QVERIFY(frame >= 0);
        std::vector<std::string> stack;
        for (const int32_t f : attribution.stackOf(frame))
            stack.emplace_back(store.name(attribution.frames[size_t(f)].name));
        QCOMPARE(stack, (std::vector<std::string> { "Model_0", "Layer_0", "Linear_0", "aten::linear" }));
        QCOMPARE(moduleClassName("Qwen2RMSNorm_13"), std::string("Qwen2RMSNorm"));
        QCOMPARE(moduleClassName("Linear"), std::string("Linear"));
        QCOMPARE(moduleClassName("conv_2d"), std::string("conv_2d"));
    }

    void aFusedEpilogueIsFoundAndExplained()
    {
        TraceWriter a, b;
        a.amd();
        b.nvidia();
        for (int i = 0; i < 6; ++i) {
            layer(a, false, i);
            layer(b, true, i);
        }
        const FusionReport report = compareWritten(a, b, kByOperator);
        QVERIFY(report.opAlignment.comparable);
        QCOMPARE(report.opAlignment.matched, uint64_t(18));
        QCOMPARE(report.opAlignment.matchedShare, 1.0);
        QCOMPARE(report.opFindings.size(), size_t(1));
        const OpFinding& finding = report.opFindings.front();
        QCOMPARE(finding.op, std::string("aten::linear"));
        QCOMPARE(finding.fusedSide, Side::Trace2);
        QCOMPARE(finding.occurrences, uint64_t(6));
        QCOMPARE(finding.launchDifference, int64_t(1));
        QCOMPARE(finding.kernels[0].size(), size_t(2));
        QCOMPARE(report.typeName(finding.kernels[0][1].type), std::string("Activation"));
        QCOMPARE(finding.timeUs[0].median, 6.0);
        QCOMPARE(finding.timeUs[1].median, 3.0);
        QCOMPARE(finding.savingUs, 18.0);
        QCOMPARE(finding.stack,
            (std::vector<std::string> {
                "nn.Module: Model_0", "nn.Module: Layer_0", "nn.Module: Linear_0", "aten::linear" }));
        QCOMPARE(finding.alignment, (std::vector<AlignedPair> { { 0, 0 }, { 1, -1 } }));
        QCOMPARE(finding.extraRuns.size(), size_t(1));
        QCOMPARE(finding.extraRuns.front().explanation,
            std::string("NVIDIA's GEMM kernel (cutlass::Kernel2) carries the relu that AMD runs as a separate "
                        "Activation kernel (at::native::vectorized_elementwise_kernel)"));
        QCOMPARE(finding.summary,
            std::string("aten::linear: AMD runs 2 kernels (GEMM, Activation) where NVIDIA runs 1 (GEMM), in 6 calls; "
                        "AMD takes 6.0 us and NVIDIA 3.0 us per call (median)"));
        QCOMPARE(report.extraKernels.size(), size_t(1));
        QCOMPARE(report.extraKernels.front().kernels[0], uint64_t(6));
        QCOMPARE(report.extraKernels.front().timeUs[0], 18.0);
        // The operation summary has every operation, the differing one first.
        QCOMPARE(report.opSummary.front().op, std::string("aten::linear"));
        QCOMPARE(report.opSummary.front().differing, uint64_t(6));
        QCOMPARE(report.opSummary.size(), size_t(3));
    }

    // One sentence for operations and graphs alike: counts with thousands separators, the noun
    // the caller gives, and for whole graphs whose kernels mostly do not line up, a warning.
    void findingSummaries()
    {
        const std::vector<std::string> types { "GEMM", "Activation" };
        const std::vector<std::string> tags;
        const NamingContext naming { types, tags, { "AMD", "NVIDIA" } };
        OpFinding finding;
        finding.op = "aten::linear";
        finding.fusedSide = Side::Trace2;
        finding.kernels[0] = { { kGemm, 0, 0, 4 }, { kRelu, 1, 0, 2 } };
        finding.kernels[1] = { { kGemmRelu, 0, 0, 3 } };
        finding.occurrences = 12345;
        finding.timeUs[0].median = 6;
        finding.timeUs[1].median = 3;
        finding.typeAgreement = 0.25;
        QCOMPARE(findingSummary(finding, naming, kCallNoun, false),
            std::string("aten::linear: AMD runs 2 kernels (GEMM, Activation) where NVIDIA runs 1 (GEMM), in 12,345 "
                        "calls; AMD takes 6.0 us and NVIDIA 3.0 us per call (median)"));
        finding.occurrences = 1;
        QCOMPARE(findingSummary(finding, naming, kLaunchNoun, true),
            std::string("aten::linear: AMD runs 2 kernels (GEMM, Activation) where NVIDIA runs 1 (GEMM), in 1 launch; "
                        "AMD takes 6.0 us and NVIDIA 3.0 us per launch (median); only 25% of the kernels line up "
                        "by type: these graphs may not run the same model"));
        finding.typeAgreement = 0.5;
        QCOMPARE(findingSummary(finding, naming, kLaunchNoun, true).find("line up"), std::string::npos);
    }

    void moduleLevel()
    {
        TraceWriter a, b;
        a.amd();
        b.nvidia();
        for (int i = 0; i < 3; ++i) {
            layer(a, false, i);
            layer(b, true, i);
        }
        const FusionReport report = compareWritten(a, b, { .opLevel = OpLevel::Module });
        QCOMPARE(report.opFindings.size(), size_t(1));
        QCOMPARE(report.opFindings.front().op, std::string("nn.Module: Linear"));
        QCOMPARE(report.opFindings.front().occurrences, uint64_t(3));
    }

    void anExtraOperationDoesNotShiftTheRest()
    {
        TraceWriter a, b;
        a.amd();
        b.nvidia();
        for (int i = 0; i < 5; ++i) {
            layer(a, false, i);
            if (i == 2)
                b.launch("aten::contiguous", { kCopy }, { "Model_0" });
            layer(b, true, i);
        }
        const FusionReport report = compareWritten(a, b, kByOperator);
        QCOMPARE(report.opAlignment.matched, uint64_t(15));
        QCOMPARE(report.opAlignment.occurrences[1], uint64_t(16));
        QCOMPARE(report.opFindings.size(), size_t(1));
        QCOMPARE(report.opFindings.front().occurrences, uint64_t(5));
    }

    void differentModelsAreSaidToBeDifferent()
    {
        TraceWriter a, b;
        a.amd();
        b.nvidia();
        for (int i = 0; i < 10; ++i) {
            a.launch("aten::conv2d", { kGemm, kCopy });
            b.launch("aten::embedding", { kCopy, kCopy, kCopy });
            b.launch("aten::softmax", { kAdd });
        }
        const FusionReport report = compareWritten(a, b, kByOperator);
        QVERIFY(!report.opAlignment.comparable);
        QCOMPARE(report.opAlignment.matched, uint64_t(0));
        QVERIFY(report.opAlignment.verdict.find("do not appear to run the same model") != std::string::npos);
        QVERIFY(report.opFindings.empty());
        // The headline says so first, before any "A is slower by", and the seed's sections are marked.
        QVERIFY(report.opAlignment.differentWork);
        QVERIFY(report.timeGap.differentWork);
        QVERIFY2(report.timeGap.verdict.starts_with("Not the same work: only 0% of the operations line up"),
            report.timeGap.verdict.c_str());
        QVERIFY(reportToJson(report).find("\"same_work\": false") != std::string::npos);
        QVERIFY(reportSummary(report).find("Reference analysis (the seed's; not meaningful for this pair")
            != std::string::npos);
        QVERIFY(reportToMarkdown(report).find("is not meaningful for this pair") != std::string::npos);
    }

    void tooFewOperationsToTellAreNotCalledDifferentWork()
    {
        // Where nearly all the work is in graph launches, a handful of operations launch kernels:
        // their shares say nothing about the workload.
        TraceWriter a, b;
        a.amd();
        b.nvidia();
        a.launch("aten::conv2d", { kGemm, kCopy });
        b.launch("aten::embedding", { kCopy });
        b.launch("aten::softmax", { kAdd });
        const FusionReport report = compareWritten(a, b, kByOperator);
        const std::string& verdict = report.opAlignment.verdict;
        QVERIFY2(verdict.starts_with("Only 1 and 2 operations launch kernels (AMD, NVIDIA): too few to tell"),
            verdict.c_str());
        QVERIFY(verdict.find("do not appear to run the same model") == std::string::npos);
        QCOMPARE(report.opAlignment.comparable, report.opAlignment.matched > 0);
        QVERIFY(!report.opAlignment.differentWork);
        QVERIFY(!report.timeGap.verdict.starts_with("Not the same work"));
    }

    void warmupStepIsLeftOutAndPhasesAreSeparated()
    {
        TraceWriter a, b;
        a.amd();
        b.nvidia();
        // Step 1 (warm-up) differs; steps 2-3 are decode steps; step 4 a prefill with other operations.
        for (TraceWriter* writer : { &a, &b }) {
            const bool isA = writer == &a;
            writer->beginStep("ProfilerStep#1");
            writer->launch("aten::linear", isA ? std::vector { kGemm, kCopy, kCopy } : std::vector { kGemm });
            writer->endStep();
            for (int step = 2; step <= 3; ++step) {
                writer->beginStep("ProfilerStep#" + std::to_string(step));
                writer->launch("aten::linear", { kGemm });
                writer->launch("aten::add", { kAdd });
                writer->endStep();
            }
            writer->beginStep("ProfilerStep#4");
            writer->launch("aten::layer_norm", { kNorm });
            writer->launch("aten::linear", isA ? std::vector { kGemm, kRelu } : std::vector { kGemmRelu });
            writer->endStep();
        }
        const FusionReport report = compareWritten(a, b, kByOperator);
        const Iterations& iterations = report.iterations[0];
        QCOMPARE(iterations.method, std::string("ProfilerStep annotations"));
        QCOMPARE(iterations.count, uint64_t(4));
        QCOMPARE(iterations.compared, uint64_t(3));
        QVERIFY(iterations.warmupSkipped);
        QCOMPARE(iterations.phases.size(), size_t(2));
        QCOMPARE(iterations.phases[0], std::string("phase 1: 2 steps, 4 operations"));
        // Only the prefill's linear differs; the warm-up's extra copies are not a finding.
        QCOMPARE(report.opFindings.size(), size_t(1));
        QCOMPARE(report.opFindings.front().kernels[0].size(), size_t(2));
        QCOMPARE(report.opFindings.front().occurrences, uint64_t(1));
    }

    void spreadsAreMedianAndQuartiles()
    {
        const Spread spread = spreadOf({ 4, 1, 3, 2, 100 });
        QCOMPARE(spread.count, uint64_t(5));
        QCOMPARE(spread.total, 110.0);
        QCOMPARE(spread.median, 3.0);
        QCOMPARE(spread.q1, 2.0);
        QCOMPARE(spread.q3, 4.0);
        QCOMPARE(spreadOf({ 1, 2 }).median, 1.5);
        QCOMPARE(spreadOf({}).count, uint64_t(0));

        TraceWriter a, b;
        a.amd();
        b.nvidia();
        for (int i = 0; i < 4; ++i) {
            layer(a, false, i, 2 + i); // per-call time of A's linear: 4, 6, 8, 10 us
            layer(b, true, i, 3);
        }
        const FusionReport report = compareWritten(a, b, kByOperator);
        const OpFinding& finding = report.opFindings.front();
        QCOMPARE(finding.timeUs[0].median, 7.0);
        QCOMPARE(finding.timeUs[0].q1, 5.5);
        QCOMPARE(finding.timeUs[0].q3, 8.5);
        QCOMPARE(finding.savingUs, 1.0 + 3.0 + 5.0 + 7.0);
    }

    void aFindingsSavingIsItsOwnDifferenceFromTheSlowerSide()
    {
        // B fuses the relu into its GEMM but its GEMM takes 10 us against A's 3 + 3: B is the slower side
        // of the finding, by 4 us a call; its part of the extra kernels works the other way.
        TraceWriter a, b;
        a.amd();
        b.nvidia();
        for (int i = 0; i < 6; ++i) {
            layer(a, false, i, 3);
            layer(b, true, i, 10);
        }
        const FusionReport report = compareWritten(a, b, kByOperator);
        const auto linear = std::find_if(report.opFindings.begin(), report.opFindings.end(),
            [](const OpFinding& f) { return f.op == "aten::linear"; });
        QVERIFY(linear != report.opFindings.end());
        QCOMPARE(linear->fusedSide, Side::Trace2);
        QCOMPARE(linear->slowerSide, Side::Trace2);
        QCOMPARE(linear->savingUs, 6 * (10.0 - 6.0));
        QCOMPARE(linear->savingExtraKernelsUs, -6 * 3.0);
        QCOMPARE(linear->savingSpeedUs, 6 * (10.0 - 3.0));
        QCOMPARE(linear->savingExtraKernelsUs + linear->savingSpeedUs, linear->savingUs);
        const auto entry = std::find_if(report.whereToLookFirst.begin(), report.whereToLookFirst.end(),
            [](const LookFirstEntry& e) { return e.kind == LookFirstKind::Fusion; });
        QVERIFY(entry != report.whereToLookFirst.end());
        QCOMPARE(entry->savingUs, entry->stakeUs);
        QCOMPARE(entry->slowerSide, Side::Trace2);
        QVERIFY(!entry->againstGap); // B is slower overall too
        const std::string& cost = entry->details.back();
        QVERIFY2(cost.starts_with("NVIDIA takes 24.0 us longer in all: the kernels AMD runs in addition cost AMD "
                                  "18.0 us (this part works the other way); the kernels both run take 42.0 us longer "
                                  "on NVIDIA"),
            cost.c_str());
    }

    void anEntryThatWorksAgainstTheGapSaysSo()
    {
        // A is slower overall (its layer norm takes 50 us), but B's fused linear takes 10 us against A's
        // 3 + 3: that finding works the other way.
        TraceWriter a, b;
        a.amd();
        b.nvidia();
        for (int i = 0; i < 6; ++i) {
            const std::string suffix = "_" + std::to_string(i);
            a.launch("aten::layer_norm", { kNorm }, { "Model_0", "Layer" + suffix, "LayerNorm" + suffix }, 50);
            a.launch("aten::linear", { kGemm, kRelu }, { "Model_0", "Layer" + suffix, "Linear" + suffix }, 3);
            b.launch("aten::layer_norm", { kNorm }, { "Model_0", "Layer" + suffix, "LayerNorm" + suffix }, 3);
            b.launch("aten::linear", { kGemmRelu }, { "Model_0", "Layer" + suffix, "Linear" + suffix }, 10);
        }
        const FusionReport report = compareWritten(a, b, kByOperator);
        QCOMPARE(report.timeGap.kernelTime.slowerSide(), Side::Trace1);
        const auto fusion = std::find_if(report.whereToLookFirst.begin(), report.whereToLookFirst.end(),
            [](const LookFirstEntry& e) { return e.kind == LookFirstKind::Fusion; });
        QVERIFY(fusion != report.whereToLookFirst.end());
        QVERIFY(fusion->againstGap);
        QCOMPARE(fusion->details.front(),
            std::string("works the other way: NVIDIA is slower here by 24.0 us, while AMD is slower overall"));
        const auto speed = std::find_if(report.whereToLookFirst.begin(), report.whereToLookFirst.end(),
            [](const LookFirstEntry& e) { return e.kind == LookFirstKind::Speed; });
        QVERIFY(speed != report.whereToLookFirst.end());
        QVERIFY(!speed->againstGap);
        QVERIFY(reportToJson(report).find("\"against_gap\": true") != std::string::npos);
    }

    void collectivesAcrossImplementations()
    {
        QCOMPARE(collectiveOf("ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevComm*, unsigned long, ncclWork*)",
                     Platform::NVIDIA)
                     .collective,
            std::string("AllReduce"));
        QCOMPARE(
            collectiveOf("ncclKernel_AllGather_RING_LL_Sum_int8_t", Platform::AMD).implementation, std::string("RCCL"));
        QCOMPARE(collectiveOf("void vllm::cross_device_reduce_1stage<__hip_bfloat16, 8>", Platform::AMD).collective,
            std::string("AllReduce"));
        QCOMPARE(collectiveOf("ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t", Platform::NVIDIA).collective,
            std::string("SendRecv"));
        QVERIFY(collectiveOf(kGemm, Platform::NVIDIA).collective.empty());

        TraceWriter a, b;
        a.amd().kernels("void vllm::cross_device_reduce_1stage<__hip_bfloat16, 8>", 4);
        b.nvidia().kernels("ncclDevKernel_AllReduce_Sum_bf16_RING_LL", 4).kernels("ncclDevKernel_AllGather_RING_LL", 2);
        const FusionReport report = compareWritten(a, b, kByOperator);
        QCOMPARE(report.collectives.size(), size_t(2));
        QCOMPARE(report.collectives[0].collective, std::string("AllReduce"));
        QCOMPARE(report.collectives[0].count[0], uint64_t(4));
        QCOMPARE(report.collectives[0].implementation[0], std::string("custom all-reduce (vLLM cross_device_reduce)"));
        QCOMPARE(report.collectives[0].implementation[1], std::string("NCCL"));
        QCOMPARE(report.collectives[1].collective, std::string("AllGather"));
        QCOMPARE(report.collectives[1].count[0], uint64_t(0));
    }

    void matchedKernelsNameWhichKernelDoesTheWorkOfWhich()
    {
        TraceWriter a, b;
        a.amd();
        b.nvidia();
        for (int i = 0; i < 4; ++i) {
            const std::string suffix = "_" + std::to_string(i);
            const std::vector<std::string> modules { "Model_0", "Layer" + suffix };
            a.launch("aten::layer_norm", { kNorm }, modules, 2);
            b.launch("aten::layer_norm", { kNorm }, modules, 3);
            a.launch("aten::linear", { kGemm, kRelu }, modules, 10); // the GEMM and the ReLU: 10 us each
            b.launch("aten::linear", { kGemmRelu }, modules, 4);
        }
        const FusionReport report = compareWritten(a, b, kByOperator);
        // A's GEMM is paired with B's GEMM with the ReLU folded in (the alignment of the finding),
        // the norms by position (as many kernels on each side); A's ReLU has no counterpart.
        QCOMPARE(report.matchedKernels.size(), size_t(2));
        const MatchedKernels& gemm = report.matchedKernels[0];
        QCOMPARE(gemm.names, (std::array<std::string, 2> { kGemm, kGemmRelu }));
        QCOMPARE(report.typeName(gemm.types[0]), std::string("GEMM"));
        QCOMPARE(report.typeName(gemm.types[1]), std::string("GEMM"));
        QCOMPARE(gemm.pairs, uint64_t(4));
        QCOMPARE(gemm.timeUs[0], 40.0);
        QCOMPARE(gemm.timeUs[1], 16.0);
        QCOMPARE(gemm.differenceUs(), -24.0);
        // Ranked by the time at stake: the GEMMs' 24 us before the norms' 4 us.
        const MatchedKernels& norm = report.matchedKernels[1];
        QCOMPARE(norm.names, (std::array<std::string, 2> { kNorm, kNorm }));
        QCOMPARE(norm.pairs, uint64_t(4));
        QCOMPARE(norm.differenceUs(), 4.0);
        // The same rows in the CSV (and the JSON, from the same column list).
        for (const CsvTable& table : reportToCsv(report)) {
            if (table.name == "matched_kernels") {
                QVERIFY2(table.text.starts_with("trace1_kernel,trace2_kernel,type,pairs,trace1_time_us,trace1_mean_us,"
                                                "trace2_time_us,trace2_mean_us,delta_time_us\r\n"),
                    table.text.c_str());
                QCOMPARE(std::count(table.text.begin(), table.text.end(), '\n'), 3L);
            }
        }
        const std::string json = reportToJson(report);
        QVERIFY(json.find("\"matched_kernels\": [") != std::string::npos);
        QVERIFY(json.find("\"trace1_kernel\": \"" + kGemm + "\"") != std::string::npos);
    }

    void matchedKernelsAreOfOneType()
    {
        // As many kernels on each side, in another order: position pairs a GEMM with an add, which
        // are not counterparts; the list keeps only pairs of one type.
        TraceWriter a, b;
        a.amd();
        b.nvidia();
        for (int i = 0; i < 4; ++i) {
            a.launch("aten::addmm", { kGemm, kAdd }, {}, 5);
            b.launch("aten::addmm", { kAdd, kGemm }, {}, 5);
        }
        const FusionReport report = compareWritten(a, b, kByOperator);
        QVERIFY(report.opAlignment.comparable);
        for (const MatchedKernels& matched : report.matchedKernels)
            QCOMPARE(matched.types[0], matched.types[1]);
        QVERIFY(report.matchedKernels.empty());
    }

    void matchedGraphsAreAlignedKernelByKernel()
    {
        // Two graph launches per side (150 and 120 kernels: within the size tolerance); A runs a
        // separate ReLU after each of 30 GEMMs that B fuses.
        TraceWriter a, b;
        a.amd();
        b.nvidia();
        for (int g = 0; g < 2; ++g) {
            for (int i = 0; i < 30; ++i) {
                a.kernels(kGemm, 1, 100 + g).kernels(kRelu, 1, 100 + g).kernels(kAdd, 3, 100 + g);
                b.kernels(kGemmRelu, 1, 200 + g).kernels(kAdd, 3, 200 + g);
            }
        }
        const FusionReport report = compareWritten(a, b, kByOperator);
        QCOMPARE(report.groupPairs.size(), size_t(2));
        QCOMPARE(report.opFindings.size(), size_t(1));
        const OpFinding& finding = report.opFindings.front();
        QCOMPARE(QString::fromStdString(finding.op),
            QStringLiteral("graph Elementwise/GEMM/Activation (A kind 1, 150 kernels, 2 launches) / Elementwise/GEMM "
                           "(B kind 1, 120 kernels, 2 launches)"));
        QCOMPARE(finding.occurrences, uint64_t(2));
        QCOMPARE(finding.launchDifference, int64_t(30));
        QCOMPARE(finding.extraRuns.size(), size_t(1));
        QCOMPARE(finding.extraRuns.front().repeats, uint32_t(30));
        QVERIFY(finding.extraRuns.front().explanation.find("carries the relu") != std::string::npos);
    }

    void kernelListsTooLongToAlignAreAlignedInChunks()
    {
        // The kernel lists of a finding go through the same bound as the graph findings and the
        // app's drill-down: two graphs of 9,000 kernels (81 million cells) are aligned in three
        // chunks of 3,000, not in one table of 81 MB.
        const std::vector<std::string> typeNames { "GEMM", "Elementwise" };
        const std::vector<std::string> tagNames;
        const NamingContext naming { typeNames, tagNames, { "AMD", "NVIDIA" } };
        std::array<std::vector<FindingKernel>, 2> kernels;
        for (size_t k = 0; k < 9000; ++k) {
            kernels[0].push_back({ "gemm", 0, 0, 1.0 });
            kernels[1].push_back({ "gemm", 0, 0, 1.0 });
        }
        kernels[0].push_back({ "add", 1, 0, 1.0 }); // A runs one more
        const KernelListComparison large = compareKernelLists(kernels, naming);
        QVERIFY(large.inChunks);
        QCOMPARE(large.alignment.size(), kernels[0].size());
        QCOMPARE(large.alignment.back(), (AlignedPair { 9000, -1 }));
        QCOMPARE(large.runs.size(), size_t(1));
        QCOMPARE(large.runs[0].side, Side::Trace1);

        // Small lists are aligned by type: the extra kernel in the middle is found where it is.
        std::array<std::vector<FindingKernel>, 2> small { std::vector<FindingKernel> { { "gemm", 0, 0, 1.0 },
                                                              { "add", 1, 0, 1.0 }, { "gemm", 0, 0, 1.0 } },
            std::vector<FindingKernel> { { "gemm", 0, 0, 1.0 }, { "gemm", 0, 0, 1.0 } } };
        const KernelListComparison aligned = compareKernelLists(small, naming);
        QVERIFY(!aligned.inChunks);
        QCOMPARE(aligned.alignment, (std::vector<AlignedPair> { { 0, 0 }, { 1, -1 }, { 2, 1 } }));
        // With a bound of 4 cells the same lists are aligned in two chunks ([gemm] against [gemm],
        // [add, gemm] against [gemm]), which find the extra kernel where it is too.
        const KernelListComparison bounded = compareKernelLists(small, naming, 4);
        QVERIFY(bounded.inChunks);
        QCOMPARE(bounded.alignment, (std::vector<AlignedPair> { { 0, 0 }, { 1, -1 }, { 2, 1 } }));
    }

    void kernelsArePairedByTheWorkTheyDo()
    {
        const std::vector<std::string> typeNames { "GEMM", "Conv", "Memory", "Elementwise", "Other" };
        const std::vector<std::string> tagNames;
        const NamingContext naming { typeNames, tagNames, { "AMD", "NVIDIA" } };
        QCOMPARE(kernelWork("Conv", "Im2d2Col_v2"), KernelWork::Layout); // typed Conv by name, moves data
        QCOMPARE(kernelWork("Conv", "cutlass_tensorop_bf16_s16816fprop"), KernelWork::Matrix);
        QCOMPARE(kernelWork("Memory", "nchwToNhwcKernel"), KernelWork::Layout);
        QCOMPARE(kernelWork("Other", "my_kernel"), KernelWork::Any);
        // owlv2's conv2d: AMD runs im2col and a GEMM, NVIDIA two layout transforms, its convolution and one
        // more transform. By type alone, AMD's Im2Col (typed Conv) pairs with NVIDIA's convolution and
        // its GEMM with a layout transform; by work, the GEMM does the convolution's arithmetic.
        const std::array<std::vector<FindingKernel>, 2> conv { std::vector<FindingKernel> {
                                                                   { "Im2d2Col_v2", 1, 0, 44.6 },
                                                                   { "Cijk_Ailk_Bljk_BBS_BH_MT64x64x64", 0, 0, 60.5 } },
            std::vector<FindingKernel> { { "nchwToNhwcKernel", 2, 0, 44.4 }, { "nchwToNhwcKernel", 2, 0, 11.7 },
                { "cutlass__5x_cudnn::Kernel<cutlass_tensorop_bf16_s16816fprop>", 1, 0, 196.5 },
                { "nhwcToNchwKernel", 2, 0, 9.7 } } };
        const KernelListComparison byWork = compareKernelLists(conv, naming);
        const auto partnerOf = [&](int64_t first) {
            for (const AlignedPair& pair : byWork.alignment) {
                if (pair.first == first)
                    return pair.second;
            }
            return int64_t(-2);
        };
        QCOMPARE(partnerOf(1), int64_t(2)); // the GEMM with the convolution
        QVERIFY(partnerOf(0) == 0 || partnerOf(0) == 1); // im2col with a layout transform
        QCOMPARE(byWork.runs.size(), size_t(2));
        // Kernels of one kind of work but different types still pair (a Conv for a GEMM), and the
        // fallback type pairs with anything, as before.
        const std::array<std::vector<FindingKernel>, 2> sameWork {
            std::vector<FindingKernel> { { "implicit_gemm_conv", 1, 0, 1.0 }, { "add", 3, 0, 1.0 } },
            std::vector<FindingKernel> { { "gemm", 0, 0, 1.0 }, { "mystery", 4, 0, 1.0 } }
        };
        QCOMPARE(compareKernelLists(sameWork, naming).alignment, (std::vector<AlignedPair> { { 0, 0 }, { 1, 1 } }));
    }

    void aSideThatRunsNothingIsSaidToRunNone()
    {
        const std::vector<std::string> typeNames { "GEMM" };
        const std::vector<std::string> tagNames;
        const NamingContext naming { typeNames, tagNames, { "AMD", "NVIDIA" } };
        OpFinding finding;
        finding.op = "aten::mm";
        finding.fusedSide = Side::Trace2;
        finding.occurrences = 1;
        finding.kernels[0] = { { "gemm", 0, 0, 1.0 } };
        const std::string summary = findingSummary(finding, naming, kCallNoun, false);
        QVERIFY2(summary.starts_with("aten::mm: AMD runs 1 kernel (GEMM) where NVIDIA runs none, in 1 call;"),
            summary.c_str());
    }

    void fusionTagsFromKernelNames()
    {
        const Classifier classifier = Classifier::builtin("default");
        auto tags = [&](const std::string& name) {
            std::vector<std::string> result;
            const uint64_t bits = classifier.classifyWithTags(name).second;
            for (size_t t = 0; t < classifier.tags().size(); ++t) {
                if (bits >> t & 1)
                    result.push_back(classifier.tags()[t]);
            }
            return result;
        };
        QCOMPARE(tags(kGemmRelu), (std::vector<std::string> { "relu" }));
        QCOMPARE(
            tags("triton_red_fused_add_mean_mul_pow_rsqrt_0"), (std::vector<std::string> { "add", "mul", "norm" }));
        QCOMPARE(tags("void vllm::fused_add_rms_norm_kernel<c10::BFloat16, 8>"),
            (std::vector<std::string> { "add", "norm" }));
        QCOMPARE(tags("void vllm::act_and_mul_kernel<c10::BFloat16, &vllm::silu_kernel>"),
            (std::vector<std::string> { "silu", "gated", "mul" }));
        QCOMPARE(tags("nvjet_tst_64x64_64x16_2x1_2cta_v_bz_bias_TNT"), (std::vector<std::string> { "bias" }));
        QCOMPARE(classifier.categoryName(classifier.classifyWithTags(kGemmRelu).first), std::string("GEMM"));
    }
};

QTEST_GUILESS_MAIN(TestOpComparison)
#include "tst_opcomparison.moc"
