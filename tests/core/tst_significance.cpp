// Run-to-run noise (ops/timegap/significance.h): a gap is significant only when it is larger than
// the steps' (or the paired calls') spread and than the floor. Hand-built breakdowns and step
// rows whose gap is inside or outside the spread; hand-made traces with jittered steps; and real
// pairs: the Pi0 H200 trace against its rerun (the same build) is not reported as a finding, the
// bundled MI300X/H100 pair and a host stall injected into a real trace with steps stay significant.
#include "classify/classifier.h"
#include "comparedpair.h"
#include "fusionanalysis.h"
#include "hoststall.h"
#include "load/traceloader.h"
#include "model/steptime.h"
#include "ops/timegap/significance.h"
#include "ops/timegap/timegap.h"
#include "report/reportwriters.h"
#include "testdata.h"

#include <QtTest>

#include <cmath>

using namespace fusiondiff;
using namespace fusiondiff::test;

namespace {

Spread spreadOfValues(std::vector<double> values)
{
    return spreadOf(std::move(values));
}

// A step-time breakdown of `steps` steps a side: each side's total, the GPU busy part (speed)
// and the host-idle part.
TimeGapBreakdown stepBreakdown(std::array<double, 2> busyUs, std::array<double, 2> idleUs)
{
    TimeGapBreakdown breakdown;
    breakdown.basis = TimeBasis::StepTime;
    breakdown.timeUs = { busyUs[0] + idleUs[0], busyUs[1] + idleUs[1] };
    breakdown.deltaUs = breakdown.timeUs[0] - breakdown.timeUs[1];
    TimeGapPart speed;
    speed.cause = GapCause::Speed;
    speed.timeUs = busyUs;
    speed.deltaUs = busyUs[0] - busyUs[1];
    TimeGapPart host;
    host.cause = GapCause::IdleHost;
    host.timeUs = idleUs;
    host.deltaUs = idleUs[0] - idleUs[1];
    breakdown.parts = { speed, host, TimeGapPart {} };
    return breakdown;
}

// A step_times report of one phase with these steps' times on each side.
StepTimeReport stepRows(const std::vector<double>& a, const std::vector<double>& b)
{
    StepTimeReport report;
    report.phases = { "phase 1" };
    StepTimeRow row;
    row.phase = "phase 1";
    row.steps = { a.size(), b.size() };
    row.timeUs = { spreadOfValues(a), spreadOfValues(b) };
    report.rows.push_back(row);
    return report;
}

std::vector<double> plus(std::vector<double> values, double shift)
{
    for (double& value : values)
        value += shift;
    return values;
}

double sum(const std::vector<double>& values)
{
    double total = 0;
    for (const double value : values)
        total += value;
    return total;
}

// Steps that vary: 1,000 us give or take up to 300.
const std::vector<double> kJitteredSteps { 700, 1300, 900, 1100, 800, 1200, 1000, 950 };

// Two sides with ProfilerStep annotations: each step one aten::linear whose kernel takes
// `stepUs[i]` (+ `shiftUs` on B) after a warm-up step alike on both, the B steps in a rotated order so that the k-th
// calls do not pair like for like.
// `text` as the Markdown report escapes it.
std::string markdownEscaped(const std::string& text)
{
    std::string out;
    for (const char c : text) {
        if (c == '|' || c == '\\' || c == '`' || c == '*' || c == '_' || c == '<' || c == '>')
            out.push_back('\\');
        out.push_back(c);
    }
    return out;
}

FusionReport jitteredPair(double shiftUs)
{
    TraceWriter a, b;
    a.amd();
    b.nvidia();
    const std::vector<double>& steps = kJitteredSteps;
    for (TraceWriter* side : { &a, &b }) { // the warm-up step, left out of the comparison
        side->beginStep("ProfilerStep#0");
        side->launch("aten::linear", { kGemmRelu }, { "Model_0" }, 1000);
        side->endStep();
    }
    for (size_t i = 0; i < steps.size(); ++i) {
        a.beginStep("ProfilerStep#" + std::to_string(i + 1));
        a.launch("aten::linear", { kGemmRelu }, { "Model_0" }, steps[i]);
        a.endStep();
        b.beginStep("ProfilerStep#" + std::to_string(i + 1));
        b.launch("aten::linear", { kGemmRelu }, { "Model_0" }, steps[(i + 3) % steps.size()] + shiftUs);
        b.endStep();
    }
    return compareWritten(a, b);
}

// A served model's run, as vLLM's worker records it: ten calls of execute_model, the first a
// prefill (its own phase), then nine decodes whose six layers wait for the host. A's host takes
// `hostUs[0]` before each layer's launches (give or take the jitter), B's `hostUs[1]`.
FusionReport servedPair(std::array<double, 2> hostUs)
{
    const std::string step = "vllm/worker/model_runner.py(1500): execute_model";
    const std::string forward = "vllm/model_executor/models/llama.py(212): forward";
    const std::vector<double> jitter { 0, 40, -30, 20, -10, 35, -25, 15, -5 };
    std::array<TraceWriter, 2> sides;
    sides[0].amd();
    sides[1].nvidia();
    for (size_t side = 0; side < 2; ++side) {
        TraceWriter& t = sides[side];
        t.beginStep(step).beginCall(forward);
        for (int layer = 0; layer < 6; ++layer) {
            t.host(hostUs[side]);
            t.launch("aten::mm", { kGemm }, {}, 400);
            t.launch("vllm::flash_attn_prefill", { kNorm }, {}, 300);
        }
        t.endCall().endStep();
        for (size_t decode = 0; decode < jitter.size(); ++decode) {
            t.beginStep(step).beginCall(forward);
            for (int layer = 0; layer < 6; ++layer) {
                t.host(hostUs[side] + jitter[(decode + size_t(layer) + side) % jitter.size()]);
                t.launch("aten::mm", { kGemm }, {}, 40);
                t.launch("vllm::paged_attention", { kAdd }, {}, 20);
            }
            t.endCall().endStep();
        }
    }
    return compareWritten(sides[0], sides[1]);
}

bool noEntryIsSignificantBeforeNoise(const std::vector<LookFirstEntry>& entries)
{
    bool noise = false;
    for (const LookFirstEntry& entry : entries) {
        if (noise && entry.noise != NoiseVerdict::WithinNoise)
            return false;
        noise |= entry.noise == NoiseVerdict::WithinNoise;
    }
    return true;
}

} // namespace

