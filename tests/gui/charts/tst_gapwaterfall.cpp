// The waterfall of the time gap between A and B: its steps add up from A's GPU time to B's, a
// remainder the parts do not explain is shown as such, and its bars are hit-tested and clickable.

#include "charts/gapbycause.h"
#include "charts/gapbytype.h"
#include "charts/gapwaterfall.h"
#include "display/sidenames.h"
#include "model/fusionreport.h"

#include <QFontMetrics>
#include <QSignalSpy>
#include <QTest>

using namespace fusiondiff;
using namespace fusiondiff::ui;

class TestGapWaterfall : public QObject
{
    Q_OBJECT

private:
    static GapWaterfallData sample()
    {
        GapWaterfallData data;
        data.nameA = QStringLiteral("AMD");
        data.nameB = QStringLiteral("NVIDIA");
        data.totalUs[0] = 10000;
        data.totalUs[1] = 12500;
        data.parts = { { QStringLiteral("Unfused attention"), 3000, QStringLiteral("B runs softmax apart"), true },
            { QStringLiteral("Faster GEMM"), -1000, QStringLiteral("B's GEMM kernels are quicker"), false },
            { QStringLiteral("Launch gaps"), 500, QString(), false } };
        return data;
    }

private Q_SLOTS:
    // Where the gap is as large as the totals' half, the axis starts at zero and the totals' bars
    // are to scale.
    void aLargeGapIsDrawnFromZero()
    {
        GapWaterfall chart;
        chart.resize(800, 300);
        GapWaterfallData data = sample();
        data.totalUs[1] = 25000;
        data.parts.push_back({ QStringLiteral("Idle"), 12500, QString(), false });
        chart.setData(data);
        QCOMPARE(chart.axisFloor(), 0.0);
        QVERIFY(std::abs(chart.barRect(5).height() / chart.barRect(0).height() - 2.5) < 0.01);
    }

    void stepsAddUpFromAToB()
    {
        GapWaterfall chart;
        chart.resize(800, 300);
        chart.setData(sample());
        QCOMPARE(chart.parts().size(), size_t(3)); // they add up: no remainder
        // Each part's bar starts where the previous one ended.
        const QRectF a = chart.barRect(0);
        const QRectF attention = chart.barRect(1);
        const QRectF gemm = chart.barRect(2);
        const QRectF b = chart.barRect(4);
        QVERIFY(std::abs(attention.bottom() - a.top()) < 0.5); // rises from A's top
        QVERIFY(std::abs(gemm.top() - attention.top()) < 0.5); // falls from the running total
        QVERIFY(b.height() > a.height());
        // A gap of 30% at most of the totals: the axis starts above zero, below the lowest total.
        const double floor = chart.axisFloor();
        QVERIFY(floor > 0 && floor < 10000);
        QVERIFY(std::abs(b.height() / a.height() - (12500 - floor) / (10000 - floor)) < 0.01);
        QVERIFY(chart.barToolTip(1).contains(QStringLiteral("+3.0 ms")));
        QVERIFY(chart.barToolTip(1).contains(QStringLiteral("kernel fusion")));
        QVERIFY(chart.barToolTip(2).contains(QStringLiteral("-1.0 ms")));
    }

    void aRemainderIsNotAttributed()
    {
        GapWaterfallData data = sample();
        data.parts.pop_back(); // 500 us unexplained
        GapWaterfall chart;
        chart.setData(data);
        QCOMPARE(chart.parts().size(), size_t(3));
        QCOMPARE(chart.parts().back().title, QStringLiteral("Not attributed"));
        QCOMPARE(chart.parts().back().deltaUs, 500.0);
    }

