// The time gap between two traces split into parts that add up, and "where to look first" ranked
// by the time at stake, on constructed pairs whose causes are known: a uniformly slower GPU, an
// injected fusion difference, an injected collective slowdown, and all of them at once.

#include "classify/classifier.h"
#include "comparedpair.h"
#include "fusionanalysis.h"
#include "load/traceloader.h"
#include "ops/comparison/collectives.h"
#include "report/reportnotes.h"
#include "report/reportwriters.h"
#include "testdata.h"

#include <QTemporaryDir>
#include <QTest>

#include <simdjson.h>

#include <cmath>

using namespace fusiondiff;
using namespace fusiondiff::test;

namespace {

const std::string kRcclGeneric = "ncclDevKernel_Generic_1(ncclDevKernelArgsStorage<4096ul>)";
const std::string kCustomAllReduce = "void vllm::cross_device_reduce_1stage<__nv_bfloat16, 8>";

struct Layer
{
    double normUs = 3;
    double linearUs = 3;
    bool separateRelu = false; // the ReLU as a kernel of its own after the GEMM (else fused into it)
    double allReduceUs = 0; // 0: no all-reduce
    bool rccl = false; // the all-reduce on RCCL's generic kernel, else vLLM's custom all-reduce
};

void layers(TraceWriter& writer, int count, const Layer& layer)
{
    for (int i = 0; i < count; ++i) {
        const std::vector<std::string> modules { "Model_0", "Layer_" + std::to_string(i) };
        writer.launch("aten::layer_norm", { kNorm }, modules, layer.normUs);
        writer.launch("aten::linear", layer.separateRelu ? std::vector { kGemm, kRelu } : std::vector { kGemmRelu },
            modules, layer.linearUs);
        writer.launch("aten::add", { kAdd }, modules, 2);
        if (layer.allReduceUs > 0)
            writer.launch(
                "vllm::all_reduce", { layer.rccl ? kRcclGeneric : kCustomAllReduce }, modules, layer.allReduceUs);
    }
}

const TimeGapPart* partOf(const TimeGapBreakdown& breakdown, GapCause cause)
{
    for (const TimeGapPart& part : breakdown.parts) {
        if (part.cause == cause)
            return &part;
    }
    return nullptr;
}

// The part of that cause, or an empty one (which the tests' comparisons then fail on).
const TimeGapPart& part(const TimeGapBreakdown& breakdown, GapCause cause)
{
    static const TimeGapPart none;
    const TimeGapPart* found = partOf(breakdown, cause);
    return found ? *found : none;
}

double partDelta(const TimeGapBreakdown& breakdown, GapCause cause)
{
    return part(breakdown, cause).deltaUs;
}

// The accounting identity: the parts add up to the gap, and the gap is the traces' difference.
void verifyAddsUp(const FusionReport& report, const TimeGapBreakdown& breakdown)
{
    double sum = 0;
    for (const TimeGapPart& part : breakdown.parts)
        sum += part.deltaUs;
    QVERIFY2(std::fabs(sum - breakdown.deltaUs) < 1e-6,
        (std::to_string(sum) + " vs " + std::to_string(breakdown.deltaUs)).c_str());
    QCOMPARE(breakdown.deltaUs, breakdown.timeUs[0] - breakdown.timeUs[1]);
    QVERIFY(std::fabs(partDelta(breakdown, GapCause::Residual)) < 1e-6);
    QCOMPARE(breakdown.parts.back().cause, GapCause::Residual);
    if (breakdown.basis == TimeBasis::GpuKernelTime) {
        QCOMPARE(breakdown.timeUs[0], report.traces[0].kernelTimeUs);
        QCOMPARE(breakdown.timeUs[1], report.traces[1].kernelTimeUs);
        uint64_t kernels = 0;
        for (const TimeGapPart& part : breakdown.parts)
            kernels += part.kernels[0] + part.kernels[1];
        QCOMPARE(kernels, report.traces[0].kernels + report.traces[1].kernels); // each kernel in one part
    }
}

} // namespace

