// The step time on hand-made traces whose every idle microsecond is known: steps from their host
// start to their last GPU work, GPU busy as the union of kernels and copies, and each idle
// interval's cause and host code (core/ops/timegap/steptime.cpp). Thin input (no host events, clocks that
// disagree or are offset, no steps, several launching threads, graph launches) degrades with a note.
#include "classify/classifier.h"
#include "comparedpair.h"
#include "fusionanalysis.h"
#include "load/traceloader.h"
#include "ops/comparison/graphtail.h"
#include "ops/timegap/hosttimeline.h"
#include "ops/timegap/idlegaps.h"
#include "ops/timegap/steptime.h"
#include "ops/timegap/timegap.h"
#include "report/reportwriters.h"
#include "testdata.h"
#include "tracewriter.h"

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <string>

using namespace fusiondiff;
using namespace fusiondiff::test;

namespace {

std::string hostEvent(
    const char* cat, const std::string& name, double ts, double dur, const std::string& args = {}, int tid = 1)
{
    return "{\"ph\": \"X\", \"cat\": \"" + std::string(cat) + "\", \"name\": \"" + name
        + "\", \"pid\": 100, \"tid\": " + std::to_string(tid) + ", \"ts\": " + std::to_string(ts)
        + ", \"dur\": " + std::to_string(dur) + ", \"args\": {" + args + "}}";
}

std::string gpuEvent(const char* cat, const std::string& name, double ts, double dur, int64_t correlation)
{
    return "{\"ph\": \"X\", \"cat\": \"" + std::string(cat) + "\", \"name\": \"" + name
        + "\", \"pid\": 0, \"tid\": 7, \"ts\": " + std::to_string(ts) + ", \"dur\": " + std::to_string(dur)
        + ", \"args\": {\"device\": 0, \"stream\": 7, \"correlation\": " + std::to_string(correlation)
        + ", \"External id\": " + std::to_string(correlation) + "}}";
}

// aten::mm at `ts` (10 us) on host thread `tid` launching one kernel with cudaLaunchKernel at
// ts + 2 (`launchDur` us).
void mm(TraceWriter& trace, double ts, int64_t id, double kernelTs, double kernelDur, double launchDur = 5, int tid = 1)
{
    const std::string ids = "\"External id\": " + std::to_string(id);
    trace.rawEvent(hostEvent("cpu_op", "aten::mm", ts, 10, ids, tid));
    trace.rawEvent(hostEvent(
        "cuda_runtime", "cudaLaunchKernel", ts + 2, launchDur, ids + ", \"correlation\": " + std::to_string(id), tid));
    trace.rawEvent(gpuEvent("kernel", "ampere_sgemm_128x64_nn", kernelTs, kernelDur, id));
}

bool hasNote(const FusionReport& report, const std::string& text)
{
    for (const std::string& note : report.stepTime.notes) {
        if (note.find(text) != std::string::npos)
            return true;
    }
    return false;
}

// One step whose four kernels each wait for the host (50 us of Python before each launch), with
// the device clock `offset` us ahead of the host's.
TraceWriter hostBound(double offset)
{
    TraceWriter trace;
    trace.nvidia();
    trace.rawEvent(hostEvent("user_annotation", "ProfilerStep#1", 100, 300));
    for (int i = 0; i < 4; ++i) {
        const double ts = 100 + 70.0 * i;
        trace.rawEvent(hostEvent("python_function", "model.py(30): prepare", ts, 50));
        mm(trace, ts + 50, i + 1, ts + 60 + offset, 10);
    }
    return trace;
}

// Two profiler steps whose idle is worked out in the comments.
TraceWriter twoSteps(double secondKernelTs = 215)
{
    TraceWriter trace;
    trace.nvidia();
    trace.rawEvent(hostEvent("user_annotation", "ProfilerStep#1", 100, 200));
    trace.rawEvent(hostEvent("user_annotation", "ProfilerStep#2", 300, 200));
    // Step 1 (100 to 300, where step 2 starts; its GPU work ends at 240): forward runs 100..250.
    trace.rawEvent(hostEvent("python_function", "model.py(10): forward", 100, 150));
    mm(trace, 110, 1, 120, 30); // host 100..112 (forward 10, aten::mm 2), launch 112..120
    mm(trace, 200, 2, secondKernelTs, 20); // host 150..202 (forward 50, aten::mm 2), launch 202..215
    trace.rawEvent(hostEvent("cuda_runtime", "cudaMemcpyAsync", 230, 3, "\"correlation\": 3"));
    trace.rawEvent(gpuEvent("gpu_memcpy", "Memcpy DtoD (Device -> Device)", 236, 4, 3)); // launch 235..236
    // Step 2 (300 to 500, its host end; its GPU work ends at 380): 380..500 is its host tail.
    mm(trace, 310, 4, 330, 10); // host 300..312 (none 10, aten::mm 2), launch 312..330
    trace.rawEvent(hostEvent("cuda_runtime", "cudaStreamSynchronize", 320, 30)); // sync 340..350
    mm(trace, 360, 5, 370, 10); // host 350..362 (none 10, aten::mm 2), launch 362..370
    return trace;
}

// The idle trace 1's compared steps charge to `code` (as trace 1 names it) for `cause`.
double idleOf(const FusionReport& report, IdleCause cause, const std::string& code)
{
    for (const IdleCauseEntry& entry : report.stepTime.causes) {
        if (entry.cause == cause && entry.name[0] == code)
            return entry.idleUs[0];
    }
    return 0;
}

// Thread 1 launches a kernel (110..120), then runs aten::item 130..230 (a copy that waits for
// its transfer) and launches another (240..250); thread 2 runs aten::cat for `catUs` from 100,
// then launches a long kernel (`catKernelTs`, 100 us). With `catTid` 1 the cat runs on thread 1
// from `catTs` instead, and thread 2 launches only.
TraceWriter waitedFor(double catUs, double catKernelTs, int catTid = 2, double catTs = 100)
{
    TraceWriter trace;
    trace.nvidia();
    trace.rawEvent(hostEvent("user_annotation", "ProfilerStep#1", 100, 150));
    mm(trace, 100, 1, 110, 10);
    trace.rawEvent(hostEvent("cpu_op", "aten::cat", catTs, catUs, {}, catTid));
    mm(trace, catTid == 2 ? 100 + catUs : 110, 2, catKernelTs, 100, 5, 2);
    trace.rawEvent(hostEvent("cpu_op", "aten::item", 130, 100));
    mm(trace, 230, 3, 240, 10);
    return trace;
}

double idleOfSide(const FusionReport& report, size_t side, const std::string& key)
{
    for (const IdleCauseEntry& entry : report.stepTime.causes) {
        if (entry.cause == IdleCause::Host && entry.key == key)
            return entry.idleUs[side];
    }
    return 0;
}
} // namespace