    void clickingABarReportsItsPart()
    {
        GapWaterfall chart;
        chart.resize(800, 300);
        chart.setData(sample());
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        QSignalSpy clicked(&chart, &GapWaterfall::partClicked);
        QTest::mouseClick(&chart, Qt::LeftButton, {}, chart.barRect(2).center().toPoint());
        QCOMPARE(clicked.size(), 1);
        QCOMPARE(clicked[0][0].toInt(), 1);
        QCOMPARE(chart.barAt(chart.barRect(0).center()), 0);
        QTest::mouseClick(&chart, Qt::LeftButton, {}, chart.barRect(0).center().toPoint()); // a total: no part
        QCOMPARE(clicked.size(), 1);
        QCOMPARE(chart.barAt(QPointF(chart.barRect(1).center().x(), 2)), -1); // above the bar
    }

    // A step-time breakdown where A is slower: the waterfall climbs from B's step time to A's, the
    // idle causes are parts of their own, and each part has the verdict's sign (what it adds to
    // the slower side's time: "host +20 ms" in the verdict is +20 ms on the bar).
    void aStepTimeGapClimbsToTheSlowerSideWithTheVerdictsSigns()
    {
        FusionReport report;
        TimeGapBreakdown steps;
        steps.basis = TimeBasis::StepTime;
        steps.timeUs = { 50000, 26000 };
        steps.deltaUs = 24000;
        const auto part = [](GapCause cause, const char* label, double deltaUs) {
            TimeGapPart p;
            p.cause = cause;
            p.label = label;
            p.deltaUs = deltaUs;
            return p;
        };
        steps.parts = { part(GapCause::IdleHost, "host", 20000), part(GapCause::Collectives, "collectives", 5000),
            part(GapCause::Speed, "speed", -1500), part(GapCause::IdleSync, "sync", 500),
            part(GapCause::IdleLaunch, "launch", 0), part(GapCause::Residual, "residual", 0.001) };
        std::vector<GapCause> causes;
        const GapWaterfallData data = gapByCause(report, steps, &causes);
        QVERIFY(data.fromB);
        QCOMPARE(data.parts.size(), size_t(4)); // no empty launch part, no rounding residual
        QCOMPARE(causes,
            (std::vector<GapCause> { GapCause::IdleHost, GapCause::Collectives, GapCause::Speed, GapCause::IdleSync }));
        QCOMPARE(data.parts[0].deltaUs, 20000.0);
        QCOMPARE(data.parts[2].deltaUs, -1500.0);
        GapWaterfall chart;
        chart.resize(800, 300);
        chart.setData(data);
        QCOMPARE(chart.parts().size(), size_t(4)); // they add up: nothing "Not attributed"
        QVERIFY(chart.barToolTip(0).startsWith(QStringLiteral("<b>B:")));
        QVERIFY(chart.barToolTip(0).contains(QStringLiteral("step time")));
        QVERIFY(chart.barToolTip(5).startsWith(QStringLiteral("<b>A:")));
        QVERIFY(chart.barToolTip(1).contains(QStringLiteral("+20")));
        // The host bar rises: its top is above B's total's.
        QVERIFY(chart.barRect(1).top() < chart.barRect(0).top());

        // B slower: from A to B, the signs again the slower side's.
        for (TimeGapPart& p : steps.parts)
            p.deltaUs = -p.deltaUs;
        steps.deltaUs = -steps.deltaUs;
        std::swap(steps.timeUs[0], steps.timeUs[1]);
        const GapWaterfallData flipped = gapByCause(report, steps, nullptr);
        QVERIFY(!flipped.fromB);
        QCOMPARE(flipped.parts[0].deltaUs, 20000.0);
        QCOMPARE(flipped.parts[2].deltaUs, -1500.0);
    }

