// Issue 39's per-phase headline and step boundaries, on the real pair with two phases (the HTA
// control trace on an A100 against its test trace on a V100: phase 1 of 2 steps a side, phase 2
// of 1): each phase's step time A against B on the Summary, as the step_times table has it, and
// each step's start on the timeline lanes, step N of A drawn with step N of B on request.

#include "mainwindowtestsupport.h"

#include "analysis/analysiscontroller.h"
#include "display/formatting.h"
#include "model/fusionreport.h"
#include "model/tracestore.h"
#include "pages/phaseheadline.h"
#include "pages/summarypage.h"
#include "shell/mainwindow.h"
#include "shell/resultstabs.h"
#include "timeline/timelinedata.h"
#include "timeline/timelinepanel.h"
#include "timeline/timelinesteps.h"
#include "timeline/timelineview.h"
#include "timeline/tracetimelinepage.h"

#include <QComboBox>
#include <QJsonObject>
#include <QLabel>
#include <QTest>

#include <algorithm>
#include <cmath>

using namespace fusiondiff;
using namespace fusiondiff::ui;

namespace {

QString realTrace(const char* name)
{
    return test::realTrace(QString::fromLatin1(name));
}

bool compareTwoPhasePair(MainWindow& window)
{
    return test::compare(
        window, realTrace("hta_trace_diff_control.a100.json.gz"), realTrace("hta_trace_diff_test.v100.json.gz"));
}

// The earliest kernel start of a trace: the timeline's lanes start there.
double firstKernelUs(const TraceStore& store)
{
    double first = INFINITY;
    for (const KernelEvent& kernel : store.kernels)
        first = std::min(first, kernel.ts);
    return first;
}

} // namespace