class TestSignificance : public QObject
{
    Q_OBJECT

private slots:
    void theLargerOfSpreadAndFloorDecides()
    {
        // Floor: 5% of the faster side's 10 ms = 500 us.
        QVERIFY(!judgeDelta(400, { 10400, 10000 }, 100, "calls").significant());
        QVERIFY(judgeDelta(600, { 10600, 10000 }, 100, "calls").significant());
        // A spread larger than the floor decides.
        const GapNoise wide = judgeDelta(600, { 10600, 10000 }, 800, "calls");
        QCOMPARE(wide.verdict, NoiseVerdict::WithinNoise);
        QCOMPARE(wide.noiseUs, 800.0);
        QVERIFY(judgeDelta(-900, { 10000, 10900 }, 800, "calls").significant()); // either direction
        QVERIFY(!judgeDelta(0, { 10000, 10000 }, 0, "calls").significant());
    }

    void aStepGapInsideTheStepsSpreadIsNoise()
    {
        // 8 steps a side, IQR 250 us: 2 * sqrt(8 * (250/1.349)^2 * 2) = 1,483 us of noise on the total.
        const std::vector<double> b = kJitteredSteps;
        const std::vector<double> inside = plus(b, 100); // +800 us in all
        const TimeGapBreakdown gap = stepBreakdown({ sum(inside), sum(b) }, { 0, 0 });
        const GapNoise noise = stepTimeNoise(gap, stepRows(inside, b), 0);
        QCOMPARE(noise.verdict, NoiseVerdict::WithinNoise);
        QCOMPARE(noise.basis, std::string("steps"));
        QVERIFY2(noise.spreadUs > std::fabs(gap.deltaUs) && noise.spreadUs > noise.floorUs, noise.reason.c_str());
        QVERIFY(std::fabs(noise.spreadUs - 1482.6) < 0.1);
        QCOMPARE(noise.stepSpreadUs, 125.0); // half the IQR
    }

    void aStepGapOutsideTheStepsSpreadIsSignificant()
    {
        const std::vector<double> b = kJitteredSteps;
        const std::vector<double> outside = plus(b, 400); // +3.2 ms in all
        const TimeGapBreakdown gap = stepBreakdown({ sum(outside), sum(b) }, { 0, 0 });
        const GapNoise noise = stepTimeNoise(gap, stepRows(outside, b), 0);
        QVERIFY2(noise.significant(), noise.reason.c_str());
        QCOMPARE(noise.basis, std::string("steps"));
    }