    // In a narrow chart a label's word wider than its slot is elided, not cut at both ends
    // ("nattribute" at scale 2); words that fit stay whole and wrap.
    void aLabelWiderThanItsSlotIsElided()
    {
        GapWaterfall chart;
        GapWaterfallData data = sample();
        data.parts[2].title = QStringLiteral("unattributed");
        data.parts[1].title = QStringLiteral("extra kernels");
        chart.setData(data);
        chart.resize(300, 200);
        const double slot = chart.barRect(3).width() / 0.7;
        const QFontMetrics metrics(chart.font());
        QVERIFY2(metrics.horizontalAdvance(QStringLiteral("unattributed")) > slot, "the test needs a narrow slot");
        const QString label = chart.barLabel(3);
        QVERIFY2(label.startsWith(QStringLiteral("un")) && label.endsWith(QChar(0x2026)), qPrintable(label));
        QVERIFY(metrics.horizontalAdvance(label) <= slot);
        chart.resize(1200, 300);
        QCOMPARE(chart.barLabel(3), QStringLiteral("unattributed"));
        QCOMPARE(chart.barLabel(2), QStringLiteral("extra kernels"));
        QCOMPARE(chart.barLabel(0), QStringLiteral("A: AMD"));
    }

    // Two ranks of one file name: the core names them "A: x" and "B: x", and the totals' bars say
    // each side once ("A: x", not "A: A:"), with x shortened alike on both.
    void alikeNamesSayTheirSideOnce()
    {
        FusionReport report;
        report.sideNames
            = { "A: worker2.v100.pt.trace (Tesla V100-SXM2-32GB)", "B: worker2.v100.pt.trace (Tesla V100-SXM2-32GB)" };
        GapWaterfallData data = sample();
        data.nameA = sideAlias(report, 0);
        data.nameB = sideAlias(report, 1);
        QVERIFY2(data.nameA.startsWith(QStringLiteral("A: w")) && data.nameB.startsWith(QStringLiteral("B: w")),
            qPrintable(data.nameA + QStringLiteral(" / ") + data.nameB));
        QCOMPARE(data.nameA.mid(3), data.nameB.mid(3));
        GapWaterfall chart;
        chart.setData(data);
        chart.resize(1600, 300);
        int last = 0;
        while (!chart.barLabel(last + 1).isEmpty())
            ++last;
        QVERIFY(chart.barLabel(last).startsWith(QStringLiteral("B: w")));
        for (const int bar : { 0, last }) {
            QVERIFY2(!chart.barLabel(bar).contains(QStringLiteral("A: A:"))
                    && !chart.barLabel(bar).contains(QStringLiteral("B: B:")),
                qPrintable(chart.barLabel(bar)));
            QVERIFY2(!chart.barToolTip(bar).contains(QStringLiteral("A: A:")), qPrintable(chart.barToolTip(bar)));
        }
        QVERIFY(chart.barLabel(0).startsWith(QStringLiteral("A: w")));
    }

    // The waterfall by kernel type (where the time gap has no parts) follows the same convention:
    // from the faster side to the slower, each type's bar what it adds to the slower side's time.
    void theKernelTypeWaterfallClimbsToTheSlowerSide()
    {
        FusionReport report;
        report.classifier.categories = { "GEMM", "Attention", "Norm" };
        report.traces[0].kernelTimeUs = 9000;
        report.traces[1].kernelTimeUs = 6000;
        const auto counts = [](CategoryId type, double a, double b) {
            TypeCount c;
            c.type = type;
            c.count = { 3, 3 };
            c.timeUs = { a, b };
            return c;
        };
        report.globalCounts = { counts(0, 5000, 2000), counts(1, 3000, 3500), counts(2, 1000, 500) };
        QList<int> rows;
        const GapWaterfallData aSlower = gapByKernelType(report, 8, &rows);
        QVERIFY(aSlower.fromB);
        QCOMPARE(rows, QList<int>({ 0, 1, 2 }));
        QCOMPARE(aSlower.parts[0].deltaUs, 3000.0); // A's extra time in type 0
        QCOMPARE(aSlower.parts[1].deltaUs, -500.0); // B's extra time works the other way
        QCOMPARE(aSlower.parts[2].deltaUs, 500.0);
        GapWaterfall chart;
        chart.resize(800, 300);
        chart.setData(aSlower);
        QCOMPARE(chart.parts().size(), size_t(3)); // they add up from B's total to A's
        QVERIFY(chart.barToolTip(0).startsWith(QStringLiteral("<b>B:")));

        std::swap(report.traces[0].kernelTimeUs, report.traces[1].kernelTimeUs);
        for (TypeCount& c : report.globalCounts)
            std::swap(c.timeUs[0], c.timeUs[1]);
        const GapWaterfallData bSlower = gapByKernelType(report, 8, nullptr);
        QVERIFY(!bSlower.fromB);
        QCOMPARE(bSlower.parts[0].deltaUs, 3000.0);
        QCOMPARE(bSlower.parts[1].deltaUs, -500.0);
    }