class TestStepTime : public QObject
{
    Q_OBJECT

private slots:
    void aTimelineIsConsecutiveSegments()
    {
        HostTimeline timeline;
        QCOMPARE(timeline.firstEndingAfter(5), size_t(0));
        timeline.append(10, 20, -1, false);
        timeline.append(20, 25, 3, false);
        timeline.append(25, 30, 3, false); // the same code: the segment before is extended
        timeline.append(30, 32, 4, true);
        QCOMPARE(timeline.size(), size_t(3));
        const HostSegment extended = timeline[1];
        QCOMPARE(extended.begin, 20.0);
        QCOMPARE(extended.end, 30.0);
        QCOMPARE(extended.code, 3);
        QVERIFY(!extended.blocking);
        QVERIFY(timeline[2].blocking);
        QCOMPARE(timeline[2].end, 32.0);
        // The first segment that ends after a time: a segment that ends at it does not.
        QCOMPARE(timeline.firstEndingAfter(5), size_t(0));
        QCOMPARE(timeline.firstEndingAfter(20), size_t(1));
        QCOMPARE(timeline.firstEndingAfter(29.5), size_t(1));
        QCOMPARE(timeline.firstEndingAfter(31), size_t(2));
        QCOMPARE(timeline.firstEndingAfter(32), size_t(3));
    }