    void tightStepsStillNeedTheFloor()
    {
        // Steps that vary by 1 us: the spread says significant, the floor (5%) does not.
        const std::vector<double> b { 1000, 1001, 999, 1000 };
        const std::vector<double> a = plus(b, 30);
        const GapNoise noise = stepTimeNoise(stepBreakdown({ sum(a), sum(b) }, { 0, 0 }), stepRows(a, b), 0);
        QCOMPARE(noise.verdict, NoiseVerdict::WithinNoise);
        QVERIFY(noise.floorUs > noise.spreadUs);
    }

    void oneStepASideIsDecidedByTheGpuWorkOrCannotBeTold()
    {
        const StepTimeReport one = stepRows({ 10000 }, { 10000 }); // one step: no spread
        // Below the floor: within noise.
        QCOMPARE(
            stepTimeNoise(stepBreakdown({ 9000, 8900 }, { 1200, 1000 }), one, 0).verdict, NoiseVerdict::WithinNoise);
        // The GPU work alone differs beyond its floor, in the gap's direction: significant.
        const GapNoise gpu = stepTimeNoise(stepBreakdown({ 10000, 8000 }, { 1000, 1000 }), one, 0);
        QVERIFY2(gpu.significant(), gpu.reason.c_str());
        QCOMPARE(gpu.basis, std::string("calls"));
        // The gap is idle time, whose run-to-run spread one step does not show: cannot tell.
        const GapNoise idle = stepTimeNoise(stepBreakdown({ 9000, 9000 }, { 3000, 1000 }), one, 0);
        QCOMPARE(idle.verdict, NoiseVerdict::CannotTell);
        QVERIFY(!idle.significant());
        // The GPU work differs beyond noise but the other way: cannot tell either.
        QCOMPARE(
            stepTimeNoise(stepBreakdown({ 8000, 10000 }, { 5000, 1000 }), one, 0).verdict, NoiseVerdict::CannotTell);
    }

    void theVerdictSaysWithinNoise()
    {
        TimeGap gap;
        gap.kernelTime.basis = TimeBasis::GpuKernelTime;
        gap.kernelTime.timeUs = { 8120, 8000 };
        gap.kernelTime.deltaUs = 120;
        gap.kernelTime.noise = judgeDelta(120, gap.kernelTime.timeUs, 0, "calls");
        const std::vector<double> b = kJitteredSteps;
        const std::vector<double> a = plus(b, 50);
        gap.stepTime = stepBreakdown({ sum(a), sum(b) }, { 0, 0 });
        gap.stepTime->noise = stepTimeNoise(*gap.stepTime, stepRows(a, b), 0);
        gap.onStepTime = true;
        const std::string verdict = timeGapVerdict(gap, { "AMD", "NVIDIA" });
        QVERIFY2(
            verdict.starts_with("A (AMD) and B (NVIDIA) take the same step time within run-to-run noise (A +400 us, "
                                "5.0%; the steps vary by ±125 us; run-to-run noise ±1.5 ms); in GPU kernel time"),
            verdict.c_str());
        QVERIFY2(verdict.ends_with("in GPU kernel time they are the same within run-to-run noise (A +120 us, 1.5%; "
                                   "run-to-run noise ±400 us)."),
            verdict.c_str());
        // Outside the noise the verdict names the slower side.
        gap.stepTime->noise.verdict = NoiseVerdict::Significant;
        QVERIFY(timeGapVerdict(gap, { "AMD", "NVIDIA" }).starts_with("A (AMD) is slower than B (NVIDIA) by 400 us"));
    }

