// The launch idle a host stall causes after it (core/ops/timegap/drainedlaunch.h): a stall empties
// the GPU's queue, and every launch's latency shows until the host is ahead again. And the kernel
// time that leaves the steps (core/ops/timegap/workleftsteps.h), which caps a host entry's stake. Built on
// hand-made traces whose GPU follows its launches as a GPU does (work starts at the later of the
// work before it and its launch's end plus 1 us), so every idle microsecond is known.
#include "comparedpair.h"
#include "ops/timegap/drainedlaunch.h"
#include "ops/timegap/workleftsteps.h"
#include "tracewriter.h"

#include <QtTest>

#include <algorithm>
#include <array>
#include <map>
#include <string>
#include <vector>

using namespace fusiondiff;
using namespace fusiondiff::test;

namespace {

std::string hostEvent(const char* cat, const std::string& name, double ts, double dur, const std::string& args = {})
{
    return "{\"ph\": \"X\", \"cat\": \"" + std::string(cat) + "\", \"name\": \"" + name
        + "\", \"pid\": 100, \"tid\": 1, \"ts\": " + std::to_string(ts) + ", \"dur\": " + std::to_string(dur)
        + ", \"args\": {" + args + "}}";
}

std::string kernelEvent(double ts, double dur, int64_t correlation)
{
    return "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"" + kAdd
        + "\", \"pid\": 0, \"tid\": 7, \"ts\": " + std::to_string(ts) + ", \"dur\": " + std::to_string(dur)
        + ", \"args\": {\"device\": 0, \"stream\": 7, \"correlation\": " + std::to_string(correlation)
        + ", \"External id\": " + std::to_string(correlation) + "}}";
}

constexpr int kLaunches = 30;
constexpr double kKernelUs = 20; // each launch's kernel but the first
constexpr double kEveryUs = 25; // the host launches one every 25 us: a little slower than the GPU runs them

// One step: a first kernel of `firstKernelUs` (a long one lets the host get ahead), then
// kLaunches kernels of aten::add; before the `stallAt`-th, model.py(20): stall runs `stallUs`.
// Each aten::add runs 10 us and launches at +2 (5 us): its kernel starts at the later of the
// kernel before it's end and +8.
TraceWriter launches(double firstKernelUs, int stallAt, double stallUs)
{
    TraceWriter trace;
    trace.nvidia();
    double t = 100;
    double gpuFree = 0;
    const auto add = [&](int64_t id, double kernelUs) {
        const std::string ids = "\"External id\": " + std::to_string(id);
        trace.rawEvent(hostEvent("cpu_op", "aten::add", t, 10, ids));
        trace.rawEvent(
            hostEvent("cuda_runtime", "cudaLaunchKernel", t + 2, 5, ids + ", \"correlation\": " + std::to_string(id)));
        const double start = std::max(gpuFree, t + 8);
        trace.rawEvent(kernelEvent(start, kernelUs, id));
        gpuFree = start + kernelUs;
    };
    add(1, firstKernelUs);
    for (int i = 1; i <= kLaunches; ++i) {
        t += kEveryUs;
        if (i == stallAt) {
            trace.rawEvent(hostEvent("python_function", "model.py(20): stall", t, stallUs));
            t += stallUs;
        }
        add(i + 1, kKernelUs);
    }
    trace.rawEvent(hostEvent("user_annotation", "ProfilerStep#1", 100, t + 10 - 100));
    return trace;
}

const LookFirstEntry* stallEntry(const FusionReport& report)
{
    for (const LookFirstEntry& entry : report.whereToLookFirst) {
        if (entry.kind == LookFirstKind::Host && entry.op == "model.py: stall")
            return &entry;
    }
    return nullptr;
}

} // namespace