    void everyIdleMicrosecondHasItsCause()
    {
        const TraceWriter a = twoSteps();
        const FusionReport report = compareWritten(a, a);
        const StepTimeSide& side = report.stepTime.sides[0];
        QCOMPARE(side.steps.size(), size_t(2));
        QCOMPARE(side.steps[0].begin, 100.0);
        QCOMPARE(side.steps[0].end, 300.0);
        QCOMPARE(side.steps[0].busyUs, 54.0); // 30 + 20 + the 4 us copy
        // 64 us before its launches, and its tail 240..300: forward 10, then no recorded code 50.
        QCOMPARE(side.steps[0].idleUs[size_t(IdleCause::Host)], 64.0 + 60.0);
        QCOMPARE(side.steps[0].idleUs[size_t(IdleCause::Launch)], 22.0);
        QCOMPARE(side.steps[1].begin, 300.0);
        QCOMPARE(side.steps[1].end, 500.0);
        QCOMPARE(side.steps[1].busyUs, 20.0);
        QCOMPARE(side.steps[1].idleUs[size_t(IdleCause::Host)], 24.0 + 120.0); // and its tail, 380..500
        QCOMPARE(side.steps[1].idleUs[size_t(IdleCause::Sync)], 10.0);
        QCOMPARE(side.steps[1].idleUs[size_t(IdleCause::Launch)], 26.0);
        QCOMPARE(side.idleUs[size_t(IdleCause::BetweenSteps)], 0.0);
        for (const StepRecord& step : side.steps)
            QCOMPARE(step.busyUs + step.idleTotalUs(), step.timeUs());

        QCOMPARE(idleOf(report, IdleCause::Host, "model.py: forward"), 60.0 + 10.0);
        QCOMPARE(idleOf(report, IdleCause::Host, "aten::mm"), 8.0);
        QCOMPARE(
            idleOf(report, IdleCause::Host, "(no recorded host code on the launching thread)"), 20.0 + 50.0 + 120.0);
        QCOMPARE(idleOf(report, IdleCause::Sync, "cudaStreamSynchronize"), 10.0);
        QCOMPARE(idleOf(report, IdleCause::Launch, "cudaLaunchKernel"), 47.0);
        QCOMPARE(idleOf(report, IdleCause::Launch, "cudaMemcpyAsync (already launched when the GPU went idle)"), 1.0);

        // step_times: one phase of two steps, 200 us each.
        QCOMPARE(report.stepTime.rows.size(), size_t(1));
        const StepTimeRow& row = report.stepTime.rows.front();
        QCOMPARE(row.steps[0], uint64_t(2));
        QCOMPARE(row.timeUs[0].median, 200.0);
        QCOMPARE(row.busyUs[0], 37.0);
        QCOMPARE(row.idleUs[0], 163.0);
        QCOMPARE(row.idleByCauseUs[0][size_t(IdleCause::Host)], 134.0);
        QCOMPARE(row.totalUs[0], 400.0);
        // host_time: forward's own time in the steps is 150 - 20 (its aten::mm calls), per step.
        bool forward = false;
        for (const HostTimeRow& host : report.stepTime.hostTime) {
            if (host.code == "model.py: forward") {
                forward = true;
                // Inside step 1's window, less its aten::mm calls; the cudaMemcpyAsync it issues
                // (a call that does not wait for the GPU) is its own time.
                QCOMPARE(host.ownUsPerStep[0], (150.0 - 20.0) / 2);
                QCOMPARE(host.idleUsPerStep[0], 35.0);
            }
        }
        QVERIFY(forward);
    }

    void hostEventsOutOfTimeOrderGiveTheSameCauses()
    {
        // The host timeline reads each kind of event in the store's order where it is time order,
        // and sorts a copy where it is not: both give the same causes and own times.
        TraceWriter reversed = twoSteps();
        reversed.reverseEvents();
        const FusionReport inOrder = compareWritten(twoSteps(), twoSteps());
        const FusionReport outOfOrder = compareWritten(reversed, reversed);
        QCOMPARE(idleOf(outOfOrder, IdleCause::Host, "model.py: forward"), 70.0);
        QCOMPARE(outOfOrder.stepTime.causes.size(), inOrder.stepTime.causes.size());
        for (size_t i = 0; i < inOrder.stepTime.causes.size(); ++i) {
            QCOMPARE(outOfOrder.stepTime.causes[i].key, inOrder.stepTime.causes[i].key);
            QCOMPARE(outOfOrder.stepTime.causes[i].idleUs[0], inOrder.stepTime.causes[i].idleUs[0]);
        }
        QCOMPARE(outOfOrder.stepTime.hostTime.size(), inOrder.stepTime.hostTime.size());
        for (size_t i = 0; i < inOrder.stepTime.hostTime.size(); ++i) {
            QCOMPARE(outOfOrder.stepTime.hostTime[i].code, inOrder.stepTime.hostTime[i].code);
            QCOMPARE(outOfOrder.stepTime.hostTime[i].ownUsPerStep[0], inOrder.stepTime.hostTime[i].ownUsPerStep[0]);
        }
    }