    // Pi0's MI350 trace records its graph kernels back to back: its launch bubbles are in its
    // kernels' durations. Launch idle (B +9.1 ms) and speed (A slower by 3.7 ms) are then one cause,
    // named by their sum, where the sentence had named the launch idle alone.
    void theVerdictNamesLaunchWithSpeedWhereATraceHidesLaunchIdle()
    {
        TimeGap gap;
        gap.kernelTime.basis = TimeBasis::GpuKernelTime;
        gap.kernelTime.timeUs = { 24300, 21900 };
        gap.kernelTime.deltaUs = 2400;
        gap.kernelTime.noise.verdict = NoiseVerdict::Significant;
        TimeGapBreakdown steps;
        steps.basis = TimeBasis::StepTime;
        steps.timeUs = { 24300, 36700 };
        steps.deltaUs = -12400;
        steps.noise.verdict = NoiseVerdict::Significant;
        const auto part = [](GapCause cause, double deltaUs) {
            TimeGapPart made;
            made.cause = cause;
            made.label = cause == GapCause::Speed ? "speed" : "launch";
            made.deltaUs = deltaUs;
            return made;
        };
        steps.parts
            = { part(GapCause::IdleLaunch, -9100), part(GapCause::IdleHost, -5400), part(GapCause::Speed, 3700) };
        gap.stepTime = steps;
        gap.onStepTime = true;
        const std::string separate = timeGapVerdict(gap, { "AMD", "NVIDIA" });
        QVERIFY2(separate.find("late starts after launches +9.1 ms") != std::string::npos, separate.c_str());
        const std::string together = timeGapVerdict(gap, { "AMD", "NVIDIA" }, { true, false });
        QVERIFY2(together.find("late starts after launches and the kernels' speed, which A's trace cannot tell "
                               "apart, +5.4 ms (launch +9.1 ms, speed -3.7 ms)")
                != std::string::npos,
            together.c_str());
        QVERIFY2(together.find("late starts after launches +9.1 ms") == std::string::npos, together.c_str());
        QVERIFY2(
            together.find("the GPU waits while the host runs code +5.4 ms") != std::string::npos, together.c_str());
    }

    void pairedCallsLeaveTheirSizesOut()
    {
        // Calls of very different sizes, each 1% slower on A: the pairs vary by little.
        const Spread pairs = pairedDifferenceSpread({ 101, 1010, 10100, 202 }, { 100, 1000, 10000, 200 });
        QCOMPARE(pairs.count, uint64_t(4));
        QVERIFY(pairedNoiseUs(pairs) < 100);
        QCOMPARE(pairedNoiseUs(pairedDifferenceSpread({ 5 }, { 4 })), 0.0); // one pair: no spread
    }

    void handMadeStepsInsideAndOutsideTheirSpread()
    {
        const FusionReport inside = jitteredPair(-20);
        QVERIFY(inside.timeGap.onStepTime);
        QVERIFY(inside.timeGap.stepTime);
        const GapNoise& noise = inside.timeGap.stepTime->noise;
        QCOMPARE(noise.basis, std::string("steps"));
        QCOMPARE(noise.verdict, NoiseVerdict::WithinNoise);
        QVERIFY2(inside.timeGap.verdict.find("take the same step time within run-to-run noise") != std::string::npos,
            inside.timeGap.verdict.c_str());
        QCOMPARE(inside.timeGap.kernelTime.noise.verdict, NoiseVerdict::WithinNoise); // the pairs vary as much
        for (const LookFirstEntry& entry : inside.whereToLookFirst)
            QVERIFY2(entry.noise != NoiseVerdict::Significant, entry.title.c_str());

        const FusionReport outside = jitteredPair(-600);
        QVERIFY2(outside.timeGap.stepTime->noise.significant(), outside.timeGap.stepTime->noise.reason.c_str());
        QVERIFY(outside.timeGap.verdict.starts_with("A (AMD) is slower than B (NVIDIA)"));
        QVERIFY(outside.timeGap.kernelTime.noise.significant());
    }

    void thePi0RerunIsNotAFinding()
    {
        // Two H200 runs of one build: the GPU kernel time differs by 510 us (2.4%), every launch of
        // the repeated graph by 3.5% (0.2% within each run); the host is faster throughout the rerun
        // (+3.6 ms of idle in one step a side, whose run-to-run spread the traces cannot show).
        const TraceStore a = loadTrace(dataPath("real/pi0_torchcompile_cudagraph.h200.json.gz").toStdString());
        const TraceStore b = loadTrace(dataPath("real/pi0_torchcompile_cudagraph_rerun.h200.json.gz").toStdString());
        const FusionReport report = analyzeFusion(a, b, Classifier::builtin("default"), AnalysisOptions {});
        const TimeGap& gap = report.timeGap;
        QVERIFY(std::fabs(gap.kernelTime.deltaUs - 510) < 1);
        QCOMPARE(gap.kernelTime.noise.verdict, NoiseVerdict::WithinNoise);
        QVERIFY(gap.onStepTime);
        QCOMPARE(gap.stepTime->noise.verdict, NoiseVerdict::CannotTell);
        QVERIFY(!gap.headline().noise.significant());
        QVERIFY2(gap.verdict.find("cannot be told with one step a side") != std::string::npos, gap.verdict.c_str());
        QVERIFY2(gap.verdict.ends_with("in GPU kernel time they are the same within run-to-run noise (A +510 us, 2.4%; "
                                       "run-to-run noise ±1.1 ms)."),
            gap.verdict.c_str());
        for (const OpFinding& finding : report.opFindings)
            QVERIFY2(!finding.significant, finding.summary.c_str());
        QVERIFY(!report.whereToLookFirst.empty());
        for (const LookFirstEntry& entry : report.whereToLookFirst) {
            QVERIFY2(entry.noise != NoiseVerdict::Significant, entry.title.c_str());
            if (entry.noise == NoiseVerdict::WithinNoise)
                QVERIFY2(entry.title.find("within run-to-run noise") != std::string::npos, entry.title.c_str());
        }
        QVERIFY(noEntryIsSignificantBeforeNoise(report.whereToLookFirst));
    }

