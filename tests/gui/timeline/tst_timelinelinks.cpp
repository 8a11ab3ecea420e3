// The Timeline's idle gaps and the links to it: the gaps shaded by cause in both lanes and named
// on hover as the core names them; a host, sync or launch entry of "where to look first" and a
// row of host_time selecting their gaps; "Show on the timeline" from a finding, and Back to the
// same row and scroll position.

#include "mainwindowtestsupport.h"

#include "analysis/analysiscontroller.h"
#include "display/colors.h"
#include "display/formatting.h"
#include "display/idlecolors.h"
#include "model/fusionreport.h"
#include "model/tracestore.h"
#include "pages/kernelspage.h"
#include "pages/operationspage.h"
#include "pages/stepspage.h"
#include "pages/summarypage.h"
#include "pages/tablepage.h"
#include "shell/mainwindow.h"
#include "shell/resultstabs.h"
#include "shell/timelinelinks.h"
#include "timeline/idlegapruns.h"
#include "timeline/timelinedata.h"
#include "timeline/timelinepanel.h"
#include "timeline/timelineview.h"
#include "timeline/tracetimelinepage.h"

#include <QAction>
#include <QImage>
#include <QPainter>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <QTextBrowser>
#include <QToolButton>

#include <set>

using namespace fusiondiff;
using namespace fusiondiff::ui;
using test::compare;

namespace {

bool comparePi0(MainWindow& window)
{
    return compare(window, test::realTrace(QStringLiteral("pi0_torchcompile_hipgraph.mi350.json.gz")),
        test::realTrace(QStringLiteral("pi0_torchcompile_cudagraph.h200.json.gz")));
}

// Pi0's pair in `window` at 1440x900, on the Timeline tab: its view, nullptr if the comparison
// failed or the view was not shown.
TimelineView* pi0Timeline(MainWindow& window)
{
    window.resize(1440, 900);
    window.show();
    if (!comparePi0(window))
        return nullptr;
    window.tabs()->setCurrentWidget(window.timelinePage());
    TimelineView* view = window.timelinePage()->timeline()->view();
    return QTest::qWaitForWindowExposed(view) ? view : nullptr;
}

// The x of time `time` (from the lanes' start) in `view`.
double xOfTime(const TimelineView& view, double time)
{
    const double span = view.visibleEnd() - view.visibleStart();
    return 6 + (time - view.visibleStart()) / span * (view.width() - 12); // the view's margins, 6 px a side
}

// The first and last y of lane `side` at `x`.
std::pair<int, int> laneRows(const TimelineView& view, int side, double x)
{
    int top = -1;
    int bottom = -1;
    for (int y = 0; y < view.height(); ++y) {
        if (view.laneAt(QPointF(x, y)) == side) {
            if (top < 0)
                top = y;
            bottom = y;
        }
    }
    return { top, bottom };
}

QImage render(TimelineView& view)
{
    QImage image(view.size(), QImage::Format_RGB32);
    QPainter painter(&image);
    view.paint(painter, view.size());
    return image;
}

// Kernels of one type with a host gap between kernels 0 and 1 and a sync gap between 1 and 2, on
// both lanes; the codes name a Python function and a call.
TimelineData withGaps()
{
    TimelineData data;
    data.typeNames = { QStringLiteral("GEMM") };
    for (size_t side = 0; side < 2; ++side) {
        TimelineLane& lane = data.lanes[side];
        lane.title = side == 0 ? QStringLiteral("A: one") : QStringLiteral("B: other");
        lane.names.append(QStringLiteral("gemm"));
        for (int i = 0; i < 3; ++i) {
            TimelineKernel kernel;
            kernel.start = i * 100.0;
            kernel.duration = 40;
            lane.kernels.push_back(kernel);
        }
        lane.gapCodes
            = { { "model.py: forward", HostCodeKind::Python }, { "hipStreamSynchronize", HostCodeKind::Runtime } };
        lane.gaps.push_back({ 40, 60, IdleCause::Host, 0, 0 });
        lane.gaps.push_back({ 140, 60, IdleCause::Sync, 1, 0 });
        lane.finish();
    }
    return data;
}

// The core's intervals of `side` charged to (cause, the code names of `names`) in a step, by
// their times from the lane's start: what a selection must hold.
std::set<std::pair<double, double>> chargedIntervals(const StepTimeSide& side, const TimelineLane& lane, double first,
    IdleCause cause, const std::set<std::string>& names)
{
    std::set<std::pair<double, double>> found;
    for (const IdleInterval& interval : side.idle) {
        if (interval.cause != cause || interval.step < 0 || interval.code < 0)
            continue;
        if (!names.contains(side.codes[size_t(interval.code)].name))
            continue;
        if (interval.begin - first >= lane.end)
            continue;
        found.insert({ interval.begin - first, interval.end - interval.begin });
    }
    return found;
}

std::set<std::pair<double, double>> selectedIntervals(const TimelineView& view, int side)
{
    std::set<std::pair<double, double>> found;
    const TimelineLane& lane = view.timeline().lanes[size_t(side)];
    for (const int gap : view.selectedGaps()[size_t(side)])
        found.insert({ lane.gaps[size_t(gap)].start, lane.gaps[size_t(gap)].duration });
    return found;
}

double firstKernelTs(const TraceStore& store)
{
    double first = store.kernels.front().ts;
    for (const KernelEvent& kernel : store.kernels)
        first = std::min(first, kernel.ts);
    return first;
}

// The Show on the timeline action of a table.
QAction* showAction(TablePage* table)
{
    for (QAction* action : table->view()->actions()) {
        if (action->shortcut() == QKeySequence(Qt::CTRL | Qt::Key_T))
            return action;
    }
    return nullptr;
}

} // namespace