    void theHostCodeThatGotSlowerRanksFirst()
    {
        // B's second kernel starts 40 us later because B's forward runs 40 us longer before launching it.
        TraceWriter b;
        b.nvidia();
        b.rawEvent(hostEvent("user_annotation", "ProfilerStep#1", 100, 240));
        b.rawEvent(hostEvent("user_annotation", "ProfilerStep#2", 340, 200));
        b.rawEvent(hostEvent("python_function", "model.py(10): forward", 100, 190));
        mm(b, 110, 1, 120, 30);
        mm(b, 240, 2, 255, 20);
        b.rawEvent(hostEvent("cuda_runtime", "cudaMemcpyAsync", 270, 3, "\"correlation\": 3"));
        b.rawEvent(gpuEvent("gpu_memcpy", "Memcpy DtoD (Device -> Device)", 276, 4, 3));
        mm(b, 350, 4, 370, 10);
        b.rawEvent(hostEvent("cuda_runtime", "cudaStreamSynchronize", 360, 30));
        mm(b, 400, 5, 410, 10);
        const FusionReport report = compareWritten(twoSteps(), b);
        QVERIFY(report.timeGap.onStepTime);
        QCOMPARE(report.timeGap.headline().basis, TimeBasis::StepTime);
        QCOMPARE(report.timeGap.stepTime->deltaUs, -40.0);
        double sum = 0;
        for (const TimeGapPart& part : report.timeGap.stepTime->parts)
            sum += part.deltaUs;
        QVERIFY(std::fabs(sum - report.timeGap.stepTime->deltaUs) < 1e-9);
        QVERIFY(!report.whereToLookFirst.empty());
        const LookFirstEntry& first = report.whereToLookFirst.front();
        QCOMPARE(first.kind, LookFirstKind::Host);
        QCOMPARE(first.op, std::string("model.py: forward"));
        QCOMPARE(first.slowerSide, Side::Trace2);
        QCOMPARE(first.stakeUs, 40.0);
        // Only one of the two steps is 40 us longer: that is inside the steps' spread, so the verdict
        // does not name a slower side, and the entry says it is within noise (tst_significance).
        const std::string& verdict = report.timeGap.verdict;
        QCOMPARE(report.timeGap.stepTime->noise.verdict, NoiseVerdict::WithinNoise);
        QVERIFY2(verdict.find("take the same step time within run-to-run noise (A -40.0 us") != std::string::npos,
            verdict.c_str());
        QVERIFY(verdict.find("in GPU kernel time they are the same") != std::string::npos);
        QVERIFY(first.title.find("within run-to-run noise") != std::string::npos);
        // Outside the noise it names the host code.
        TimeGap significant = report.timeGap;
        significant.stepTime->noise.verdict = NoiseVerdict::Significant;
        const std::string named = timeGapVerdict(significant, report.sideNames);
        QVERIFY(named.find("in step time") != std::string::npos);
        QVERIFY(named.find("the GPU waits while the host runs code +40") != std::string::npos);
        QVERIFY(named.find("(most: model.py: forward +40") != std::string::npos);
        const std::string json = reportToJson(report);
        QVERIFY(json.find("\"basis\": \"step_time\"") != std::string::npos);
        QVERIFY(json.find("\"kernel_time\": {") != std::string::npos);
        QVERIFY(json.find("\"step_times\": [") != std::string::npos);
        QVERIFY(json.find("\"host_time\": [") != std::string::npos);
    }