    void anEntrysWordsFollowTheVerdict()
    {
        // TimeSformer (issue 39): the verdict says the same step time within run-to-run noise, so no
        // side is slower overall, and no entry may say one is.
        const TraceStore a = loadTrace(dataPath("real/timesformer-base-finetuned-k400.mi300x.json.gz").toStdString());
        const TraceStore b = loadTrace(dataPath("real/timesformer-base-finetuned-k400.h100.json.gz").toStdString());
        const FusionReport report = analyzeFusion(a, b, Classifier::builtin("default"), AnalysisOptions {});
        QCOMPARE(report.timeGap.headline().noise.verdict, NoiseVerdict::WithinNoise);
        QVERIFY(!report.whereToLookFirst.empty());
        for (const LookFirstEntry& entry : report.whereToLookFirst) {
            QVERIFY2(!entry.againstGap, entry.title.c_str());
            for (const std::string& detail : entry.details)
                QVERIFY2(detail.find("slower overall") == std::string::npos, detail.c_str());
        }
    }

    void theMarkdownKeepsTheNoiseReasonsWhole()
    {
        // The step time's noise reason and the verdict run past the 160 characters a name in a
        // table cell is shortened to; the Markdown report shows them whole, as the JSON does.
        const TraceStore a = loadTrace(dataPath("real/pi0_torchcompile_cudagraph.h200.json.gz").toStdString());
        const TraceStore b = loadTrace(dataPath("real/pi0_torchcompile_cudagraph_rerun.h200.json.gz").toStdString());
        const FusionReport report = analyzeFusion(a, b, Classifier::builtin("default"), AnalysisOptions {});
        const std::string markdown = reportToMarkdown(report);
        const std::string& reason = report.timeGap.stepTime->noise.reason;
        QVERIFY(reason.size() > 160);
        QVERIFY2(markdown.find(markdownEscaped(reason)) != std::string::npos, reason.c_str());
        QVERIFY(report.timeGap.verdict.size() > 160);
        QVERIFY(markdown.find(markdownEscaped(report.timeGap.verdict)) != std::string::npos);
        for (const LookFirstEntry& entry : report.whereToLookFirst) {
            if (&entry - report.whereToLookFirst.data() >= 5)
                break;
            QVERIFY(markdown.find(". " + markdownEscaped(entry.title) + "\n") != std::string::npos);
            for (const std::string& detail : entry.details)
                QVERIFY2(markdown.find("   - " + markdownEscaped(detail) + "\n") != std::string::npos, detail.c_str());
        }
    }

    void theBundledPairStaysSignificant()
    {
        const TraceStore a = loadTrace(sampleA().toStdString());
        const TraceStore b = loadTrace(sampleB().toStdString());
        const FusionReport report = analyzeFusion(a, b, Classifier::builtin("default"), AnalysisOptions {});
        QVERIFY(report.timeGap.kernelTime.noise.significant());
        QVERIFY2(report.timeGap.headline().noise.significant(), report.timeGap.headline().noise.reason.c_str());
        QVERIFY(report.timeGap.verdict.starts_with("B (NVIDIA) is slower than A (AMD) by 2.5 ms (5.3%) in step time"));
        QCOMPARE(report.whereToLookFirst.front().noise, NoiseVerdict::Significant);
        QVERIFY(noEntryIsSignificantBeforeNoise(report.whereToLookFirst));
    }