class TestDrainedLaunch : public QObject
{
    Q_OBJECT

private slots:
    void theLaunchIdleAfterAStallIsTheStalls()
    {
        // A: the host launches all 30 during the 1-ms first kernel; the GPU runs them back to back.
        // B: the host stalls 1 ms before the 10th; the GPU drains its queue (the 9th ends at 1,288),
        // waits for the host (1,288..1,350 the stall, 1,350..1,352 aten::add, 1,352..1,358 its
        // launch), then runs each of the 21 from the 10th 5 us after the one before (6 us for the
        // first): 106 us of launch idle the stall caused, and 62 us of host idle.
        const FusionReport report = compareWritten(launches(1000, 0, 0), launches(1000, 10, 1000));
        QVERIFY(report.timeGap.onStepTime);
        QVERIFY(!report.whereToLookFirst.empty());
        const LookFirstEntry& first = report.whereToLookFirst.front();
        QCOMPARE(first.kind, LookFirstKind::Host);
        QCOMPARE(first.op, std::string("model.py: stall"));
        QCOMPARE(first.slowerSide, Side::Trace2);
        QCOMPARE(first.stakeUs, 62.0 + 106.0);
        // B's steps end 170 us later (1,878 against 1,708): 2 us of aten::add before the launch are not the stall's.
        QCOMPARE(report.timeGap.stepTime->deltaUs, -170.0);
        const auto said = std::find_if(first.details.begin(), first.details.end(),
            [](const std::string& line) { return line.find("launch idle after its gaps") != std::string::npos; });
        QVERIFY(said != first.details.end());
        QVERIFY2(said->find("with 106 us of launch idle") != std::string::npos, said->c_str());
    }

    void theLaunchIdleAfterAStallIsCountedOnce()
    {
        // The pair above, worked by hand: B's steps are 170 us longer, all of it idle (62 us of
        // the stall, 2 us of aten::add before the 10th launch, 106 us of launch idle after the
        // stall until the host is ahead again; A has none). The stall's entry holds the 106 us, so
        // the launch entry, which held them too (106 us of launch idle on B against 0), keeps
        // none and goes: the entries add up to the 170 us the steps lost, not 276.
        const FusionReport report = compareWritten(launches(1000, 0, 0), launches(1000, 10, 1000));
        QCOMPARE(report.timeGap.stepTime->deltaUs, -170.0);
        double explaining = 0;
        for (const LookFirstEntry& entry : report.whereToLookFirst) {
            QVERIFY2(entry.kind != LookFirstKind::Launch, entry.title.c_str());
            if (!entry.againstGap && entry.noise != NoiseVerdict::WithinNoise)
                explaining += entry.stakeUs;
        }
        QCOMPARE(stallEntry(report)->stakeUs, 168.0);
        QVERIFY2(explaining <= 170.0 + 1e-6, std::to_string(explaining).c_str());
    }

    void hostEntriesShareOnePoolOfDrainedLaunchIdle()
    {
        // Two host codes each have 100 us of drained launch idle on B beyond A, but B's launch
        // idle grew only 100 us in all (A idles 50 us at launches elsewhere): each alone is capped
        // at 100, together they get 50 each. A claim slower on A has no pool (A's launch idle did
        // not grow).
        const std::vector<double> allotted = allotDrainedLaunch(
            { DrainedClaim { 1, 100 }, DrainedClaim { 1, 100 }, DrainedClaim { 0, 30 } }, { 50, 150 });
        QCOMPARE(allotted, (std::vector<double> { 50, 50, 0 }));
        QCOMPARE(allotDrainedLaunch({ DrainedClaim { 1, 60 } }, { 50, 150 }), std::vector<double> { 60 });
        // What they claimed (60 us) comes off the launch entries it was charged to, by the drained
        // idle each holds beyond A: cudaLaunchKernel 90 - 30, cudaMemcpyAsync 30.
        std::array<std::map<std::string, DrainedLaunch>, 2> intoLaunch;
        intoLaunch[0]["cudaLaunchKernel"] = { 30, 3 };
        intoLaunch[1]["cudaLaunchKernel"] = { 90, 9 };
        intoLaunch[1]["cudaMemcpyAsync"] = { 30, 2 };
        const std::map<std::string, double> off
            = drainedOffLaunches({ { "cudaLaunchKernel", 80 }, { "cudaMemcpyAsync", 15 } }, intoLaunch, 1, 60);
        QCOMPARE(off.at("cudaLaunchKernel"), 40.0);
        QCOMPARE(off.at("cudaMemcpyAsync"), 15.0); // 20, at most its stake
        QVERIFY(drainedOffLaunches({ { "cudaLaunchKernel", 80 } }, intoLaunch, 0, 60).empty()); // none beyond on A
    }