    void aHostEntryNamesTheChainAboveItsCode()
    {
        // As theHostCodeThatGotSlowerRanksFirst, with the slower forward called by an nn.Module
        // call inside a record_function region: the entry names forward, then the module, then the
        // region. The chain is the code each runs inside for most of its own time.
        const auto withChain = [](double forwardDur, double secondMm) {
            TraceWriter trace;
            trace.nvidia();
            trace.rawEvent(hostEvent("user_annotation", "ProfilerStep#1", 100, 200 + forwardDur - 150));
            trace.rawEvent(hostEvent("user_annotation", "ProfilerStep#2", 300 + forwardDur - 150, 200));
            trace.rawEvent(hostEvent("user_annotation", "## loss ##", 100, forwardDur));
            trace.rawEvent(hostEvent("python_function", "nn.Module: Head_0", 100, forwardDur));
            trace.rawEvent(hostEvent("python_function", "model.py(10): forward", 100, forwardDur));
            mm(trace, 110, 1, 120, 30);
            mm(trace, secondMm, 2, secondMm + 15, 20);
            const double shift = forwardDur - 150;
            mm(trace, 310 + shift, 4, 330 + shift, 10);
            mm(trace, 360 + shift, 5, 370 + shift, 10);
            return trace;
        };
        const FusionReport report = compareWritten(withChain(150, 200), withChain(190, 240));
        QVERIFY(!report.whereToLookFirst.empty());
        const LookFirstEntry& first = report.whereToLookFirst.front();
        QCOMPARE(first.kind, LookFirstKind::Host);
        QCOMPARE(first.op, std::string("model.py: forward"));
        QVERIFY2(first.title.find("runs model.py: forward (inside nn.Module: Head_0): ") != std::string::npos,
            first.title.c_str());
        QVERIFY(std::find(first.details.begin(), first.details.end(),
                    "on b (NVIDIA H100 80GB HBM3) it runs inside nn.Module: Head_0, inside ## loss ##")
            != first.details.end());
        // The chain is read from the codes: forward's caller, the module's, none above the region.
        const StepTimeSide& b = report.stepTime.sides[1];
        const auto codeOf = [&b](const std::string& name) {
            for (size_t i = 0; i < b.codes.size(); ++i) {
                if (b.codes[i].name == name)
                    return int32_t(i);
            }
            return int32_t(-1);
        };
        QVERIFY(codeOf("## loss ##") >= 0);
        QCOMPARE(b.codes[size_t(codeOf("nn.Module: Head_0"))].caller, codeOf("## loss ##"));
        QCOMPARE(b.codes[size_t(codeOf("## loss ##"))].caller, -1);
    }

    void hashesPairAndNamesStayReadable()
    {
        // A content hash pairs as <hash> across runs; a CamelCase name with a digit in it is a
        // name (an entry said "inside <hash>" for MaxPool2DWithIndicesBackward on a 2021 trace).
        const auto key = [](const char* name) { return idlePairingKey({ name, HostCodeKind::Operator }); };
        QCOMPARE(key("## Call CompiledFxGraph fud64jsrxcxliekg7lptyw24yz5k3oa65b73wjfbhz6j2fg6ouu7 ##"),
            std::string("## Call CompiledFxGraph <hash> ##"));
        QCOMPARE(key("graph 9F86D081884C7D659A2FEAA0C55AD015A3BF4F1B"), std::string("graph <hash>"));
        QCOMPARE(key("MaxPool2DWithIndicesBackward"), std::string("MaxPool2DWithIndicesBackward"));
        QCOMPARE(key("nn.Module: Owlv2ForObjectDetection_0"), std::string("nn.Module: Owlv2ForObjectDetection_0"));
        QCOMPARE(key("hipGetDevicePropertiesR0600"), std::string("hipGetDevicePropertiesR0600"));
    }

    void clocksThatDisagreeAreOtherIdleWithANote()
    {
        // The second kernel starts at 190, before its launch at 202 is recorded.
        const FusionReport report = compareWritten(twoSteps(190), twoSteps(190));
        QCOMPARE(idleOf(report, IdleCause::Other,
                     "the launch is recorded after its work started: the host and device clocks disagree"),
            40.0); // 150..190
        bool noted = false;
        for (const std::string& note : report.stepTime.notes)
            noted |= note.find("clocks disagree") != std::string::npos;
        QVERIFY(noted);
    }

    void gpuOnlyTracesAreOneStepOfOtherIdle()
    {
        // Kernels without any host event: one step, its 30 us of idle other_idle, and notes.
        TraceWriter gpuOnly;
        gpuOnly.nvidia();
        for (int i = 0; i < 4; ++i)
            gpuOnly.kernel({ "ampere_sgemm_128x64_nn", 1000.0 + 20 * i, 10, int64_t(i + 1), std::nullopt });
        const FusionReport report = compareWritten(gpuOnly, gpuOnly);
        const StepTimeReport& steps = report.stepTime;
        QCOMPARE(steps.phases, std::vector<std::string> { "whole trace" });
        const StepTimeSide& side = steps.sides[0];
        QVERIFY(!side.hostEvents);
        QCOMPARE(side.steps.size(), size_t(1));
        QCOMPARE(side.steps[0].timeUs(), 70.0);
        QCOMPARE(side.steps[0].idleTotalUs(), 30.0);
        QCOMPARE(side.steps[0].idleUs[size_t(IdleCause::Other)], 30.0);
        bool noSteps = false, noHost = false;
        for (const std::string& note : steps.notes) {
            noSteps |= note.find("has no steps") != std::string::npos;
            noHost |= note.find("no runtime call in the trace launches its GPU work") != std::string::npos;
        }
        QVERIFY(noSteps && noHost);
        QVERIFY(!report.timeGap.onStepTime); // nothing says the host kept the GPU waiting
        for (const LookFirstEntry& entry : report.whereToLookFirst)
            QVERIFY(entry.kind != LookFirstKind::Host && entry.kind != LookFirstKind::Sync
                && entry.kind != LookFirstKind::Launch);
    }