class TestPhasesAndSteps : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { test::useOwnSettings(QStringLiteral("tst_phasesandsteps")); }
    void cleanupTestCase() { test::removeOwnSettings(); }

    // Each phase's median step on each side, its gap a step and its noise, as step_times has them:
    // the verdict (all steps) mixes the phases, the headline tells them apart.
    void summaryShowsEachPhase()
    {
        MainWindow window;
        window.show();
        QVERIFY(compareTwoPhasePair(window));
        const FusionReport& report = *window.controller()->results().report;
        const StepTimeReport& steps = report.stepTime;
        QCOMPARE(steps.phases.size(), size_t(2));
        const std::vector<PhaseHeadline> phases = phaseHeadlines(report);
        QCOMPARE(phases.size(), size_t(2));
        for (size_t i = 0; i < phases.size(); ++i) {
            const StepTimeRow& row = steps.rows[i];
            QCOMPARE(phases[i].phase, QString::fromStdString(steps.phases[i]));
            QCOMPARE(phases[i].stepsA, row.steps[0]);
            QCOMPARE(phases[i].stepsB, row.steps[1]);
            QCOMPARE(phases[i].medianA, row.timeUs[0].median);
            QCOMPARE(phases[i].deltaUs, row.timeUs[1].median - row.timeUs[0].median);
        }
        // The step_times table's figures (fusiondiff-cli compare ... --csv): phase 1 76,550 against
        // 116,910 us a step, 2 steps a side, beyond noise; phase 2 81,120 against 114,802 us, one
        // step a side, which no spread can judge.
        QCOMPARE(phases[0].medianA, 76550.0);
        QCOMPARE(phases[0].medianB, 116910.0);
        QCOMPARE(phases[0].noise, NoiseVerdict::Significant);
        QCOMPARE(phases[1].medianA, 81120.0);
        QCOMPARE(phases[1].medianB, 114802.0);
        QCOMPARE(phases[1].noise, NoiseVerdict::CannotTell);

        SummaryPage* summary = window.summaryPage();
        window.tabs()->setCurrentWidget(summary);
        const QString shown = summary->phasesText();
        QVERIFY2(shown.contains(QStringLiteral("Per phase")), qPrintable(shown));
        for (const PhaseHeadline& phase : phases) {
            QVERIFY2(shown.contains(phase.phase), qPrintable(shown));
            QVERIFY2(shown.contains(formatDuration(phase.medianA)), qPrintable(shown));
            QVERIFY2(shown.contains(formatDuration(phase.medianB)), qPrintable(shown));
            QVERIFY2(shown.contains(formatDuration(std::fabs(phase.deltaUs))), qPrintable(shown));
        }
        QVERIFY2(shown.contains(QStringLiteral("B slower by 40.4 ms (53%)")), qPrintable(shown));
        QVERIFY2(shown.contains(QStringLiteral("cannot tell from noise")), qPrintable(shown));
        // Seen whole above the waterfall.
        QLabel* label = summary->findChild<QLabel*>(QStringLiteral("summary_phases"));
        QVERIFY(label && label->isVisible());
        QVERIFY(label->height() >= label->heightForWidth(label->width()));
    }

    // One phase: the verdict says it all, and no per-phase table shows.
    void onePhaseShowsNoPhaseTable()
    {
        MainWindow window;
        window.show();
        QVERIFY(test::compare(window, realTrace("pi0_torchcompile_hipgraph.mi350.json.gz"),
            realTrace("pi0_torchcompile_cudagraph.h200.json.gz")));
        QVERIFY(phaseHeadlines(*window.controller()->results().report).empty());
        QVERIFY(window.summaryPage()->phasesText().isEmpty());
    }

    // Each lane marks where each of its steps begins, from the lane's first kernel; aligning step 2
    // draws the lane whose step 2 starts earlier later by the difference, and says so.
    void timelineMarksAndAlignsSteps()
    {
        MainWindow window;
        window.resize(1440, 900);
        window.show();
        QVERIFY(compareTwoPhasePair(window));
        const AnalysisResults& results = window.controller()->results();
        TraceTimelinePage* page = window.timelinePage();
        window.tabs()->setCurrentWidget(page);
        TimelineView* view = page->timeline()->view();
        const TimelineData& data = view->timeline();
        std::array<double, 2> first {};
        for (size_t side = 0; side < 2; ++side) {
            first[side] = firstKernelUs(*results.stores[side]);
            const std::vector<StepRecord>& steps = results.report->stepTime.sides[side].steps;
            QCOMPARE(data.lanes[side].steps.size(), steps.size());
            for (size_t i = 0; i < steps.size(); ++i) {
                QCOMPARE(data.lanes[side].steps[i].number, int(i + 1));
                QCOMPARE(data.lanes[side].steps[i].start, steps[i].begin - first[side]);
            }
        }
        // Six steps a side (three compared, in the two phases).
        QCOMPARE(commonStepCount(data), 6);
        QComboBox* align = page->stepAlignment();
        QCOMPARE(align->count(), 7);
        QCOMPARE(align->itemText(2), QStringLiteral("step 2 of A with step 2 of B"));

        const QString spanA = view->laneHeading(0);
        const double kernelA = data.lanes[0].kernels.front().start;
        const double kernelB = data.lanes[1].kernels.front().start;
        const std::array<double, 2> own { data.lanes[0].steps[1].start, data.lanes[1].steps[1].start };
        QCOMPARE(page->alignSteps(2), 2);
        QCOMPARE(data.lanes[0].steps[1].start, data.lanes[1].steps[1].start);
        const size_t later = own[0] < own[1] ? 0 : 1;
        const double by = std::fabs(own[1] - own[0]);
        QCOMPARE(data.lanes[later].shift, by);
        QCOMPARE(data.lanes[1 - later].shift, 0.0);
        // Everything on the later lane moved with its step; its totals did not change.
        QCOMPARE(data.lanes[0].kernels.front().start, kernelA + data.lanes[0].shift);
        QCOMPARE(data.lanes[1].kernels.front().start, kernelB + data.lanes[1].shift);
        QCOMPARE(view->laneHeading(0), spanA);
        QVERIFY(view->visibleStart() <= data.lanes[0].steps[1].start);
        QVERIFY(view->visibleEnd() >= std::max(data.lanes[0].steps[1].end, data.lanes[1].steps[1].end));
        const QString note = page->timeline()->note();
        QVERIFY2(note.contains(QStringLiteral("Step 2 of A and step 2 of B start together")), qPrintable(note));
        QVERIFY2(note.contains(QStringLiteral("%1 is drawn %2 later")
                                   .arg(later == 0 ? QStringLiteral("A") : QStringLiteral("B"), formatDuration(by))),
            qPrintable(note));

        // Back to each lane from its own first kernel.
        QCOMPARE(page->alignSteps(0), 0);
        QCOMPARE(data.lanes[0].kernels.front().start, kernelA);
        QCOMPARE(data.lanes[1].kernels.front().start, kernelB);
        QVERIFY(page->timeline()->note().isEmpty());
    }

    // A session keeps "step N of A with step N of B": the alignment, the range in its time and the
    // selected kernel come back; a state saved before the alignment was kept (no key) opens unaligned.
    void theSessionKeepsTheStepAlignment()
    {
        MainWindow window;
        window.resize(1440, 900);
        window.show();
        QVERIFY(compareTwoPhasePair(window));
        TraceTimelinePage* page = window.timelinePage();
        window.tabs()->setCurrentWidget(page);
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        TimelineView* view = page->timeline()->view();
        QCOMPARE(page->alignSteps(3), 3);
        const TimelineData& data = view->timeline();
        const std::array<double, 2> shifts { data.lanes[0].shift, data.lanes[1].shift };
        QVERIFY(shifts[0] + shifts[1] > 0);
        const TimelineStep& step = data.lanes[1].steps[2];
        view->setVisibleRange(step.start, step.start + (step.end - step.start) / 2);
        const double start = view->visibleStart();
        const double end = view->visibleEnd();
        const auto inStep = std::find_if(data.lanes[1].kernels.begin(), data.lanes[1].kernels.end(),
            [&step](const TimelineKernel& kernel) { return kernel.start >= step.start; });
        QVERIFY(inStep != data.lanes[1].kernels.end());
        const int kernel = int(inStep - data.lanes[1].kernels.begin());
        view->setSelectedKernel(1, kernel);
        const QJsonObject state = page->saveState();
        QCOMPARE(state.value(QStringLiteral("aligned_step")).toInt(), 3);

        MainWindow again;
        again.resize(1440, 900);
        again.show();
        QVERIFY(compareTwoPhasePair(again));
        TraceTimelinePage* restored = again.timelinePage();
        again.tabs()->setCurrentWidget(restored);
        QVERIFY(QTest::qWaitForWindowExposed(&again));
        restored->restoreState(state);
        TimelineView* restoredView = restored->timeline()->view();
        QCOMPARE(restored->stepAlignment()->currentData().toInt(), 3);
        QCOMPARE(restoredView->timeline().lanes[0].shift, shifts[0]);
        QCOMPARE(restoredView->timeline().lanes[1].shift, shifts[1]);
        QTRY_COMPARE(restoredView->visibleStart(), start);
        QTRY_COMPARE(restoredView->visibleEnd(), end);
        QCOMPARE(restoredView->selectedSide(), 1);
        QCOMPARE(restoredView->selectedKernel(), kernel);

        // An older session's state: each lane from its first kernel, the range as saved.
        QJsonObject older = state;
        older.remove(QStringLiteral("aligned_step"));
        older.remove(QStringLiteral("selected"));
        restored->restoreState(older);
        QCOMPARE(restored->stepAlignment()->currentData().toInt(), 0);
        QCOMPARE(restoredView->timeline().lanes[0].shift, 0.0);
        QCOMPARE(restoredView->timeline().lanes[1].shift, 0.0);
        QVERIFY(!restored->saveState().contains(QStringLiteral("aligned_step")));
    }

    // The line above the lanes wraps where a capped lane's notice is longer than the room beside
    // Fit and Save image..., so none of it is cut.
    void capNoticeWrapsBesideTheButtons()
    {
        MainWindow window;
        QVERIFY(test::compare(window, test::sampleA(), test::sampleB()));
        const AnalysisResults& results = window.controller()->results();
        TimelinePanel panel(QStringLiteral("capped"));
        panel.resize(700, 400);
        panel.setData(timelineOfTraces({ results.stores[0].get(), results.stores[1].get() }, *results.classifier, 100),
            QStringLiteral("Every kernel of each trace"));
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QLabel* title = panel.findChild<QLabel*>(QStringLiteral("timeline_title"));
        QVERIFY(title);
        QTRY_VERIFY(title->height() >= title->heightForWidth(title->width()));
        QVERIFY(title->heightForWidth(title->width()) > 2 * title->fontMetrics().height());
    }
};

QTEST_MAIN(TestPhasesAndSteps)
#include "tst_phasesandsteps.moc"