    void theBoldHeadlineSaysNoiseFirst()
    {
        // The noise-control pair (issue 39): "A is slower by 4.2 ms (12.8%)" in bold read as a
        // finding, while the verdict could not tell it from run-to-run noise.
        FusionReport report;
        report.timeGap.onStepTime = true;
        report.timeGap.stepTime.emplace();
        report.timeGap.verdict = "A (x) is slower than B (y) by 4.2 ms (12.8%) in step time (36.7 ms vs 32.5 ms): the "
                                 "GPU waits; whether that is more than run-to-run noise cannot be told with one step "
                                 "a side; in GPU kernel time they are the same within run-to-run noise.";
        report.timeGap.stepTime->noise.verdict = NoiseVerdict::CannotTell;
        QVERIFY2(gapCauseVerdict(report).startsWith(
                     QStringLiteral("<b>Cannot tell from run-to-run noise: A (x) is slower than B (y) by 4.2 ms")),
            qPrintable(gapCauseVerdict(report)));
        report.timeGap.stepTime->noise.verdict = NoiseVerdict::WithinNoise;
        QVERIFY(gapCauseVerdict(report).startsWith(QStringLiteral("<b>Within run-to-run noise: A (x)")));
        report.timeGap.stepTime->noise.verdict = NoiseVerdict::Significant;
        QVERIFY(
            gapCauseVerdict(report).startsWith(QStringLiteral("<b>A (x) is slower than B (y) by 4.2 ms (12.8%)</b>")));
    }

    void theNoiseBandStandsOnTheFasterTotal()
    {
        // Issue 39: the waterfall shows how large a gap run-to-run noise could make. From A's
        // 10 ms, noise of up to 3 ms: B's 12.5 ms total ends inside the band (within noise).
        GapWaterfall chart;
        chart.resize(800, 300);
        GapWaterfallData data = sample();
        chart.setData(data);
        QVERIFY(chart.noiseBandRect().isEmpty()); // no noise given: no band
        data.noiseUs = 3000;
        chart.setData(data);
        const QRectF band = chart.noiseBandRect();
        QVERIFY(!band.isEmpty());
        QVERIFY(std::abs(band.bottom() - chart.barRect(0).top()) < 0.5); // from A's total
        QVERIFY(band.top() < chart.barRect(4).top()); // above B's total: B ends inside it
        QCOMPARE(chart.noiseBandLabel(), QStringLiteral("run-to-run noise: up to 3.0 ms"));
        // Its label clear of the slower total's bar and the value drawn above it.
        const QRectF label = chart.noiseLabelRect();
        QVERIFY(!label.isEmpty());
        QVERIFY(label.right() <= chart.barRect(int(chart.parts().size()) + 1).left());
        data.noiseUs = 1000; // below B's total now
        chart.setData(data);
        QVERIFY(chart.noiseBandRect().top() > chart.barRect(4).top());

        // The core's noise, on the headline's basis, unless it cannot be told.
        FusionReport report;
        TimeGapBreakdown gap;
        gap.timeUs = { 10000, 12500 };
        gap.deltaUs = -2500;
        gap.noise.verdict = NoiseVerdict::WithinNoise;
        gap.noise.noiseUs = 3000;
        QCOMPARE(gapByCause(report, gap, nullptr).noiseUs, 3000.0);
        gap.noise.verdict = NoiseVerdict::CannotTell;
        QCOMPARE(gapByCause(report, gap, nullptr).noiseUs, 0.0);
    }
};

QTEST_MAIN(TestGapWaterfall)
#include "tst_gapwaterfall.moc"