    void severalLaunchingThreadsChargeTheThreadTheyWaitFor()
    {
        // Thread 1 launches a kernel (120..150), then runs an operator for 60 us; thread 2, which records
        // nothing until then (it waits for thread 1), launches the next kernel at 212 (start 220).
        TraceWriter trace;
        trace.nvidia();
        trace.rawEvent(hostEvent("user_annotation", "ProfilerStep#1", 100, 140));
        mm(trace, 110, 1, 120, 30);
        trace.rawEvent(hostEvent("cpu_op", "aten::item", 150, 60));
        mm(trace, 210, 2, 220, 10, 5, 2);
        const FusionReport report = compareWritten(trace, trace);
        const StepTimeSide& side = report.stepTime.sides[0];
        QCOMPARE(side.launchingThreads, uint64_t(2));
        QVERIFY(hasNote(report, "2 host threads launch GPU work"));
        // 100..112, 150..212 and the step's host tail 230..240, in which thread 2 runs nothing recorded.
        QCOMPARE(side.steps.front().idleUs[size_t(IdleCause::Host)], 12.0 + 62.0 + 10.0);
        QCOMPARE(idleOf(report, IdleCause::Host, "aten::item"), 60.0);
        QCOMPARE(idleOf(report, IdleCause::Host, "aten::mm"), 2.0 + 2.0); // 110..112 on thread 1, 210..212 on 2
    }

    void idleAThreadWaitedForIsChargedToTheCodeItWaitedFor()
    {
        // A: cat 100..110 launches its kernel for 120..220; the GPU idles 220..240 in item (10 us).
        // B: cat stalls to 200 and its kernel runs 260..360, after thread 1's; the GPU idles
        // 120..240, 100 us of it in item, whose own time did not grow: the stall's 90 us are cat's
        // (its own time grew by 90 with no idle to show for it), the last 90 of item's interval.
        const FusionReport report = compareWritten(waitedFor(10, 120), waitedFor(100, 260));
        QCOMPARE(idleOfSide(report, 0, "aten::item"), 10.0);
        QCOMPARE(idleOfSide(report, 1, "aten::item"), 10.0);
        QCOMPARE(idleOfSide(report, 0, "aten::cat"), 0.0);
        QCOMPARE(idleOfSide(report, 1, "aten::cat"), 90.0);
        QVERIFY(hasNote(report, "B: 90.0 us of host idle charged to code whose own time did not grow"));
        QVERIFY(hasNote(report, "aten::cat (90.0 us)"));
        // The intervals the timeline shows say the same: item keeps 130..140, cat 140..230.
        const StepTimeSide& b = report.stepTime.sides[1];
        const std::vector<uint32_t> cat = idleIntervalsOf(b, IdleCause::Host, "aten::cat");
        QCOMPARE(cat.size(), size_t(1));
        QCOMPARE(b.idle[cat.front()].begin, 140.0);
        QCOMPARE(b.idle[cat.front()].end, 230.0);
        const std::vector<uint32_t> item = idleIntervalsOf(b, IdleCause::Host, "aten::item");
        QCOMPARE(item.size(), size_t(1));
        QCOMPARE(b.idle[item.front()].end, 140.0);
        QVERIFY(std::is_sorted(b.idle.begin(), b.idle.end(),
            [](const IdleInterval& x, const IdleInterval& y) { return x.begin < y.begin; }));
        QCOMPARE(report.whereToLookFirst.front().op, std::string("aten::cat"));
        for (const IdleCauseEntry& entry : report.stepTime.causes) {
            if (entry.key == "aten::cat" || entry.key == "aten::item")
                QCOMPARE(entry.intervals[1], uint64_t(1)); // the one gap both are charged in
        }

        // The same growth on the thread that ran item itself moves nothing: it did not wait for it.
        const FusionReport sameThread = compareWritten(waitedFor(10, 120, 1, 260), waitedFor(90, 260, 1, 260));
        QCOMPARE(idleOfSide(sameThread, 1, "aten::item"), 100.0);
        QVERIFY(!hasNote(sameThread, "of host idle charged to code whose own time"));
    }