class TestTimelineLinks : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { test::useOwnSettings(QStringLiteral("tst_timelinelinks")); }
    void cleanupTestCase() { test::removeOwnSettings(); }
    void init() { QSettings().clear(); }

    // A gap is tinted in its cause's colour over the lane's body with the full colour at its foot;
    // the kernels keep their type's colour; in a dark palette too.
    void gapsAreShadedByCauseWithoutHidingKernels()
    {
        for (const bool dark : { false, true }) {
            TimelineView view;
            if (dark) {
                QPalette palette = view.palette();
                palette.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
                palette.setColor(QPalette::Text, QColor(0xe0, 0xe0, 0xe0));
                palette.setColor(QPalette::Window, QColor(0x2a, 0x2a, 0x2a));
                view.setPalette(palette);
            }
            view.resize(640, 200);
            view.setData(withGaps());
            const QImage image = render(view);
            QVERIFY(view.drawnGaps() == 4);
            const QColor base = view.palette().color(QPalette::Base);
            for (int side = 0; side < 2; ++side) {
                for (const auto& [time, cause] :
                    { std::pair { 70.0, IdleCause::Host }, std::pair { 170.0, IdleCause::Sync } }) {
                    const double x = xOfTime(view, time);
                    const auto [top, bottom] = laneRows(view, side, x);
                    QVERIFY(top >= 0);
                    const QColor foot = image.pixelColor(int(x), bottom - 1);
                    QCOMPARE(foot, idleCauseColor(cause));
                    // The tint: the cause's hue (told apart from the other causes' by it), and
                    // far enough from the lane's background to see.
                    const QColor tint = image.pixelColor(int(x), (top + bottom) / 2 + 8);
                    const int hue = idleCauseColor(cause).hslHue();
                    const int off = std::abs(tint.hslHue() - hue);
                    QVERIFY2(std::min(off, 360 - off) <= 8,
                        qPrintable(QStringLiteral("tint %1 for %2").arg(tint.name(), idleCauseColor(cause).name())));
                    const int contrast = std::abs(tint.red() - base.red()) + std::abs(tint.green() - base.green())
                        + std::abs(tint.blue() - base.blue());
                    QVERIFY2(contrast >= 60, qPrintable(QStringLiteral("tint %1 on %2").arg(tint.name(), base.name())));
                }
                // A kernel keeps its type's colour, top to foot.
                const double x = xOfTime(view, 120);
                const auto [top, bottom] = laneRows(view, side, x);
                QCOMPARE(image.pixelColor(int(x), bottom - 2), view.typeColor(0)); // above its outline
                QCOMPARE(image.pixelColor(int(x), (top + bottom) / 2 + 8), view.typeColor(0));
            }
        }
    }

    // On a real pair: each lane has the report's idle intervals within its span, shaded, and
    // hovering one names its cause, its duration and the host code the core names for it.
    void hoverNamesTheCoreHostCode()
    {
        MainWindow window;
        TimelineView* view = pi0Timeline(window);
        QVERIFY(view);
        const AnalysisResults& results = window.controller()->results();
        const StepTimeReport& steps = results.report->stepTime;
        for (int side = 0; side < 2; ++side) {
            const TimelineLane& lane = view->timeline().lanes[size_t(side)];
            const StepTimeSide& core = steps.sides[size_t(side)];
            const double first = firstKernelTs(*results.stores[size_t(side)]);
            size_t within = 0;
            for (const IdleInterval& interval : core.idle)
                within += interval.begin - first < lane.end && interval.end > first;
            QCOMPARE(lane.gaps.size(), within);
            if (side == 0) {
                // The MI350 runs its one graph nearly without a gap: 29 us of idle, in gaps below
                // the report's 2 us.
                QCOMPARE(within, size_t(0));
                continue;
            }
            QVERIFY(within > 0);
            // The longest host gap: its tooltip names the code of the core's interval at that time.
            int longest = -1;
            for (size_t g = 0; g < lane.gaps.size(); ++g) {
                if (lane.gaps[g].cause == IdleCause::Host
                    && (longest < 0 || lane.gaps[g].duration > lane.gaps[size_t(longest)].duration))
                    longest = int(g);
            }
            QVERIFY2(longest >= 0, "the pi0 pair has host-caused idle on both sides");
            const TimelineGap& gap = lane.gaps[size_t(longest)];
            const IdleInterval* match = nullptr;
            for (const IdleInterval& interval : core.idle) {
                if (std::abs(interval.begin - first - gap.start) < 1e-6)
                    match = &interval;
            }
            QVERIFY(match);
            const std::string& name = core.codes[size_t(match->code)].name;
            view->setSelectedGaps({});
            view->setVisibleRange(gap.start - gap.duration, gap.start + 2 * gap.duration);
            const double x = xOfTime(*view, gap.start + gap.duration / 2);
            const auto [top, bottom] = laneRows(*view, side, x);
            const QPointF at(x, (top + bottom) / 2.0);
            QCOMPARE(view->kernelAt(side, at), -1);
            QCOMPARE(view->gapAt(side, at), longest);
            const QString tip = view->gapToolTip(side, longest);
            QVERIFY2(tip.contains(QString::fromStdString(name).toHtmlEscaped()), qPrintable(tip));
            QVERIFY2(tip.contains(idleCauseName(IdleCause::Host)), qPrintable(tip));
            QVERIFY2(tip.contains(formatDuration(gap.duration)), qPrintable(tip));
            const QImage image = render(*view);
            QCOMPARE(image.pixelColor(int(x), bottom - 1), idleCauseColor(IdleCause::Host));
        }
        // Fit-all on both lanes draws the gaps too, at most one a pixel column.
        view->fitAll();
        render(*view);
        QVERIFY(view->drawnGaps() > 0);
        QVERIFY(view->drawnGaps() <= 2 * view->width());
    }

    // A host entry of "where to look first" on the Summary: a link that switches to the Timeline,
    // selects the gaps the core charges to it on each side, brings the first into view and says
    // how many.
    // Pi0's MI350 lane runs on after its last recorded kernel: that time is drawn hatched, and
    // hovering it says what it is; a kernel's place says nothing of it.
    void notRecordedTimeIsNamedOnHover()
    {
        MainWindow window;
        TimelineView* view = pi0Timeline(window);
        QVERIFY(view);
        const TimelineLane& lane = view->timeline().lanes[0];
        QCOMPARE(lane.notRecorded.size(), size_t(1));
        const TimelineGap& span = lane.notRecorded.front();
        view->setVisibleRange(0, lane.end);
        const double x = xOfTime(*view, span.start + span.duration / 2);
        const auto [top, bottom] = laneRows(*view, 0, x);
        const QPointF at(x, (top + bottom) / 2.0);
        QCOMPARE(view->kernelAt(0, at), -1);
        QCOMPARE(view->notRecordedAt(0, at), 0);
        const QString tip = view->notRecordedToolTip(0, 0);
        QVERIFY2(tip.contains(QStringLiteral("Not recorded: 9.3 ms of GPU time")), qPrintable(tip));
        const QPointF before(xOfTime(*view, span.start / 2), at.y());
        QCOMPARE(view->notRecordedAt(0, before), -1);
        QCOMPARE(view->notRecordedAt(1, QPointF(x, at.y())), -1); // B records all of its work
    }

    void lookFirstEntrySelectsItsGaps()
    {
        MainWindow window;
        window.resize(1440, 900);
        window.show();
        QVERIFY(comparePi0(window));
        const FusionReport& report = *window.controller()->results().report;
        int entry = -1;
        for (size_t i = 0; i < report.whereToLookFirst.size() && entry < 0; ++i) {
            if (report.whereToLookFirst[i].kind == LookFirstKind::Host)
                entry = int(i);
        }
        QVERIFY2(entry >= 0, "pi0: a host entry in where to look first");
        auto* browser = window.summaryPage()->findChild<QTextBrowser*>();
        QVERIFY(QTest::qWaitFor([&] { return browser->toHtml().contains(QStringLiteral("idle:%1").arg(entry)); }));
        emit browser->anchorClicked(QUrl(QStringLiteral("idle:%1").arg(entry)));
        QCOMPARE(window.tabs()->currentWidget(), window.timelinePage());
        TimelineView* view = window.timelinePage()->timeline()->view();
        const LookFirstEntry& chosen = report.whereToLookFirst[size_t(entry)];
        const IdleCauseEntry* cause = nullptr;
        for (const IdleCauseEntry& c : report.stepTime.causes) {
            if (c.cause == IdleCause::Host && c.key == chosen.op)
                cause = &c;
        }
        QVERIFY(cause);
        size_t total = 0;
        for (int side = 0; side < 2; ++side) {
            const std::set<std::string> names = cause->name[size_t(side)].empty()
                ? std::set<std::string> {}
                : std::set<std::string> { cause->name[size_t(side)] };
            const auto expected
                = chargedIntervals(report.stepTime.sides[size_t(side)], view->timeline().lanes[size_t(side)],
                    firstKernelTs(*window.controller()->results().stores[size_t(side)]), IdleCause::Host, names);
            QCOMPARE(selectedIntervals(*view, side), expected);
            total += expected.size();
        }
        QVERIFY(total > 0);
        // Counted as the entry counts them: a GPU gap once, however many pieces of it are charged.
        const uint64_t entryGaps = cause->intervals[0] + cause->intervals[1];
        QVERIFY2(total > entryGaps, "pi0's host entry: 13 pieces in 11 gaps"); // what this test is about
        const QString note = window.timelinePage()->timeline()->note();
        QVERIFY2(note.startsWith(formatCountOf(entryGaps, QStringLiteral("idle gap"), QStringLiteral("idle gaps"))
                     + QStringLiteral(" selected (A %1, B %2;")
                           .arg(formatCount(cause->intervals[0]), formatCount(cause->intervals[1]))),
            qPrintable(note + QStringLiteral(" / entry: %1").arg(entryGaps)));
        // The largest selected gap is in view, not the first.
        const IdleGapRun* largest = nullptr;
        std::array<std::vector<IdleGapRun>, 2> runs;
        for (int side = 0; side < 2; ++side) {
            runs[size_t(side)] = idleGapRuns(view->timeline().lanes[size_t(side)], view->selectedGaps()[size_t(side)]);
            for (const IdleGapRun& run : runs[size_t(side)]) {
                if (!largest || run.idleUs > largest->idleUs)
                    largest = &run;
            }
        }
        QVERIFY(largest);
        QVERIFY(largest->start >= view->visibleStart() && largest->end <= view->visibleEnd());
        QVERIFY2(note.contains(QStringLiteral("the largest (%1) is in view").arg(formatDuration(largest->idleUs))),
            qPrintable(note));
        // Back returns to the Summary.
        QVERIFY(window.timelinePage()->backButton()->isVisible());
        QTest::mouseClick(window.timelinePage()->backButton(), Qt::LeftButton);
        QCOMPARE(window.tabs()->currentWidget(), window.summaryPage());
    }

    // The core lists a GPU gap in pieces where the host code changes inside it: pieces with no
    // kernel between them are one gap.
    void gapPiecesCountAsOneGap()
    {
        TimelineLane lane;
        for (int i = 0; i < 3; ++i)
            lane.kernels.push_back({ .start = i * 100.0, .duration = 40 });
        lane.gaps.push_back({ 40, 10, IdleCause::Host, 0, 0 });
        lane.gaps.push_back({ 50, 50, IdleCause::Host, 1, 0 });
        lane.gaps.push_back({ 140, 30, IdleCause::Host, 0, 0 });
        const std::vector<IdleGapRun> runs = idleGapRuns(lane, { 2, 0, 1 });
        QCOMPARE(runs.size(), size_t(2));
        QCOMPARE(runs[0].gaps, (std::vector<int> { 0, 1 }));
        QCOMPARE(runs[0].start, 40.0);
        QCOMPARE(runs[0].end, 100.0);
        QCOMPARE(runs[0].idleUs, 60.0);
        QCOMPARE(runs[1].gaps, (std::vector<int> { 2 }));
        // A piece alone, and pieces of two gaps: a gap each.
        QCOMPARE(idleGapRuns(lane, { 1 }).size(), size_t(1));
        QCOMPARE(idleGapRuns(lane, { 0, 2 }).size(), size_t(2));
    }

    // The collective entry of where to look first (AllReduce on HTA's pair) has a link too: its
    // kernels marked on the Timeline, as many a side as the entry counts calls (one kernel each).
    void collectiveEntryMarksItsKernels()
    {
        MainWindow window;
        window.resize(1440, 900);
        window.show();
        QVERIFY(compare(window, test::realTrace(QStringLiteral("hta_trace_diff_control.a100.json.gz")),
            test::realTrace(QStringLiteral("hta_trace_diff_test.v100.json.gz"))));
        const FusionReport& report = *window.controller()->results().report;
        int entry = -1;
        for (size_t i = 0; i < report.whereToLookFirst.size() && entry < 0; ++i) {
            if (report.whereToLookFirst[i].kind == LookFirstKind::Collective)
                entry = int(i);
        }
        QVERIFY2(entry >= 0, "HTA's pair: a collective entry in where to look first");
        const LookFirstEntry& chosen = report.whereToLookFirst[size_t(entry)];
        QCOMPARE(chosen.op, std::string("AllReduce"));
        const auto collective = std::find_if(report.collectives.begin(), report.collectives.end(),
            [](const CollectiveComparison& c) { return c.collective == "AllReduce"; });
        QVERIFY(collective != report.collectives.end());
        auto* browser = window.summaryPage()->findChild<QTextBrowser*>();
        const QString link = QStringLiteral("collective:%1").arg(entry);
        QVERIFY(QTest::qWaitFor([&] { return browser->toHtml().contains(link); }));
        emit browser->anchorClicked(QUrl(link));
        QCOMPARE(window.tabs()->currentWidget(), window.timelinePage());
        TimelineView* view = window.timelinePage()->timeline()->view();
        for (size_t side = 0; side < 2; ++side) {
            QCOMPARE(view->markedKernels()[side].size(), size_t(collective->count[side]));
            const TimelineLane& lane = view->timeline().lanes[side];
            for (const int kernel : view->markedKernels()[side])
                QVERIFY(lane.names[lane.kernels[size_t(kernel)].name].contains(QStringLiteral("AllReduce")));
        }
        const QString note = window.timelinePage()->timeline()->note();
        QVERIFY2(
            note.contains(QStringLiteral("the AllReduce kernels (entry %1 of where to look first)").arg(entry + 1)),
            qPrintable(note));
    }

    // A row of host_time on the Steps tab: choosing it selects the host gaps charged to its code.
    void hostTimeRowSelectsItsGaps()
    {
        MainWindow window;
        window.resize(1440, 900);
        window.show();
        QVERIFY(comparePi0(window));
        const AnalysisResults& results = window.controller()->results();
        const StepTimeReport& steps = results.report->stepTime;
        int row = -1;
        for (size_t i = 0; i < steps.hostTime.size() && row < 0; ++i) {
            if (steps.hostTime[i].idleUs[0] + steps.hostTime[i].idleUs[1] > 0)
                row = int(i);
        }
        QVERIFY2(row >= 0, "pi0: host code that keeps the GPU idle");
        window.tabs()->setCurrentWidget(window.tabs()->stepsPage());
        TablePage* table = window.tabs()->stepsPage()->hostTime();
        table->selectSourceRows({ row });
        QAction* show = showAction(table);
        QVERIFY(show);
        show->trigger();
        QCOMPARE(window.tabs()->currentWidget(), window.timelinePage());
        TimelineView* view = window.timelinePage()->timeline()->view();
        const HostTimeRow& code = steps.hostTime[size_t(row)];
        size_t total = 0;
        for (int side = 0; side < 2; ++side) {
            const auto expected = chargedIntervals(steps.sides[size_t(side)], view->timeline().lanes[size_t(side)],
                firstKernelTs(*results.stores[size_t(side)]), IdleCause::Host, { code.code });
            QCOMPARE(selectedIntervals(*view, side), expected);
            total += expected.size();
        }
        QVERIFY(total > 0);
        // Back, with Alt+Left, to the same row.
        QTest::keyClick(view, Qt::Key_Left, Qt::AltModifier);
        QCOMPARE(window.tabs()->currentWidget(), window.tabs()->stepsPage());
        QCOMPARE(table->selectedSourceRows(), QList<int>({ row }));
    }

    // "Show on the timeline" (Ctrl+T) on a finding marks the kernels of its first call; Alt+Left
    // returns to the Operations tab, the same row selected and the table scrolled as it was.
    void findingShowsItsKernelsAndBackReturnsToTheRow()
    {
        MainWindow window;
        window.resize(1024, 700);
        window.show();
        QVERIFY(compare(window, test::realTrace(QStringLiteral("vllm_prefilldecode_piecewise_graph.mi300x.json.gz")),
            test::realTrace(QStringLiteral("vllm_decode_full_graph.mi300x.json.gz"))));
        const FusionReport& report = *window.controller()->results().report;
        QVERIFY2(report.opFindings.size() >= 3, "findings to scroll through");
        OperationsPage* page = window.operationsPage();
        window.tabs()->setCurrentWidget(page);
        TablePage* findings = page->findingsTable();
        QTableView* table = findings->view();
        QVERIFY(QTest::qWaitForWindowExposed(table));
        const int row = int(report.opFindings.size()) - 1;
        findings->selectSourceRows({ row });
        table->setFocus();
        QTest::qWait(20);
        const int scrolled = table->verticalScrollBar()->value();
        QTest::keyClick(table, Qt::Key_T, Qt::ControlModifier);
        QCOMPARE(window.tabs()->currentWidget(), window.timelinePage());
        TimelineView* view = window.timelinePage()->timeline()->view();
        const OpFinding& finding = report.opFindings[size_t(row)];
        for (size_t side = 0; side < 2; ++side) {
            std::set<int64_t> marked;
            for (const int kernel : view->markedKernels()[side])
                marked.insert(view->timeline().lanes[side].kernels[size_t(kernel)].traceKernel);
            const std::set<int64_t> expected(finding.firstKernels[side].begin(), finding.firstKernels[side].end());
            QCOMPARE(marked, expected);
        }
        QVERIFY(!view->markedKernels()[0].empty() || !view->markedKernels()[1].empty());
        // Somewhere else first, so that Back has a table to restore.
        table->verticalScrollBar()->setValue(0);
        findings->selectSourceRows({ 0 });
        QTest::keyClick(view, Qt::Key_Left, Qt::AltModifier);
        QCOMPARE(window.tabs()->currentWidget(), page);
        QCOMPARE(findings->selectedSourceRows(), QList<int>({ row }));
        QCOMPARE(table->verticalScrollBar()->value(), scrolled);
        QVERIFY(!window.tabs()->timelineLinks()->backAction()->isEnabled());
        QVERIFY(window.timelinePage()->backButton()->isHidden());
    }

    // From a row of the Kernels tab far down its table: every kernel of that name marked on each
    // lane; Back returns to the row, and the table scrolled exactly where it was.
    void kernelRowShowsItsKernelsAndBackRestoresTheScroll()
    {
        MainWindow window;
        window.resize(1024, 700);
        window.show();
        QVERIFY(compare(window, test::sampleA(), test::sampleB()));
        const AnalysisResults& results = window.controller()->results();
        const FusionReport& report = *results.report;
        window.tabs()->setCurrentWidget(window.kernelsTab());
        TablePage* kernels = window.kernelsPage();
        QTableView* table = kernels->view();
        QVERIFY(QTest::qWaitForWindowExposed(table));
        const int row = int(report.kernels.size()) - 1;
        kernels->selectSourceRows({ row });
        table->setFocus();
        QTest::qWait(20);
        QVERIFY2(table->verticalScrollBar()->maximum() >= 4, "the table scrolls");
        // The user scrolled on after selecting: Back restores that position, not just the row's.
        const int scrolled = table->verticalScrollBar()->maximum() / 2;
        table->verticalScrollBar()->setValue(scrolled);
        QTest::keyClick(table, Qt::Key_T, Qt::ControlModifier);
        QCOMPARE(window.tabs()->currentWidget(), window.timelinePage());
        TimelineView* view = window.timelinePage()->timeline()->view();
        const KernelNameRow& named = report.kernels[size_t(row)];
        for (size_t side = 0; side < 2; ++side) {
            const TraceStore& store = *results.stores[side];
            size_t expected = 0;
            for (const KernelEvent& kernel : store.kernels)
                expected += store.name(kernel.name) == named.name;
            QCOMPARE(expected, size_t(named.count[side]));
            QCOMPARE(view->markedKernels()[side].size(), expected);
            for (const int kernel : view->markedKernels()[side]) {
                const TimelineLane& lane = view->timeline().lanes[side];
                QCOMPARE(lane.names.value(lane.kernels[size_t(kernel)].name), QString::fromStdString(named.name));
            }
        }
        QVERIFY(window.timelinePage()->backButton()->isVisible());
        table->verticalScrollBar()->setValue(0);
        kernels->selectSourceRows({ 0 });
        QTest::mouseClick(window.timelinePage()->backButton(), Qt::LeftButton);
        QCOMPARE(window.tabs()->currentWidget(), window.kernelsTab());
        QCOMPARE(kernels->selectedSourceRows(), QList<int>({ row }));
        QCOMPARE(table->verticalScrollBar()->value(), scrolled);
    }
};

QTEST_MAIN(TestTimelineLinks)
#include "tst_timelinelinks.moc"