    void launchBoundStepsChargeTheStallNoLaunchIdle()
    {
        // With a 20-us first kernel both sides are launch-bound from the start: every kernel waits
        // 5 us for its launch on both, the stall or not (A 156 us of launch idle in 31 gaps, all
        // after aten::add's first gap). B's 106 us after the stall are no more than A has there:
        // the stall is charged its own gap (353..1,350) and the 1 us its launch waits beyond the
        // 5 us A's does, and no line says more.
        const FusionReport report = compareWritten(launches(20, 0, 0), launches(20, 10, 1000));
        const LookFirstEntry* stall = stallEntry(report);
        QVERIFY(stall != nullptr);
        QCOMPARE(stall->stakeUs, 997.0 + 1.0);
        const auto said = std::find_if(stall->details.begin(), stall->details.end(),
            [](const std::string& line) { return line.find("launch idle after its gaps") != std::string::npos; });
        QVERIFY(said == stall->details.end());
    }

    void slowerLaunchesAloneAreNotDrained()
    {
        // As many launches in the drained windows on both sides, each longer on B: a stack whose
        // launches are slower, not a stall. Fewer on B: nothing either.
        QCOMPARE(drainedLaunchBeyondUs({ DrainedLaunch { 100, 20 }, DrainedLaunch { 300, 20 } }, { 100, 300 }, 1), 0.0);
        QCOMPARE(drainedLaunchBeyondUs({ DrainedLaunch { 100, 20 }, DrainedLaunch { 300, 10 } }, { 100, 300 }, 1), 0.0);
        // 30 more launches at B's 10 us each, as far as B's launch idle grew in all.
        const std::array<DrainedLaunch, 2> more { DrainedLaunch { 50, 10 }, DrainedLaunch { 400, 40 } };
        QCOMPARE(drainedLaunchBeyondUs(more, { 100, 250 }, 1), 150.0);
        QCOMPARE(drainedLaunchBeyondUs(more, { 100, 900 }, 1), 300.0);
        QCOMPARE(drainedLaunchBeyondUs(more, { 100, 900 }, 0), 0.0);
    }

    void kernelTimeThatLeftTheStepsIsNotWorkThatGotFaster()
    {
        const auto part = [](GapCause cause, double a, double b) {
            TimeGapPart made;
            made.cause = cause;
            made.timeUs = { a, b };
            return made;
        };
        TimeGap gap;
        // The whole traces run as much collective time and B's kernels 100 us faster; B's steps
        // hold 8,700 us less collective time and 100 us less speed: 8,700 us left them.
        gap.kernelTime.parts = { part(GapCause::Collectives, 50000, 50000), part(GapCause::Speed, 20000, 19900) };
        QCOMPARE(kernelTimeLeftStepsUs(gap, 1), 0.0); // no step-time basis
        gap.stepTime.emplace();
        gap.stepTime->parts = { part(GapCause::Collectives, 40000, 31300), part(GapCause::Speed, 15000, 14900),
            part(GapCause::IdleHost, 0, 22100) };
        QCOMPARE(kernelTimeLeftStepsUs(gap, 1), 8700.0);
        QCOMPARE(kernelTimeLeftStepsUs(gap, 0), 0.0);
    }
};

QTEST_GUILESS_MAIN(TestDrainedLaunch)
#include "tst_drainedlaunch.moc"
