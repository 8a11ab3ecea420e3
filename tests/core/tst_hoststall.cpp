// The step time held to known answers: trace B is made from a real trace A by stalling the host
// at the start of every call of one function (tests/support/hoststall.h). The comparison must
// lead with the step gap, rank the stalled function first in "where to look first", and put its
// stake within 20% of the GPU idle the stall caused. Inference and training traces, eager and
// with graphs, at several seeds each.
#include "classify/classifier.h"
#include "fusionanalysis.h"
#include "hoststall.h"
#include "load/traceloader.h"
#include "testdata.h"

#include <QtTest>

#include <cmath>

using namespace fusiondiff;
using namespace fusiondiff::test;

namespace {

constexpr double kShareOfStep = 0.15; // the stall, as a share of the median step
constexpr double kStakeTolerance = 0.2;

} // namespace

class TestHostStall : public QObject
{
    Q_OBJECT

private slots:
    void theStallLeadsTheReport_data()
    {
        QTest::addColumn<QString>("trace");
        QTest::addColumn<int>("seed");
        QTest::addColumn<QString>("knownFailure");
        const struct
        {
            const char* trace;
            int seeds;
        } traces[] = {
            { "real/bert-small-uncased.mi300x.json.gz", 4 }, // inference, eager
            { "real/timesformer-base-finetuned-k400.h100.json.gz", 3 }, // inference, eager
            { "real/minitoy_train_rocm6.2.mi250.json.gz", 3 }, // training, eager, two launching threads
            { "real/sglang_qwen3-8b_decode.mi300x.json.gz", 4 }, // inference, HIP graphs
            { "real/hta_trace_diff_test.v100.json.gz", 4 }, // training, CUDA graphs
        };
        for (const auto& [trace, seeds] : traces) {
            for (int seed = 1; seed <= seeds; ++seed) {
                QString known;
                const QString name = QString(trace);
                if (name.contains("sglang") && (seed == 1 || seed == 4))
                    known = "the stalled function runs before the trace's 463 ms blocking copy, whose DtoH transfer "
                            "waited on an idle GPU; the constructor keeps that wait, so B's idle is the host "
                            "waiting in hipMemcpyWithStream (sync), not the function";
                if (name.contains("hta_trace_diff"))
                    known = "pipelined training steps: kernels of a stalled step move out of its window, so the "
                            "step gap is not the idle the stall caused, and part of the idle lands on the "
                            "cudaMemcpyAsync the stalled operator issues";
                QTest::addRow("%s seed %d", trace, seed) << name << seed << known;
            }
        }
    }

    void theStallLeadsTheReport()
    {
        QFETCH(QString, trace);
        QFETCH(int, seed);
        QFETCH(QString, knownFailure);
        const Classifier classifier = Classifier::builtin("default");
        const std::string path = dataPath(trace).toStdString();
        const TraceStore a = loadTrace(path);
        const HostStall stall = chooseStall(a, uint64_t(seed), 0, kShareOfStep);
        QVERIFY2(!stall.function.empty(), "no function to stall");
        TraceStore b = loadTrace(path);
        QVERIFY(stallHost(b, stall) >= stall.calls); // and the calls outside the compared steps
        const FusionReport report = analyzeFusion(a, b, classifier, {});
        const StallScore score = scoreStall(report, stall);
        const QByteArray what = QString("stalled %1 by %2 us in %3 calls: idle caused %4 us, step gap %5 us, first "
                                        "%6 %7 (%8 us)")
                                    .arg(QString::fromStdString(stall.function))
                                    .arg(stall.stallUs)
                                    .arg(stall.calls)
                                    .arg(score.idleCausedUs)
                                    .arg(score.stepGapUs)
                                    .arg(QString::fromStdString(score.firstKind), QString::fromStdString(score.firstOp))
                                    .arg(score.firstStakeUs)
                                    .toUtf8();
        // The stall makes B slower, and the headline is the step gap.
        QVERIFY2(score.onStepTime, what.constData());
        QCOMPARE(score.headlineDeltaUs, score.stepGapUs);
        QVERIFY2(score.idleCausedUs > 0.5 * stall.stallUs, what.constData());
        if (!knownFailure.isEmpty())
            QEXPECT_FAIL("", qPrintable(knownFailure), Continue);
        QVERIFY2(score.firstIsStall
                && std::fabs(score.firstStakeUs - score.idleCausedUs) <= kStakeTolerance * score.idleCausedUs
                && std::fabs(score.stepGapUs - score.idleCausedUs) <= kStakeTolerance * score.idleCausedUs,
            what.constData());
    }

    void withoutAStallNothingIsCharged()
    {
        // B = A: no step gap, and no host entry in "where to look first".
        const Classifier classifier = Classifier::builtin("default");
        const std::string path = dataPath("real/bert-small-uncased.mi300x.json.gz").toStdString();
        const TraceStore a = loadTrace(path);
        TraceStore b = loadTrace(path);
        HostStall none = chooseStall(a, 1, 0, kShareOfStep);
        none.stallUs = 0;
        stallHost(b, none);
        const FusionReport report = analyzeFusion(a, b, classifier, {});
        QVERIFY(report.timeGap.stepTime);
        QCOMPARE(report.timeGap.stepTime->deltaUs, 0.0);
        for (const LookFirstEntry& entry : report.whereToLookFirst)
            QVERIFY(entry.kind != LookFirstKind::Host);
    }
};

QTEST_GUILESS_MAIN(TestHostStall)
#include "tst_hoststall.moc"