    void workThatWaitedAfterItsLaunchIsLaunchIdle()
    {
        // The second kernel is launched at 202 (its call returns at 207) and starts at 500: it waited
        // for something else, so the host's Python before the launch did not keep the GPU idle.
        TraceWriter trace;
        trace.nvidia();
        trace.rawEvent(hostEvent("user_annotation", "ProfilerStep#1", 100, 200));
        trace.rawEvent(hostEvent("python_function", "model.py(10): forward", 100, 150));
        mm(trace, 110, 1, 120, 30);
        mm(trace, 200, 2, 500, 20);
        const FusionReport report = compareWritten(trace, trace);
        const StepRecord& step = report.stepTime.sides[0].steps.front();
        QCOMPARE(step.idleUs[size_t(IdleCause::Host)], 12.0); // 100..112: before the first launch
        QCOMPARE(step.idleUs[size_t(IdleCause::Launch)], 8.0 + 350.0); // 112..120 and 150..500
        QCOMPARE(idleOf(report, IdleCause::Host, "model.py: forward"), 10.0); // 100..110, then aten::mm
    }

    void aDeviceClockAheadOfTheHostsIsLaunchIdleWithANote()
    {
        // The same host-bound step, its device clock once in step with the host's and once 300 us ahead.
        const FusionReport inStep = compareWritten(hostBound(0), hostBound(0));
        QCOMPARE(idleOf(inStep, IdleCause::Host, "model.py: prepare"), 200.0); // 4 gaps of 50 us
        QVERIFY(!hasNote(inStep, "device clock may be ahead"));
        const FusionReport ahead = compareWritten(hostBound(300), hostBound(300));
        QCOMPARE(idleOf(ahead, IdleCause::Host, "model.py: prepare"), 0.0);
        std::string notes;
        for (const std::string& note : ahead.stepTime.notes)
            notes += note + "\n";
        QVERIFY2(hasNote(ahead, "the device clock may be ahead of the host's"), notes.c_str());
        const StepRecord& step = ahead.stepTime.sides[0].steps.front();
        QCOMPARE(step.idleTotalUs(), step.idleUs[size_t(IdleCause::Launch)]);
        // Behind it, the work starts before its launch is recorded: other_idle with a note.
        const FusionReport behind = compareWritten(hostBound(-30), hostBound(-30));
        QCOMPARE(idleOf(behind, IdleCause::Host, "model.py: prepare"), 0.0);
        notes.clear();
        for (const std::string& note : behind.stepTime.notes)
            notes += note + "\n";
        QVERIFY2(hasNote(behind, "clocks disagree"), notes.c_str());
    }

    void oldSchemaGpuOnlyTracesAreOtherIdleWithANote()
    {
        // 2021-schema kernels (category "Kernel") without any runtime event: other_idle, and why.
        TraceWriter gpuOnly;
        for (int i = 0; i < 3; ++i)
            gpuOnly.rawEvent("{\"ph\": \"X\", \"cat\": \"Kernel\", \"name\": \"volta_sgemm_128x64_nn\", "
                             "\"pid\": 0, \"tid\": 7, \"ts\": "
                + std::to_string(1000 + 30 * i) + ", \"dur\": 10, \"args\": {\"device\": 0, \"stream\": 7}}");
        const FusionReport report = compareWritten(gpuOnly, gpuOnly);
        const StepTimeSide& side = report.stepTime.sides[0];
        QVERIFY(!side.hostEvents);
        QCOMPARE(side.steps.size(), size_t(1));
        QCOMPARE(side.steps[0].idleTotalUs(), 40.0);
        QCOMPARE(side.steps[0].idleUs[size_t(IdleCause::Other)], 40.0);
        QVERIFY(hasNote(report, "no runtime call in the trace launches its GPU work"));
        QVERIFY(!report.timeGap.onStepTime);
    }

