// The app's side of issue 19 ("a headline you can trust"), each defect driven as a user met it on
// the real pairs: names elided where they differ, the timeline's cap and its totals said, a stale
// save error, the search's matches, the unattributed part's own numbers, the not recorded time of
// a partly recorded graph, the wording, Cancel, the Operation summary's B - A column and copying a
// kernel name alone.

#include "mainwindowtestsupport.h"

#include "analysis/analysiscontroller.h"
#include "analysis/analysissettingswidget.h"
#include "charts/gapbycause.h"
#include "charts/gapwaterfall.h"
#include "classify/classifier.h"
#include "display/formatting.h"
#include "display/kernelnames.h"
#include "display/nameelision.h"
#include "model/fusionreport.h"
#include "model/tracestore.h"
#include "models/reportcolumnsmodel.h"
#include "models/reporttablemodel.h"
#include "models/tablefilterproxy.h"
#include "pages/kernelspage.h"
#include "pages/summarypage.h"
#include "pages/tablechartpage.h"
#include "pages/tablepage.h"
#include "report/reporttables.h"
#include "shell/globalsearch.h"
#include "shell/mainwindow.h"
#include "shell/resultsexports.h"
#include "timeline/timelinedata.h"
#include "timeline/timelinepanel.h"
#include "timeline/timelineview.h"
#include "timeline/tracetimelinepage.h"
#include "widgets/filterlineedit.h"
#include "widgets/tabletextdelegate.h"
#include "widgets/tracedropzone.h"

#include <QAbstractItemView>
#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QCompleter>
#include <QFileInfo>
#include <QFontMetricsF>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QSet>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

#include <algorithm>
#include <cmath>

using namespace fusiondiff;
using namespace fusiondiff::ui;
using test::compare;
using test::sampleA;
using test::sampleB;

namespace {

constexpr int kTimeoutMs = 120000;

QString realTrace(const char* name)
{
    return test::realTrace(QString::fromLatin1(name));
}

// The kernel names of one side of a report that start with `prefix`, as the tables show them.
QStringList shownNamesStartingWith(const FusionReport& report, const QString& prefix)
{
    QStringList names;
    for (const KernelNameRow& kernel : report.kernels) {
        const QString shown = shownKernelName(QString::fromStdString(kernel.name));
        if (shown.startsWith(prefix) && !names.contains(shown))
            names.append(shown);
    }
    return names;
}

} // namespace