    void aHostStallOnATraceWithStepsIsSignificant()
    {
        // The V100 training trace has 5 compared steps: the stall (15% of a step in every step) is
        // far outside their spread; without it the two copies are the same within noise.
        const std::string path = dataPath("real/hta_trace_diff_test.v100.json.gz").toStdString();
        const Classifier classifier = Classifier::builtin("default");
        const TraceStore a = loadTrace(path);
        HostStall stall = chooseStall(a, 1, 0, 0.15);
        QVERIFY(!stall.function.empty());
        TraceStore stalled = loadTrace(path);
        stallHost(stalled, stall);
        const FusionReport report = analyzeFusion(a, stalled, classifier, {});
        QVERIFY(report.timeGap.onStepTime);
        const GapNoise& noise = report.timeGap.stepTime->noise;
        QCOMPARE(noise.basis, std::string("steps"));
        QVERIFY2(noise.significant(), noise.reason.c_str());
        QVERIFY(report.timeGap.verdict.starts_with("B ("));

        stall.stallUs = 0;
        TraceStore same = loadTrace(path);
        stallHost(same, stall);
        const FusionReport none = analyzeFusion(a, same, classifier, {});
        QVERIFY(std::fabs(none.timeGap.stepTime->deltaUs) < 100); // the constructor's launch latency model
        QVERIFY(!none.timeGap.stepTime->noise.significant());
    }

    void anEntryIsJudgedOnTheStepsOfItsPhase()
    {
        // Ten steps a side, one prefill and nine host-bound decodes: the host entry costs most in
        // the decode phase, whose nine steps a side measure its spread (issue 39: it said "fewer
        // than 2 steps a side", and step_spread_us was 0).
        const FusionReport report = servedPair({ 1000, 300 });
        QVERIFY(report.timeGap.onStepTime);
        QCOMPARE(report.stepTime.phases.size(), size_t(2));
        QCOMPARE(report.stepTime.rows[0].steps, (std::array<uint64_t, 2> { 1, 1 }));
        QCOMPARE(report.stepTime.rows[1].steps, (std::array<uint64_t, 2> { 9, 9 }));
        const GapNoise& steps = report.timeGap.stepTime->noise;
        QVERIFY2(steps.significant(), steps.reason.c_str());
        QVERIFY(steps.stepSpreadUs > 0);
        QCOMPARE(steps.fewSteps, std::string("one step a side in phase 1"));
        QVERIFY2(steps.reason.find("fewer than") == std::string::npos, steps.reason.c_str());
        const LookFirstEntry* host = nullptr;
        for (const LookFirstEntry& entry : report.whereToLookFirst) {
            if (entry.kind == LookFirstKind::Host && !host)
                host = &entry;
        }
        QVERIFY(host);
        QVERIFY2(host->op.find("llama.py") != std::string::npos, host->op.c_str());
        QCOMPARE(host->noise, NoiseVerdict::Significant);
        QVERIFY(host->noiseUs > 0);
        for (const std::string& detail : host->details)
            QVERIFY2(detail.find("cannot tell") == std::string::npos, detail.c_str());

        // The same host time on both sides: the entry, if any, is no finding.
        const FusionReport same = servedPair({ 1000, 1000 });
        for (const LookFirstEntry& entry : same.whereToLookFirst) {
            if (entry.kind == LookFirstKind::Host)
                QVERIFY(entry.noise != NoiseVerdict::Significant);
        }
    }

    void aHostStallInOneStepCannotBeTold()
    {
        // One step a side: the stall is GPU idle, whose run-to-run spread is not measured. It is not
        // called noise, and not claimed significant.
        const std::string path = dataPath("real/bert-small-uncased.mi300x.json.gz").toStdString();
        const TraceStore a = loadTrace(path);
        const HostStall stall = chooseStall(a, 1, 0, 0.15);
        TraceStore b = loadTrace(path);
        stallHost(b, stall);
        const FusionReport report = analyzeFusion(a, b, Classifier::builtin("default"), {});
        QCOMPARE(report.timeGap.stepTime->noise.verdict, NoiseVerdict::CannotTell);
        QVERIFY2(report.timeGap.verdict.find("cannot be told with one step a side") != std::string::npos,
            report.timeGap.verdict.c_str());
        QCOMPARE(report.whereToLookFirst.front().kind, LookFirstKind::Host);
        QCOMPARE(report.whereToLookFirst.front().noise, NoiseVerdict::CannotTell);
    }
};

QTEST_GUILESS_MAIN(TestSignificance)
#include "tst_significance.moc"