    void graphLaunchesAndTheOldSchemaAddUp()
    {
        // Real traces with graph launches and the 2021 schema: the step-time parts add up.
        for (const char* name : { "real/sglang_qwen3-8b_decode.mi300x.json.gz",
                 "real/resnet50_2021_schema.worker0.pt.trace.json.gz", "real/minitoy_train_rocm6.2.mi250.json.gz" }) {
            const std::string path = dataPath(name).toStdString();
            const TraceStore a = loadTrace(path);
            const TraceStore b = loadTrace(path);
            const FusionReport report = analyzeFusion(a, b, Classifier::builtin("default"), {});
            QVERIFY2(report.timeGap.stepTime, name);
            if (std::string(name).find("sglang") != std::string::npos)
                QVERIFY(hasNote(report, "launches 1 graph: a gap between kernels of a launched graph is launch idle"));
            const TimeGapBreakdown& steps = *report.timeGap.stepTime;
            for (size_t side = 0; side < 2; ++side) {
                double parts = 0;
                for (const TimeGapPart& part : steps.parts)
                    parts += part.cause == GapCause::Overlap ? -part.timeUs[side] : part.timeUs[side];
                QVERIFY2(std::fabs(parts - steps.timeUs[side]) < 1e-6 * steps.timeUs[side], name);
            }
        }
    }
    void notRecordedWorkBelongsToTheStepOfItsLaunch()
    {
        // A graph launched at 150 in step 1 (host 100..200): its last recorded kernel ends at 210
        // and its work goes on unrecorded until 260. Step 1 ends where step 2 starts, at 300, with 50 us
        // not recorded, though that work starts after step 1's host end: it is the step of the launch,
        // not of the work's start. Step 2 (host 300..400) holds one kernel, 320..330, and its host tail.
        TraceWriter trace;
        trace.nvidia();
        trace.rawEvent(hostEvent("cuda_runtime", "cudaGraphLaunch", 150, 5, "\"correlation\": 1"));
        trace.rawEvent(gpuEvent("kernel", "ampere_sgemm_128x64_nn", 160, 50, 1));
        mm(trace, 310, 2, 320, 10);
        QTemporaryDir dir;
        const TraceStore store = loadTrace(trace.write(dir, "a.json").toStdString());
        const std::vector<HostStep> steps { { 100, 200, 0 }, { 300, 400, 0 } };
        const std::vector<NotRecordedSpan> notRecorded { { 210, 260, 1 } };
        const StepTimeTrace side { store, steps, &notRecorded };
        const StepTimeAnalysis analysis = analyzeStepTime({ side, side }, { 0 });
        const std::vector<StepRecord>& records = analysis.report.sides[0].steps;
        QCOMPARE(records.size(), size_t(2));
        QCOMPARE(records[0].end, 300.0);
        QCOMPARE(records[0].notRecordedUs, 50.0);
        QCOMPARE(records[0].busyUs, 100.0); // the kernel and the unrecorded work: one busy block
        QCOMPARE(records[1].begin, 300.0);
        QCOMPARE(records[1].end, 400.0);
        QCOMPARE(records[1].busyUs, 10.0);
        QCOMPARE(analysis.totals.busyUs[0], 110.0);
        QCOMPARE(analysis.report.sides[0].gpuSpanUs, 170.0); // 160 to 330
    }

    void aBusyBlockAcrossTwoStepsCountsInBoth()
    {
        // Step 1 (host 100..200) launches a kernel at 140 that runs 150..205; step 2 (host
        // 200..300) launches one at 201 that the device starts at 195 (its clock a little ahead).
        // The two make one busy block, 150..240, which step 1 (to 205) and step 2 (205 to its host
        // end, 300) share.
        TraceWriter trace;
        trace.nvidia();
        mm(trace, 138, 1, 150, 55);
        mm(trace, 199, 2, 195, 45);
        QTemporaryDir dir;
        const TraceStore store = loadTrace(trace.write(dir, "a.json").toStdString());
        const std::vector<HostStep> steps { { 100, 200, 0 }, { 200, 300, 0 } };
        const StepTimeTrace side { store, steps, nullptr };
        const StepTimeAnalysis analysis = analyzeStepTime({ side, side }, { 0 });
        const std::vector<StepRecord>& records = analysis.report.sides[0].steps;
        QCOMPARE(records.size(), size_t(2));
        QCOMPARE(records[0].end, 205.0);
        QCOMPARE(records[0].busyUs, 55.0);
        QCOMPARE(records[1].begin, 205.0);
        QCOMPARE(records[1].end, 300.0);
        QCOMPARE(records[1].busyUs, 35.0);
        QCOMPARE(analysis.totals.busyUs[0], 90.0);
        QCOMPARE(analysis.report.sides[0].gpuSpanUs, 90.0);
    }
};

QTEST_GUILESS_MAIN(TestStepTime)
#include "tst_steptime.moc"