class TestTrustworthyViews : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { test::useOwnSettings(QStringLiteral("tst_trustworthyviews")); }
    void cleanupTestCase() { test::removeOwnSettings(); }

    // Item 18: Tensile GEMMs (Cijk_...) and cuBLAS/cutlass names share a long start and end; eliding
    // each in its middle made them look the same. Elided where they differ, they stay apart.
    void namesThatDifferInTheMiddleStayApart()
    {
        MainWindow window;
        QVERIFY(compare(window, sampleA(), sampleB()));
        const FusionReport& report = *window.controller()->results().report;
        const QStringList gemms = shownNamesStartingWith(report, QStringLiteral("Cijk_"));
        QVERIFY2(gemms.size() >= 3, qPrintable(QString::number(gemms.size())));
        const QFontMetricsF metrics(QApplication::font());
        const qreal width = metrics.horizontalAdvance(QStringLiteral("x")) * 50; // a column of ~50 characters
        QSet<QString> middle;
        QSet<QString> distinguished;
        for (const QString& name : gemms) {
            QVERIFY(metrics.horizontalAdvance(name) > width);
            middle.insert(metrics.elidedText(name, Qt::ElideMiddle, static_cast<int>(width)));
            const QString shown = elideDistinguishing(name, gemms, metrics, width);
            QVERIFY2(metrics.horizontalAdvance(shown) <= width, qPrintable(shown));
            QVERIFY(shown.startsWith(QStringLiteral("Cijk_"))); // it still reads as a Tensile GEMM
            distinguished.insert(shown);
        }
        // The defect: in the middle, the GEMMs' start and end are all that is left, the same for all.
        QVERIFY(middle.size() < gemms.size());
        QCOMPARE(distinguished.size(), gemms.size());

        // In the Kernels table itself: each name cell as drawn, against the rows on screen.
        window.resize(1024, 700);
        window.show();
        window.tabs()->setCurrentWidget(window.kernelsTab());
        TablePage* page = window.kernelsPage();
        page->filterEdit()->setText(QStringLiteral("Cijk_"));
        page->filterEdit()->applyNow();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTableView* view = page->view();
        const auto* delegate = static_cast<const TableTextDelegate*>(view->itemDelegate());
        const int column = 0;
        const int cell = view->columnWidth(column) - 8;
        QSet<QString> shownCells;
        QSet<QString> wholeNames;
        for (int row = 0; row < std::min(page->proxy()->rowCount(), 12); ++row) {
            const QModelIndex index = page->proxy()->index(row, column);
            wholeNames.insert(index.data().toString());
            shownCells.insert(delegate->shownText(index.data().toString(), index, view->font(), cell, view));
        }
        QVERIFY(wholeNames.size() >= 3);
        QCOMPARE(shownCells.size(), wholeNames.size());

        // cuBLAS and cutlass names of the H100 side.
        const QStringList nvidia = shownNamesStartingWith(report, QStringLiteral("sm90_xmma"))
            + shownNamesStartingWith(report, QStringLiteral("cutlass"));
        QSet<QString> nvidiaShown;
        for (const QString& name : nvidia)
            nvidiaShown.insert(elideDistinguishing(name, nvidia, metrics, width));
        QCOMPARE(nvidiaShown.size(), nvidia.size());
    }

    void distinguishingPartIsWhereNamesDiffer()
    {
        const QString a = QStringLiteral("gemm_common_start_MT256x128_common_end");
        const QString b = QStringLiteral("gemm_common_start_MT128x224_common_end");
        const DistinguishingPart part = distinguishingPart(a, { a, b });
        QCOMPARE(a.mid(part.start, part.end - part.start), QStringLiteral("256x128"));
        // Alone, or beside only itself: the whole name.
        QCOMPARE(distinguishingPart(a, { a }).end, a.size());
        // A name another one extends: the point where they part.
        const DistinguishingPart prefix = distinguishingPart(QStringLiteral("gemm"), { QStringLiteral("gemm_bias") });
        QVERIFY(prefix.end - prefix.start >= 1);
    }

    // Item 20: the timeline draws at most so many kernels a side, and says so.
    void timelineSaysWhereItIsCapped()
    {
        MainWindow window;
        QVERIFY(compare(window, sampleA(), sampleB()));
        const AnalysisResults& results = window.controller()->results();
        const std::array<const TraceStore*, 2> stores { results.stores[0].get(), results.stores[1].get() };
        const TimelineData whole = timelineOfTraces(stores, *results.classifier, 10000000);
        QVERIFY(!whole.placement.contains(QStringLiteral("the first")));
        const size_t kernelsA = results.stores[0]->kernels.size();
        const TimelineData capped = timelineOfTraces(stores, *results.classifier, 100);
        QCOMPARE(capped.lanes[0].kernels.size(), size_t(100));
        QVERIFY2(
            capped.placement.contains(QStringLiteral("A: the first 100 of its %1 kernels").arg(formatCount(kernelsA))),
            qPrintable(capped.placement));
        QVERIFY(capped.placement.contains(QStringLiteral("Kernels tab")));
    }

    // Item 25: a lane's total says what it measures: its wall span and its kernel time (the sum
    // the tables show), which differ by the GPU's idle time.
    void laneTotalsSayWhatTheyMeasure()
    {
        MainWindow window;
        QVERIFY(compare(window, sampleA(), sampleB()));
        const AnalysisResults& results = window.controller()->results();
        TimelineData data
            = timelineOfTraces({ results.stores[0].get(), results.stores[1].get() }, *results.classifier, 10000000);
        double sum = 0;
        for (const KernelEvent& kernel : results.stores[0]->kernels)
            sum += kernel.dur;
        QVERIFY(std::abs(data.lanes[0].kernelTime - sum) < 1e-6 * sum);
        QVERIFY(data.lanes[0].end > data.lanes[0].kernelTime); // the GPU idles between kernels
        TimelineView view;
        view.setData(data);
        const QString heading = view.laneHeading(0);
        QVERIFY2(heading.contains(QStringLiteral("span ") + formatDuration(data.lanes[0].end)), qPrintable(heading));
        QVERIFY2(heading.contains(QStringLiteral("kernel time ") + formatDuration(sum)), qPrintable(heading));
        // The drop zone's GPU time is the same kernel time.
        QVERIFY(window.dropZone(0)->detailsText().contains(formatDuration(sum) + QStringLiteral(" GPU time")));
    }

    // Item 21: a save that works clears the error a failed one left on screen.
    void aSaveThatWorksClearsTheStaleError()
    {
        MainWindow window;
        window.show();
        QVERIFY(compare(window, sampleA(), sampleB()));
        auto* exports = window.findChild<ResultsExports*>();
        QVERIFY(exports);
        emit exports->failed(QStringLiteral("Cannot write /nowhere/op_summary.csv: No such file or directory"));
        QVERIFY(window.messageLabel()->isVisible());
        emit exports->written(QStringLiteral("Wrote /tmp/op_summary.csv"));
        QVERIFY(!window.messageLabel()->isVisible());
        // Another message (not an export's) stays.
        window.messageLabel()->setText(QStringLiteral("The classifier cannot be used"));
        window.messageLabel()->show();
        emit exports->written(QStringLiteral("Wrote /tmp/op_summary.csv"));
        QVERIFY(window.messageLabel()->isVisible());
    }

    // Item 22: each match says what it is and which side runs it; the list is wide enough for a
    // name and stays inside the window; a text that matches nothing says so.
    void searchSaysWhatEachMatchIs()
    {
        MainWindow window;
        window.resize(1024, 700);
        window.show();
        QVERIFY(compare(window, sampleA(), sampleB()));
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        GlobalSearch* search = window.search();
        const FusionReport& report = *window.controller()->results().report;
        const QList<GlobalSearch::Hit> hits = search->find(QStringLiteral("cijk"), 500);
        QVERIFY(!hits.isEmpty());
        for (const GlobalSearch::Hit& hit : hits) {
            QCOMPARE(hit.kind, GlobalSearch::Kernel);
            const KernelNameRow& kernel = report.kernels[static_cast<size_t>(hit.row)];
            const QString side = kernel.count[0] > 0 && kernel.count[1] > 0 ? QStringLiteral("A and B")
                : kernel.count[0] > 0                                       ? QStringLiteral("A only")
                                                                            : QStringLiteral("B only");
            QVERIFY2(hit.text.startsWith(QStringLiteral("Kernel, %1:").arg(side)), qPrintable(hit.text));
        }
        const QList<GlobalSearch::Hit> types = search->find(QStringLiteral("gemm"), 500);
        QVERIFY(std::any_of(types.begin(), types.end(), [](const GlobalSearch::Hit& hit) {
            return hit.kind == GlobalSearch::KernelType && hit.text.startsWith(QStringLiteral("Kernel type, "));
        }));

        // The list: wider than the box, inside the window.
        search->setFocus();
        QTest::keyClicks(search, QStringLiteral("cijk"));
        QAbstractItemView* popup = search->completer()->popup();
        QVERIFY(QTest::qWaitFor([&] { return popup->isVisible(); }, 5000));
        const QRect onScreen(popup->mapToGlobal(QPoint(0, 0)), popup->size());
        const QRect windowRect(window.mapToGlobal(QPoint(0, 0)), window.size());
        QVERIFY2(popup->width() > search->width() + 100,
            qPrintable(QStringLiteral("%1 vs %2").arg(popup->width()).arg(search->width())));
        QVERIFY2(windowRect.contains(onScreen.topLeft()) && onScreen.right() <= windowRect.right(),
            qPrintable(QStringLiteral("popup x %1..%2, window %3..%4")
                           .arg(onScreen.left())
                           .arg(onScreen.right())
                           .arg(windowRect.left())
                           .arg(windowRect.right())));
        QVERIFY(search->noMatchText().isEmpty());

        search->clear();
        QTest::keyClicks(search, QStringLiteral("zzzz-nothing"));
        QVERIFY2(search->noMatchText().contains(QStringLiteral("Nothing matches")), qPrintable(search->noMatchText()));
    }

    // Item 24: the unattributed part, clicked, shows its own numbers (not the whole traces' in
    // Kernel types), and the traces table calls it by the same name.
    void unattributedPartShowsItsOwnNumbers()
    {
        MainWindow window;
        window.show();
        QVERIFY(compare(window, sampleA(), sampleB()));
        const FusionReport& report = *window.controller()->results().report;
        std::vector<GapCause> causes;
        const TimeGapBreakdown& shown = report.timeGap.headline(); // the waterfall's default basis
        gapByCause(report, shown, &causes);
        const auto at = std::find(causes.begin(), causes.end(), GapCause::Unattributed);
        QVERIFY(at != causes.end());
        const auto part = std::find_if(shown.parts.begin(), shown.parts.end(),
            [](const TimeGapPart& p) { return p.cause == GapCause::Unattributed; });
        SummaryPage* summary = window.summaryPage();
        window.tabs()->setCurrentWidget(summary);
        emit summary->waterfall()->partClicked(static_cast<int>(at - causes.begin()));
        QCOMPARE(window.tabs()->currentWidget(), summary);
        const QString details = summary->partDetailsText();
        QVERIFY2(details.contains(QStringLiteral("unattributed")), qPrintable(details));
        QVERIFY2(details.contains(formatDuration(part->timeUs[0])), qPrintable(details));
        QVERIFY(details.contains(formatCountOf(part->kernels[0], QStringLiteral("kernel"), QStringLiteral("kernels"))));
        // Not the whole trace's kernel time.
        QVERIFY(!details.contains(formatDuration(report.timeGap.kernelTime.timeUs[0])));
        // Signed as its bar and the verdict: what it adds to the slower side's time.
        const bool aSlower = shown.deltaUs > 0;
        const QString added = formatSignedDuration((aSlower ? 1.0 : -1.0) * part->deltaUs);
        QVERIFY2(details.contains(added + (aSlower ? QStringLiteral(" to A's time") : QStringLiteral(" to B's time"))),
            qPrintable(details + QStringLiteral(" | ") + added));
        QStringList rows;
        for (int row = 0; row < summary->table()->proxy()->rowCount(); ++row)
            rows << summary->table()->proxy()->index(row, 0).data().toString();
        QVERIFY2(rows.contains(QStringLiteral("Unattributed kernels (no launch in the trace)")),
            qPrintable(rows.join(QLatin1Char('|'))));
    }

    // Item 10: on Pi0 the MI350's trace stops recording its one graph's kernels 9.3 ms before the
    // graph is done. The verdict's first sentence counted that time, the waterfall and the trace
    // table did not (A 15.0 ms): now every number on the Summary counts it, and says so.
    void partlyRecordedGraphCountsOnEverySummaryView()
    {
        MainWindow window;
        window.show();
        QVERIFY(compare(window, realTrace("pi0_torchcompile_hipgraph.mi350.json.gz"),
            realTrace("pi0_torchcompile_cudagraph.h200.json.gz")));
        const FusionReport& report = *window.controller()->results().report;
        SummaryPage* summary = window.summaryPage();
        window.tabs()->setCurrentWidget(summary);
        const TimeGapBreakdown& shown = report.timeGap.headline();
        QCOMPARE(shown.basis, TimeBasis::StepTime);
        const QString counted = formatDuration(shown.timeUs[0]);
        QCOMPARE(counted, QStringLiteral("24.3 ms"));
        const QString verdict = summary->verdictText();
        QVERIFY2(verdict.contains(QStringLiteral("in step time (36.7 ms vs 24.3 ms, A's with 9.3 ms not recorded)")),
            qPrintable(verdict));
        QVERIFY2(!verdict.contains(QStringLiteral("15.0 ms")), qPrintable(verdict));
        // The waterfall: from A's 24.3 ms, its parts (one "not recorded") add up to B's total.
        GapWaterfall* waterfall = summary->waterfall();
        std::vector<GapCause> causes;
        const GapWaterfallData data = gapByCause(report, shown, &causes);
        QCOMPARE(waterfall->parts().size(), data.parts.size()); // no "Not attributed" remainder
        const auto at = std::find(causes.begin(), causes.end(), GapCause::NotRecorded);
        QVERIFY(at != causes.end());
        const int bar = static_cast<int>(at - causes.begin()) + 1;
        QCOMPARE(waterfall->parts()[size_t(bar - 1)].title, QStringLiteral("not recorded"));
        QVERIFY2(waterfall->barToolTip(bar).contains(QStringLiteral("GPU time without kernel records: A 9.3 ms")),
            qPrintable(waterfall->barToolTip(bar)));
        QVERIFY2(waterfall->barToolTip(0).contains(counted), qPrintable(waterfall->barToolTip(0)));
        // Its details stay on the Summary, signed as its bar (what it adds to the slower B), with the
        // launch that ran on.
        emit waterfall->partClicked(bar - 1);
        QCOMPARE(window.tabs()->currentWidget(), summary);
        const QString details = summary->partDetailsText();
        QVERIFY2(details.contains(QStringLiteral("A 9.3 ms, B 0 us; -9.3 ms to B's time")), qPrintable(details));
        QVERIFY2(details.contains(QStringLiteral("hipStreamSynchronize")), qPrintable(details));
        // The trace table says its kernel time is what the trace records.
        QAbstractItemModel* table = summary->table()->proxy();
        bool found = false;
        for (int row = 0; row < table->rowCount(); ++row) {
            if (table->index(row, 0).data().toString() != QStringLiteral("Recorded kernel time"))
                continue;
            found = true;
            QCOMPARE(table->index(row, 1).data().toString(), QStringLiteral("15.0 ms (and 9.3 ms not recorded)"));
            QCOMPARE(table->index(row, 2).data().toString(), QStringLiteral("21.8 ms"));
        }
        QVERIFY(found);
        // The drop zones above say the same: A's GPU time recorded and not recorded, B's as loaded.
        QVERIFY2(window.dropZone(0)->detailsText().endsWith(
                     QStringLiteral("15.0 ms GPU time recorded, 9.3 ms not recorded")),
            qPrintable(window.dropZone(0)->detailsText()));
        QVERIFY2(window.dropZone(1)->detailsText().endsWith(QStringLiteral(" 21.8 ms GPU time")),
            qPrintable(window.dropZone(1)->detailsText()));
        // The Timeline: A's lane runs on through the not recorded time, hatched and named; its
        // span is the step's, its kernel time the recorded one.
        const AnalysisResults& results = window.controller()->results();
        const TimelineData timeline = timelineOfTraces(
            { results.stores[0].get(), results.stores[1].get() }, *results.classifier, 10000000, &report.stepTime);
        const TimelineLane& laneA = timeline.lanes[0];
        QCOMPARE(laneA.notRecorded.size(), size_t(1));
        QCOMPARE(formatDuration(laneA.notRecordedTime), QStringLiteral("9.3 ms"));
        QCOMPARE(formatDuration(laneA.end), QStringLiteral("24.3 ms"));
        QCOMPARE(formatDuration(laneA.kernelTime), QStringLiteral("15.0 ms"));
        QVERIFY(timeline.lanes[1].notRecorded.empty());
        window.tabs()->setCurrentWidget(window.timelinePage());
        const QString heading = window.timelinePage()->timeline()->view()->laneHeading(0);
        QVERIFY2(heading.endsWith(QStringLiteral("span 24.3 ms \u00B7 kernel time 15.0 ms \u00B7 9.3 ms not recorded")),
            qPrintable(heading));
    }

    void referenceAnalysisCarriesTheCliCaveat()
    {
        // Issue 39, items 5 and 9: the reference analysis on a pair where it misleads says so on
        // every view that shows it, as the CLI does: Pi0's MI350 trace records only part of its
        // graph, and two unrelated traces do not run the same work.
        MainWindow window;
        window.show();
        QVERIFY(compare(window, realTrace("pi0_torchcompile_hipgraph.mi350.json.gz"),
            realTrace("pi0_torchcompile_cudagraph.h200.json.gz")));
        const QString partial = QStringLiteral("A's trace records only part of its graph launches (9.3 ms");
        QVERIFY2(window.mappingsPage()->title().contains(partial), qPrintable(window.mappingsPage()->title()));
        QVERIFY(window.opportunitiesPage()->table()->title().contains(partial));
        QVERIFY2(window.summaryPage()->findingsText().contains(
                     QStringLiteral("The reference analysis (the seed's; of limited meaning for this pair: A's trace "
                                    "records only part")),
            qPrintable(window.summaryPage()->findingsText()));

        QVERIFY(compare(window, realTrace("bert-small-uncased.mi300x.json.gz"),
            realTrace("timesformer-base-finetuned-k400.h100.json.gz")));
        QVERIFY(window.controller()->results().report->timeGap.differentWork);
        QVERIFY(window.mappingsPage()->title().contains(QStringLiteral("not meaningful for this pair")));
        QVERIFY(window.opportunitiesPage()->table()->title().contains(QStringLiteral("not meaningful for this pair")));
        QVERIFY(window.summaryPage()->findingsText().contains(QStringLiteral("not meaningful for this pair")));

        QVERIFY(compare(window, sampleA(), sampleB()));
        QVERIFY(window.mappingsPage()->title().isEmpty());
    }

    // Item 26: counts in the number that fits, a unit for Impact, readable settings, and no
    // "Fused by" a side that runs nothing.
    void wordingFitsItsNumbers()
    {
        QCOMPARE(formatCountOf(1, QStringLiteral("kernel"), QStringLiteral("kernels")), QStringLiteral("1 kernel"));
        QCOMPARE(formatCountOf(0, QStringLiteral("kernel"), QStringLiteral("kernels")), QStringLiteral("0 kernels"));
        QCOMPARE(
            formatCountOf(1200, QStringLiteral("kernel"), QStringLiteral("kernels")), QStringLiteral("1,200 kernels"));

        ReportColumnsModel opportunities(ReportTableId::FusionOpportunities);
        const int impact = opportunities.column("impact");
        QVERIFY(impact >= 0);
        QVERIFY2(opportunities.headerData(impact, Qt::Horizontal).toString().contains(QStringLiteral("kernels")),
            qPrintable(opportunities.headerData(impact, Qt::Horizontal).toString()));

        AnalysisSettingsWidget settings;
        int labelled = 0;
        for (const AnalysisParameter& parameter : analysisParameters()) {
            const QString key
                = QString::fromLatin1(parameter.name.data(), static_cast<qsizetype>(parameter.name.size()));
            auto* box = settings.findChild<QWidget*>(key);
            QVERIFY(box);
            QVERIFY(box->toolTip().contains(key));
            const QList<QLabel*> labels = settings.findChildren<QLabel*>();
            const auto label = std::find_if(labels.begin(), labels.end(), [&](QLabel* l) { return l->buddy() == box; });
            QVERIFY(label != labels.end());
            QVERIFY2(!(*label)->text().contains(QLatin1Char('_')), qPrintable((*label)->text()));
            QVERIFY((*label)->toolTip().contains(key));
            ++labelled;
        }
        QVERIFY(labelled > 10);

        // An operation whose fused side runs nothing: that side fused nothing.
        auto report = std::make_shared<FusionReport>();
        report->sideNames = { "AMD", "NVIDIA" };
        OpFinding finding;
        finding.op = "aten::copy_";
        finding.fusedSide = Side::Trace1;
        finding.kernels[1].resize(2); // B runs two kernels, A (the "fused" side) none
        report->opFindings.push_back(finding);
        ReportColumnsModel findings(ReportTableId::OpFindings);
        findings.setReport(report);
        const QString fusedBy = findings.index(0, findings.column("fused_by_side")).data().toString();
        QVERIFY2(fusedBy.startsWith(QStringLiteral("only ")) && fusedBy.contains(QStringLiteral("(B) runs it")),
            qPrintable(fusedBy));
        auto fused = std::make_shared<FusionReport>(*report);
        fused->opFindings[0].kernels[0].resize(1);
        findings.setReport(fused);
        QCOMPARE(
            findings.index(0, findings.column("fused_by_side")).data().toString().startsWith(QStringLiteral("only")),
            false);
    }

    // Item 28: cancelling the analysis of a new trace against the pair on screen keeps the new
    // trace, which had loaded; the side still as on screen stays. The cancel comes as the new
    // trace arrives on its side, the analysis then about to start or running: waiting to see the
    // controller analysing missed it where the analysis took less than a poll of qWaitFor.
    void cancelKeepsATraceThatHadLoaded()
    {
        MainWindow window;
        window.show();
        QVERIFY(compare(window, sampleA(), sampleB()));
        AnalysisController* controller = window.controller();
        const std::shared_ptr<const TraceStore> shownA = controller->side(0).store;
        const std::shared_ptr<const TraceStore> shownB = controller->side(1).store;
        const QString owlv2 = realTrace("owlv2-large-patch14-ensemble.mi300x.json.gz");
        bool cancelledOnArrival = false;
        const QMetaObject::Connection cancelOnArrival
            = connect(controller, &AnalysisController::sideChanged, this, [&](int side) {
                  const AnalysisController::SideState& state = controller->side(side);
                  if (side == 0 && !cancelledOnArrival && state.status == AnalysisController::Status::Loaded
                      && state.store != shownA) {
                      cancelledOnArrival = true;
                      controller->cancel();
                  }
              });
        QSignalSpy cancelled(controller, &AnalysisController::cancelled);
        window.openTrace(0, owlv2);
        const bool cancelledInTime = cancelled.wait(kTimeoutMs);
        disconnect(cancelOnArrival);
        QVERIFY(cancelledInTime);
        QVERIFY(cancelledOnArrival);
        QVERIFY(QTest::qWaitFor([&] { return !controller->isBusy(); }, kTimeoutMs));
        QCOMPARE(controller->side(0).status, AnalysisController::Status::Loaded);
        QCOMPARE(controller->side(0).path, QFileInfo(owlv2).absoluteFilePath());
        QVERIFY(window.dropZone(0)->fileText().contains(QFileInfo(owlv2).fileName()));
        QCOMPARE(controller->side(1).store, shownB);
    }

    // Expected: the Operation summary's B - A time, sorted by what each operation adds to the gap.
    void operationSummaryHasTheGapColumn()
    {
        MainWindow window;
        QVERIFY(compare(window, sampleA(), sampleB()));
        const FusionReport& report = *window.controller()->results().report;
        ReportColumnsModel model(ReportTableId::OpSummary);
        model.setReport(window.controller()->results().report);
        const int column = model.column("delta_time_us");
        QVERIFY(column >= 0);
        QCOMPARE(model.headerData(column, Qt::Horizontal).toString(), QStringLiteral("B \u2212 A time"));
        for (int row = 0; row < model.rowCount(); ++row) {
            const OpSummary& summary = report.opSummary[static_cast<size_t>(row)];
            QCOMPARE(model.index(row, column).data().toString(),
                formatSignedDuration(summary.timeUs[1].total - summary.timeUs[0].total));
        }
        // Sorted, the first operation adds most to the slower side's time.
        TableFilterProxy proxy;
        proxy.setSourceModel(&model);
        proxy.sort(column, Qt::DescendingOrder);
        const double sign = report.timeGap.kernelTime.timeUs[1] >= report.timeGap.kernelTime.timeUs[0] ? 1 : -1;
        double largest = -1e300;
        for (const OpSummary& summary : report.opSummary)
            largest = std::max(largest, sign * (summary.timeUs[1].total - summary.timeUs[0].total));
        const int first = proxy.index(0, column).data(ReportTableModel::SourceRowRole).toInt();
        const OpSummary& top = report.opSummary[static_cast<size_t>(first)];
        QCOMPARE(sign * (top.timeUs[1].total - top.timeUs[0].total), largest);
        // In the CSV too.
        const ReportTable table = reportTable(ReportTableId::OpSummary, report);
        QVERIFY(std::any_of(table.columns.begin(), table.columns.end(),
            [](const TableColumn& c) { return c.key == "delta_time_us" && c.inCsv; }));
    }

    // Expected: Ctrl+C on a kernel name copies the name alone, as the trace has it.
    void copyOnAKernelNameCopiesTheNameAlone()
    {
        MainWindow window;
        window.show();
        QVERIFY(compare(window, sampleA(), sampleB()));
        window.tabs()->setCurrentWidget(window.kernelsTab());
        TablePage* page = window.kernelsPage();
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window)); // shortcuts go to the active window
        const QModelIndex name = page->proxy()->index(0, 0);
        page->view()->selectRow(0);
        page->view()->selectionModel()->setCurrentIndex(name, QItemSelectionModel::NoUpdate);
        page->view()->setFocus();
        const QString whole = name.data(ReportTableModel::FullTextRole).toString();
        QApplication::clipboard()->clear();
        const QList<QAction*> viewActions = page->view()->actions();
        const auto copyAction = std::find_if(viewActions.begin(), viewActions.end(),
            [](QAction* a) { return a->shortcut() == QKeySequence(QKeySequence::Copy); });
        QVERIFY(copyAction != viewActions.end());
        QSignalSpy copies(*copyAction, &QAction::triggered);
        QTest::keySequence(page->view(), QKeySequence::Copy);
        QCOMPARE(copies.count(), 1);
        QCOMPARE(QApplication::clipboard()->text(), whole);
        // From another column, the rows with their header.
        page->view()->selectionModel()->setCurrentIndex(page->proxy()->index(0, 1), QItemSelectionModel::NoUpdate);
        QTest::keySequence(page->view(), QKeySequence::Copy);
        QVERIFY2(QApplication::clipboard()->text().contains(QLatin1Char('\t')),
            qPrintable(QApplication::clipboard()->text()));
        QCOMPARE(page->selectedNamesText(), whole);
        const QList<QAction*> actions = page->view()->actions();
        QVERIFY(std::any_of(
            actions.begin(), actions.end(), [](QAction* a) { return a->text() == QStringLiteral("Copy &Name"); }));
    }
};

QTEST_MAIN(TestTrustworthyViews)
#include "tst_trustworthyviews.moc"