class TestTimeGap : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void uniformlySlowerGpuIsAllSpeed()
    {
        TraceWriter a, b;
        a.amd();
        b.nvidia();
        layers(a, 8, { 6, 10, false, 0, false }); // every kernel twice as long
        layers(b, 8, { 3, 5, false, 0, false });
        const FusionReport report = compareWritten(a, b);
        const TimeGapBreakdown& gap = report.timeGap.kernelTime;
        verifyAddsUp(report, gap);
        QCOMPARE(gap.deltaUs, 8 * (3.0 + 5.0));
        QCOMPARE(partDelta(gap, GapCause::Speed), gap.deltaUs);
        QCOMPARE(gap.parts.size(), size_t(2)); // speed and the residual
        QCOMPARE(gap.parts[0].label, std::string("speed"));
        QCOMPARE(gap.slowerSide(), Side::Trace1);
        QVERIFY(report.timeGap.verdict.starts_with("A (AMD) is slower than B (NVIDIA) by 64.0 us"));
        QVERIFY(report.timeGap.verdict.find("On the work both traces ran") == std::string::npos); // all compared
        QVERIFY(report.timeGap.wallTime.has_value());
        verifyAddsUp(report, *report.timeGap.wallTime);

        // Ranked by the time at stake: aten::linear (8 x 5 us) before aten::layer_norm (8 x 3 us);
        // aten::add runs equally fast and is not listed.
        const auto& first = report.whereToLookFirst;
        QCOMPARE(first.size(), size_t(2));
        QCOMPARE(first[0].kind, LookFirstKind::Speed);
        QCOMPARE(first[0].op, std::string("aten::linear"));
        QCOMPARE(first[0].stakeUs, 40.0);
        QCOMPARE(first[0].savingSpeedUs, 40.0);
        QCOMPARE(first[0].savingExtraKernelsUs, 0.0);
        QCOMPARE(first[1].op, std::string("aten::layer_norm"));
        QCOMPARE(first[1].stakeUs, 24.0);
        QCOMPARE(first[0].kernels.front(), kGemmRelu);
    }

    void injectedFusionIsTheExtraKernels()
    {
        TraceWriter a, b;
        a.amd();
        b.nvidia();
        layers(a, 10, { 3, 4, true, 0, false }); // GEMM 4 us + ReLU 4 us
        layers(b, 10, { 3, 4, false, 0, false }); // GEMM with the ReLU fused: 4 us
        const FusionReport report = compareWritten(a, b);
        const TimeGapBreakdown& gap = report.timeGap.kernelTime;
        verifyAddsUp(report, gap);
        QCOMPARE(gap.deltaUs, 40.0);
        QCOMPARE(partDelta(gap, GapCause::Fusion), 40.0);
        QCOMPARE(partDelta(gap, GapCause::Speed), 0.0);
        const TimeGapPart& fusion = part(gap, GapCause::Fusion);
        QVERIFY(!fusion.top.empty());
        QCOMPARE(fusion.kernels[0], uint64_t(10));
        QCOMPARE(fusion.kernels[1], uint64_t(0));
        QCOMPARE(fusion.top.front().name, std::string("aten::linear"));

        QCOMPARE(report.opFindings.size(), size_t(1));
        QCOMPARE(report.opFindings[0].savingExtraKernelsUs, 40.0);
        QCOMPARE(report.opFindings[0].savingSpeedUs, 0.0);
        const LookFirstEntry& first = report.whereToLookFirst.front();
        QCOMPARE(first.kind, LookFirstKind::Fusion);
        QCOMPARE(first.stakeUs, 40.0);
        QCOMPARE(first.savingExtraKernelsUs, 40.0);
        QCOMPARE(first.kernels, std::vector<std::string> { kRelu });
        QCOMPARE(report.typeName(first.types.front()), std::string("Activation"));
    }

    void injectedCollectiveSlowdownIsNamedByItsOperation()
    {
        TraceWriter a, b;
        a.amd();
        b.nvidia();
        layers(a, 6, { 3, 4, false, 50, true }); // RCCL's generic kernel under vllm::all_reduce
        layers(b, 6, { 3, 4, false, 10, false }); // vLLM's custom all-reduce
        const FusionReport report = compareWritten(a, b);
        const TimeGapBreakdown& gap = report.timeGap.kernelTime;
        verifyAddsUp(report, gap);
        QCOMPARE(gap.deltaUs, 6 * 40.0);
        QCOMPARE(partDelta(gap, GapCause::Collectives), 6 * 40.0);
        QVERIFY(!part(gap, GapCause::Collectives).top.empty());
        QCOMPARE(part(gap, GapCause::Collectives).top.front().name, std::string("AllReduce"));

        // The generic kernel says nothing; the operation says AllReduce.
        QCOMPARE(report.collectives.size(), size_t(1));
        QCOMPARE(report.collectives[0].collective, std::string("AllReduce"));
        QCOMPARE(report.collectiveCalls.size(), size_t(1));
        const CollectiveCallGroup& calls = report.collectiveCalls[0];
        QCOMPARE(calls.calls[0], uint64_t(6));
        QCOMPARE(calls.implementation[0], std::string("RCCL (generic kernel)"));
        QCOMPARE(calls.implementation[1], std::string("custom all-reduce (vLLM cross_device_reduce)"));
        QCOMPARE(calls.operation[0], std::string("vllm::all_reduce"));
        QCOMPARE(calls.timeUs[0], 300.0);
        QCOMPARE(calls.timeUs[1], 60.0);

        const LookFirstEntry& first = report.whereToLookFirst.front();
        QCOMPARE(first.kind, LookFirstKind::Collective);
        QCOMPARE(first.stakeUs, 240.0);
        QVERIFY(first.title.starts_with("AllReduce: AMD 6 calls in 300 us (RCCL (generic kernel))"));
    }

    void allCausesAtOnceRankByTheTimeAtStake()
    {
        // Collective slowdown 12 x 20 us = 240 us, fusion 12 x 5 us = 60 us, slower norm 12 x 2 us = 24 us,
        // and a few kernels launched before the profiler's CPU window.
        TraceWriter a, b;
        a.amd();
        b.nvidia();
        layers(a, 12, { 5, 5, true, 30, true });
        layers(b, 12, { 3, 5, false, 10, false });
        a.kernels(kAdd, 3);
        b.kernels(kAdd, 1);
        const FusionReport report = compareWritten(a, b);
        const TimeGapBreakdown& gap = report.timeGap.kernelTime;
        verifyAddsUp(report, gap);
        QCOMPARE(partDelta(gap, GapCause::Collectives), 240.0);
        QCOMPARE(partDelta(gap, GapCause::Fusion), 60.0);
        QCOMPARE(partDelta(gap, GapCause::Speed), 24.0);
        QCOMPARE(partDelta(gap, GapCause::Unattributed), 4.0); // 2 kernels of 2 us more
        QCOMPARE(gap.parts[0].cause, GapCause::Collectives); // parts by |delta|
        QCOMPARE(gap.parts[1].cause, GapCause::Fusion);
        QCOMPARE(gap.parts[2].cause, GapCause::Speed);

        const auto& first = report.whereToLookFirst;
        QVERIFY(first.size() >= 3);
        QCOMPARE(first[0].kind, LookFirstKind::Collective);
        QCOMPARE(first[1].kind, LookFirstKind::Fusion);
        QCOMPARE(first[2].kind, LookFirstKind::Speed);
        QCOMPARE(first[2].op, std::string("aten::layer_norm"));
        for (size_t i = 1; i < first.size(); ++i)
            QVERIFY(first[i - 1].stakeUs >= first[i].stakeUs);

        // The writers carry the same numbers.
        const std::string json = reportToJson(report);
        QVERIFY(json.find("\"time_gap\"") != std::string::npos);
        QVERIFY(json.find("\"where_to_look_first\"") != std::string::npos);
        QVERIFY(json.find("\"cause\": \"collectives\"") != std::string::npos);
        const std::string summary = reportSummary(report);
        QVERIFY(summary.find(report.timeGap.verdict) < summary.find("Where to look first:"));
        QVERIFY(summary.find("+240 us   collectives") != std::string::npos);
    }

    void jsonAndCsvCarryTheBreakdownAndTheRanking()
    {
        TraceWriter a, b;
        a.amd();
        b.nvidia();
        layers(a, 5, { 5, 5, true, 30, true });
        layers(b, 5, { 3, 5, false, 10, false });
        const FusionReport report = compareWritten(a, b);

        simdjson::dom::parser parser;
        simdjson::dom::element root;
        const std::string text = reportToJson(report);
        QVERIFY(!parser.parse(text).get(root));
        const simdjson::dom::element gap = root["time_gap"];
        QCOMPARE(std::string(gap["basis"].get_string().value()), std::string("gpu_kernel_time"));
        double sum = 0;
        for (const simdjson::dom::element part : gap["parts"].get_array())
            sum += part["delta_us"].get_double().value();
        QVERIFY(std::fabs(sum - gap["delta_us"].get_double().value()) < 1e-9);
        QCOMPARE(gap["delta_us"].get_double().value(), 5 * (20.0 + 5.0 + 2.0));
        QCOMPARE(std::string(gap["wall_time"]["basis"].get_string().value()), std::string("gpu_wall_time"));
        const simdjson::dom::element first = root["where_to_look_first"].at(0);
        QCOMPARE(std::string(first["kind"].get_string().value()), std::string("collective"));
        QCOMPARE(first["stake_us"].get_double().value(), 100.0);
        const simdjson::dom::element finding = root["op_findings"].at(0);
        QCOMPARE(finding["saving_extra_kernels_us"].get_double().value(), 25.0);
        QCOMPARE(finding["saving_speed_us"].get_double().value(), 0.0);
        QCOMPARE(std::string(root["collective_calls"].at(0)["trace1_operation"].get_string().value()),
            std::string("vllm::all_reduce"));
        QVERIFY(root["collective_calls"].at(0)["trace1_message_bytes"].is_null());

        // CSV: per basis, delta_us sums to total_delta_us.
        for (const CsvTable& table : reportToCsv(report)) {
            if (table.name != "time_gap")
                continue;
            QVERIFY(table.text.starts_with(
                "basis,trace1_total_us,trace2_total_us,total_delta_us,noise,noise_us,cause,label,title,"));
            QVERIFY(table.text.find("gpu_kernel_time,") != std::string::npos);
            QVERIFY(table.text.find(",residual,") != std::string::npos);
        }
        const std::string markdown = reportToMarkdown(report);
        QVERIFY(markdown.find("## The time gap") < markdown.find("## Where to look first"));
    }

    void anOperationWithAFindingStillShowsTheSpeedOfItsOtherCalls()
    {
        // aten::linear: in 4 calls A runs a separate ReLU (the finding); in 4 others the same kernel
        // as B, twice as long (the speed entry, 4 x 4 us). Neither counts the other's calls.
        TraceWriter a, b;
        a.amd();
        b.nvidia();
        layers(a, 4, { 3, 4, true, 0, false });
        layers(a, 4, { 3, 8, false, 0, false });
        layers(b, 8, { 3, 4, false, 0, false });
        const FusionReport report = compareWritten(a, b);
        verifyAddsUp(report, report.timeGap.kernelTime);
        QCOMPARE(partDelta(report.timeGap.kernelTime, GapCause::Fusion), 16.0);
        QCOMPARE(partDelta(report.timeGap.kernelTime, GapCause::Speed), 16.0);
        const auto& first = report.whereToLookFirst;
        QCOMPARE(first.size(), size_t(2));
        for (const LookFirstEntry& entry : first) {
            QCOMPARE(entry.op, std::string("aten::linear"));
            QCOMPARE(entry.stakeUs, 16.0);
            QCOMPARE(entry.calls, uint64_t(4));
        }
        QVERIFY(first[0].kind != first[1].kind);
    }

    void operationsOnOneSideOnly()
    {
        TraceWriter a, b;
        a.amd();
        b.nvidia();
        layers(a, 4, {});
        layers(b, 4, {});
        a.launch("aten::copy_", { kAdd }, { "Model_0" }, 25);
        const FusionReport report = compareWritten(a, b);
        const TimeGapBreakdown& gap = report.timeGap.kernelTime;
        verifyAddsUp(report, gap);
        QCOMPARE(partDelta(gap, GapCause::OneSide), 25.0);
        QCOMPARE(report.whereToLookFirst.front().kind, LookFirstKind::OneSide);
        QCOMPARE(report.whereToLookFirst.front().op, std::string("aten::copy_"));
        QCOMPARE(report.whereToLookFirst.front().savingExtraKernelsUs, 25.0);
    }

    void aGapMostlyFromUnpairedWorkSaysHowTheComparedWorkCompares()
    {
        // B is slower on every operation both run (2 x 32 us), but A also runs 100 us of work B has
        // not: the headline gap is A's, the work both ran is B's.
        TraceWriter a, b;
        a.amd();
        b.nvidia();
        layers(a, 4, { 3, 5, false, 0, false });
        layers(b, 4, { 6, 10, false, 0, false });
        a.launch("aten::copy_", { kAdd }, { "Model_0" }, 100);
        const FusionReport report = compareWritten(a, b);
        const TimeGapBreakdown& gap = report.timeGap.kernelTime;
        verifyAddsUp(report, gap);
        QCOMPARE(gap.deltaUs, 100.0 - 32.0);
        const std::string& verdict = report.timeGap.verdict;
        QVERIFY2(verdict.starts_with("A (AMD) is slower than B (NVIDIA) by 68.0 us"), verdict.c_str());
        QVERIFY2(verdict.find("On the work both traces ran (40.0 us vs 72.0 us), B is slower by 32.0 us (80.0%); "
                              "the rest of the gap is work the comparison could not pair (+100 us")
                != std::string::npos,
            verdict.c_str());
    }

    void collectivesNamedByAnAnnotationInOlderTraces()
    {
        // Older traces record nccl:all_to_all as a CPU annotation around the launch, and NCCL runs
        // the all-to-all as SendRecv kernels.
        TraceWriter a, b;
        a.nvidia("Tesla V100-SXM2-16GB");
        b.nvidia();
        for (TraceWriter* writer : { &a, &b }) {
            layers(*writer, 2, {});
            writer->beginStep("nccl:all_to_all");
            writer->launch("record_param_comms", { "ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclWorkElem)" }, {},
                writer == &a ? 40 : 25);
            writer->endStep();
        }
        const FusionReport report = compareWritten(a, b);
        QCOMPARE(report.collectives.size(), size_t(1));
        QCOMPARE(report.collectives[0].collective, std::string("AllToAll"));
        QCOMPARE(report.collectiveCalls.size(), size_t(1));
        QCOMPARE(report.collectiveCalls[0].operation[0], std::string("nccl:all_to_all"));
        QCOMPARE(partDelta(report.timeGap.kernelTime, GapCause::Collectives), 15.0);
        verifyAddsUp(report, report.timeGap.kernelTime);
    }

    void expertParallelAllToAllIsCommunication()
    {
        const Classifier classifier = Classifier::builtin("default");
        for (const char* name : { "void deep_ep::intranode::dispatch<8, 768, 8192>(int4*, float*, int*)",
                 "void deep_ep::internode_ll::combine<false, 7168>(void*, void*, int*)",
                 "void mori::moe::EpDispatchIntraNodeKernel<__hip_bfloat16>(mori::moe::EpDispatchCombineArgs)",
                 "void mori::moe::EpCombineIntraNodeKernel<__hip_bfloat16>(mori::moe::EpDispatchCombineArgs)",
                 "void pplx::a2a_dispatch_kernel<128>(...)" }) {
            QCOMPARE(classifier.categories()[classifier.classify(name)], std::string("Communication"));
            QCOMPARE(collectiveOf(name, Platform::AMD).collective, std::string("AllToAll"));
        }
        QCOMPARE(collectiveOf("void deep_ep::intranode::dispatch<8>", Platform::NVIDIA).implementation,
            std::string("DeepEP"));
        QCOMPARE(
            collectiveOf("mori::moe::EpCombineIntraNodeKernel", Platform::AMD).implementation, std::string("MORI"));
        QCOMPARE(collectiveOf("ncclDevKernel_Generic_1(ncclDevKernelArgsStorage<4096ul>)", Platform::AMD).collective,
            std::string("Other")); // the name says nothing: the operation will
        // MoE kernels stay MoE.
        QCOMPARE(classifier.categories()[classifier.classify("fused_moe_kernel")], std::string("MoE"));
    }

    void expertParallelKernelsAreCommunicationInAnyNamespace()
    {
        // Another library's dispatch, combine and notify kernels, on the intranode, internode and
        // low-latency paths: all-to-all by their role, whatever the namespace.
        const Classifier classifier = Classifier::builtin("default");
        for (const char* name : { "void uccl_ep::internode::dispatch<true, 8, 7168>(int4*, float*, int*)",
                 "void ep_kernels::intranode::combine<__nv_bfloat16, 8, 768>(void*, int*)",
                 "void my_ep::intranode::notify_dispatch<8>(int const*, int*, int)",
                 "void my_ep::internode::cached_notify<8>(int, int*)",
                 "void nixl_ep::low_latency::combine<false, 7168>(void*, void*)",
                 "void hybrid::EpDispatchInterNodeKernel<__hip_bfloat16>(hybrid::Args)" }) {
            QCOMPARE(classifier.categories()[classifier.classify(name)], std::string("Communication"));
            QCOMPARE(collectiveOf(name, Platform::NVIDIA).collective, std::string("AllToAll"));
        }
        // A local dispatch is not communication (cub's DispatchReduceByKey is a Reduce).
        QVERIFY(classifier.categories()[classifier.classify(
                    "void cub::DeviceReduceByKeyKernel<cub::DispatchReduceByKey<long*, long*>>")]
            != std::string("Communication"));
        QVERIFY(collectiveOf("void groupnorm_kernel_dispatch_up<float>", Platform::AMD).collective.empty());
    }

    void generatedTritonKernelsAreNeverCollectives()
    {
        // Inductor names a kernel after the ops it fused: the pointwise work around a functional
        // all_reduce is elementwise, not a collective.
        const Classifier classifier = Classifier::builtin("default");
        for (const char* name : { "triton_poi_fused_add_all_reduce_3", "triton_red_fused_all_gather_into_tensor_sum_1",
                 "triton_per_fused_nccl_all_to_all_2", "triton_tem_fused_mm_reduce_scatter_tensor_0" }) {
            QVERIFY2(classifier.categories()[classifier.classify(name)] != std::string("Communication"), name);
            QVERIFY2(collectiveOf(name, Platform::NVIDIA).collective.empty(), name);
        }
        QCOMPARE(classifier.categories()[classifier.classify("triton_poi_fused_add_all_reduce_3")],
            std::string("Elementwise"));
        // Collectives themselves stay.
        QCOMPARE(
            collectiveOf("void (anonymous namespace)::multimem_all_reduce_kernel<c10::BFloat16, 16>", Platform::NVIDIA)
                .collective,
            std::string("AllReduce"));

        // In a trace, such a kernel is no collective call.
        TraceWriter a, b;
        a.nvidia();
        b.nvidia();
        for (TraceWriter* writer : { &a, &b }) {
            writer->launch("CompiledFunction", { "triton_poi_fused_add_all_reduce_3", "triton_poi_fused_mul_1" });
            writer->launch("c10d::allreduce_", { "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*)" });
        }
        const FusionReport report = compareWritten(a, b);
        QCOMPARE(report.collectiveCalls.size(), size_t(1));
        QCOMPARE(report.collectiveCalls[0].operation[0], std::string("c10d::allreduce_"));
        QCOMPARE(report.collectiveCalls[0].collective, std::string("AllReduce"));
    }

    void theBundledRealPair()
    {
        // Checked by hand (docs/findings-examples.md): tests/golden/inspect_op.py sums, over the 24
        // aten::scaled_dot_product_attention calls, 107.545 us of AMD's FillFunctor kernels (which
        // NVIDIA does not run) and 3,908.798 us of attn_fwd against 2,722.705 us of flash_fwd_kernel;
        // check_time_gap.py gives the totals and the unattributed kernels' time.
        const TraceStore a = loadTrace(test::sampleA().toStdString());
        const TraceStore b = loadTrace(test::sampleB().toStdString());
        const FusionReport report = analyzeFusion(a, b, Classifier::builtin("default"), AnalysisOptions {});
        const TimeGapBreakdown& gap = report.timeGap.kernelTime;
        verifyAddsUp(report, gap);
        verifyAddsUp(report, *report.timeGap.wallTime);
        QVERIFY(std::fabs(gap.timeUs[0] - 43062.042) < 0.001);
        QVERIFY(std::fabs(gap.timeUs[1] - 45432.698) < 0.001);
        QVERIFY(std::fabs(partDelta(gap, GapCause::Fusion) - 107.545) < 1e-6);
        QVERIFY(std::fabs(part(gap, GapCause::Unattributed).timeUs[0] - 13318.864) < 0.001);
        QVERIFY(std::fabs(part(gap, GapCause::Unattributed).timeUs[1] - 13672.640) < 0.001);
        QCOMPARE(part(gap, GapCause::Unattributed).kernels[0], uint64_t(463));
        QCOMPARE(part(gap, GapCause::Unattributed).kernels[1], uint64_t(436));
        // The step-time waterfall counts fewer (those inside the compared steps); the notes say why.
        const TimeGapPart& inSteps = part(*report.timeGap.stepTime, GapCause::Unattributed);
        QCOMPARE(inSteps.kernels, (std::array<uint64_t, 2> { 455, 430 }));
        const std::vector<std::string> notes = reportNotes(report);
        QVERIFY(std::any_of(notes.begin(), notes.end(), [](const std::string& note) {
            return note.starts_with("463 of ") && note.find("; 455 of them (") != std::string::npos
                && note.find("run inside the compared steps, which the step-time waterfall counts")
                != std::string::npos;
        }));
        QCOMPARE(gap.parts.front().cause, GapCause::Speed);
        // The pair has steps (the repeated Python call), so the verdict leads with the step time and
        // gives the kernel time after it.
        QVERIFY(report.timeGap.onStepTime);
        QVERIFY(report.timeGap.verdict.starts_with("B (NVIDIA) is slower than A (AMD) by 2.5 ms (5.3%) in step time"));
        QVERIFY(report.timeGap.verdict.ends_with("; in GPU kernel time B is slower by 2.4 ms (5.5%)."));

        const OpFinding& attention = report.opFindings.front();
        QCOMPARE(attention.op, std::string("aten::scaled_dot_product_attention"));
        QVERIFY(std::fabs(attention.savingExtraKernelsUs - 107.545) < 1e-6);
        QVERIFY(std::fabs(attention.savingSpeedUs - (3908.798 - 2722.705)) < 1e-6);

        // Ranked in groups, each by the time at stake: what explains B's longer time first (aten::mul's
        // speed first), then what works the other way, led by aten::linear's GEMMs (A slower by 2.8 ms),
        // the GEMMs without a launch in the trace (compared by type: AMD 5.2 ms, NVIDIA 3.9 ms) and the
        // attention finding.
        const auto& first = report.whereToLookFirst;
        QCOMPARE(first[0].op, std::string("aten::mul"));
        const auto against
            = std::find_if(first.begin(), first.end(), [](const LookFirstEntry& entry) { return entry.againstGap; });
        QVERIFY(against != first.end());
        QCOMPARE(against->op, std::string("aten::linear"));
        QCOMPARE((against + 1)->kind, LookFirstKind::KernelType);
        QCOMPARE((against + 1)->op, std::string("GEMM"));
        QCOMPARE((against + 2)->op, std::string("aten::scaled_dot_product_attention"));
        QCOMPARE((against + 2)->kind, LookFirstKind::Fusion);
        for (size_t i = 1; i < first.size(); ++i) {
            QVERIFY(!first[i - 1].againstGap || first[i].againstGap);
            if (first[i - 1].againstGap == first[i].againstGap)
                QVERIFY(first[i - 1].stakeUs >= first[i].stakeUs);
        }
    }

    void messageSizesFromRecordParamComms()
    {
        TraceWriter writer;
        writer.nvidia();
        writer.rawEvent(R"({"ph": "X", "cat": "cpu_op", "name": "record_param_comms", "pid": 1, "tid": 1,
            "ts": 5, "dur": 2, "args": {"External id": 9, "Collective name": "allreduce", "dtype": "BFloat16",
            "In msg nelems": 4096, "Out msg nelems": 4096, "Process Group Name": "3", "Seq": 12}})");
        writer.rawEvent(R"({"ph": "X", "cat": "cpu_op", "name": "vllm::all_reduce", "pid": 1, "tid": 1, "ts": 8,
            "dur": 2, "args": {"External id": 10, "Input type": ["c10::BFloat16", ""],
            "Input Dims": [[888, 2880], []]}})");
        writer.rawEvent(R"({"ph": "X", "cat": "cpu_op", "name": "c10d::allreduce_", "pid": 1, "tid": 1, "ts": 11,
            "dur": 2, "args": {"Input Dims": [[[4, 4]], []], "Input type": ["float"]}})");
        // Not a collective: its shapes are not kept; odd shapes are ignored.
        writer.rawEvent(R"({"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 14,
            "dur": 2, "args": {"Input Dims": [[2, 3], [3, 4]], "Input type": ["float", "float"]}})");
        writer.rawEvent(R"({"ph": "X", "cat": "cpu_op", "name": "vllm::all_gather", "pid": 1, "tid": 1, "ts": 17,
            "dur": 2, "args": {"Input Dims": "none", "Input type": [3]}})");
        QTemporaryDir dir;
        const TraceStore store = loadTrace(writer.write(dir, QStringLiteral("t.json")).toStdString());
        QCOMPARE(store.commMessages.size(), size_t(3));
        QCOMPARE(store.commMessages[0].elements, int64_t(4096));
        QCOMPARE(store.commMessages[0].elementBytes, uint32_t(2));
        QCOMPARE(store.commMessages[0].group, std::string("3"));
        QCOMPARE(store.commMessages[0].sequence, int64_t(12));
        QCOMPARE(store.commMessages[1].group, std::string());
        QCOMPARE(store.commMessages[1].sequence, int64_t(-1));
        // A collective operator recorded with shapes: its first input tensor.
        QCOMPARE(store.commMessages[1].cpuOp, uint32_t(1));
        QCOMPARE(store.commMessages[1].elements, int64_t(888 * 2880));
        QCOMPARE(store.commMessages[1].elementBytes, uint32_t(2));
        QCOMPARE(store.commMessages[2].elements, int64_t(16));
        QCOMPARE(store.commMessages[2].elementBytes, uint32_t(4));
        QCOMPARE(dtypeBytes("Float"), uint32_t(4));
        QCOMPARE(dtypeBytes("no such type"), uint32_t(0));
    }
};

QTEST_GUILESS_MAIN(TestTimeGap)
#include "tst_timegap.moc"
