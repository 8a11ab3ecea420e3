// Issue 39's visual low defects, each as a user met it on the real pairs: the Steps chart's time
// axis and Pi0's not recorded time, the Operation summary's rows in a 1024x700 window and the
// Efficiency table's columns in a 1440x900 one. (The colours are in tst_colors, the drop zones'
// names and "GPU model not recorded" in tst_welcomepage, the report's name in tst_resultstabs.)

#include "mainwindowtestsupport.h"

#include "analysis/analysiscontroller.h"
#include "charts/stepchart.h"
#include "display/colors.h"
#include "display/formatting.h"
#include "efficiency/efficiencypage.h"
#include "model/fusionreport.h"
#include "models/reporttablemodel.h"
#include "pages/operationsummarypage.h"
#include "pages/stepspage.h"
#include "pages/tablepage.h"
#include "shell/mainwindow.h"
#include "shell/resultstabs.h"
#include "widgets/columnchooser.h"

#include <QAction>
#include <QHeaderView>
#include <QImage>
#include <QJsonObject>
#include <QMenu>
#include <QScrollBar>
#include <QTableView>
#include <QTest>
#include <QToolButton>

#include <algorithm>

using namespace fusiondiff;
using namespace fusiondiff::ui;

namespace {

QString realTrace(const char* name)
{
    return test::realTrace(QString::fromLatin1(name));
}

// The rows of `view` whose whole height is inside its viewport.
int wholeRowsShown(QTableView* view)
{
    const int rows = view->model()->rowCount();
    int whole = 0;
    for (int row = 0; row < rows; ++row) {
        const int top = view->rowViewportPosition(row);
        if (top >= 0 && top + view->rowHeight(row) <= view->viewport()->height())
            ++whole;
    }
    return whole;
}

int shownColumnsWidth(QTableView* view)
{
    int width = 0;
    for (int column = 0; column < view->model()->columnCount(); ++column) {
        if (!view->isColumnHidden(column))
            width += view->columnWidth(column);
    }
    return width;
}

} // namespace

class TestVisualDefects : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { test::useOwnSettings(QStringLiteral("tst_visualdefects")); }
    void cleanupTestCase() { test::removeOwnSettings(); }

    // Pi0's MI350 trace has 9.3 ms of busy GPU time without kernel records in its step: the Steps
    // chart showed it only in a tooltip, and had no time axis to read the bars against.
    void stepChartShowsNotRecordedTimeOnATimeAxis()
    {
        MainWindow window;
        window.resize(1440, 900);
        window.show();
        QVERIFY(test::compare(window, realTrace("pi0_torchcompile_hipgraph.mi350.json.gz"),
            realTrace("pi0_torchcompile_cudagraph.h200.json.gz")));
        const FusionReport& report = *window.controller()->results().report;
        StepsPage* steps = window.tabs()->stepsPage();
        window.tabs()->setCurrentWidget(steps);
        StepChart* chart = steps->chart();
        QVERIFY(QTest::qWaitForWindowExposed(chart));
        QVERIFY(chart->legendNames().contains(QStringLiteral("busy, not recorded")));
        const std::vector<StepRecord>& a = report.stepTime.sides[0].steps;
        size_t partly = a.size();
        for (size_t step = 0; step < a.size(); ++step) {
            const std::vector<double> stack = chart->stackUs(0, step);
            QCOMPARE(stack[1], a[step].notRecordedUs);
            QCOMPARE(stack[0] + stack[1], a[step].busyUs);
            if (a[step].notRecordedUs > 0)
                partly = step;
        }
        QVERIFY(partly < a.size());
        QCOMPARE(formatDuration(a[partly].notRecordedUs), QStringLiteral("9.3 ms"));

        // The axis: from 0 up past the tallest step in round steps, labelled in ms.
        const std::vector<double> ticks = chart->axisTicksUs();
        QVERIFY(ticks.size() >= 3);
        QCOMPARE(ticks.front(), 0.0);
        double tallest = 0;
        for (int side = 0; side < 2; ++side) {
            for (const StepRecord& step : report.stepTime.sides[size_t(side)].steps)
                tallest = std::max(tallest, step.timeUs());
        }
        QVERIFY(ticks.back() >= tallest * 0.999);
        QVERIFY(ticks[ticks.size() - 2] < tallest);
        QVERIFY2(chart->axisLabel(ticks[1]).endsWith(QStringLiteral(" ms")), qPrintable(chart->axisLabel(ticks[1])));

        // Drawn: the not recorded part of A's bar is hatched, not A's colour, and as tall as its share.
        const QImage image = chart->grab().toImage();
        const QRectF bar = chart->barRect(0, partly);
        const std::vector<double> stack = chart->stackUs(0, partly);
        double total = 0;
        for (const double us : stack)
            total += us;
        const double recordedTop = bar.bottom() - bar.height() * stack[0] / total;
        const double notRecordedTop = recordedTop - bar.height() * stack[1] / total;
        const qreal ratio = image.devicePixelRatio();
        const auto colourAt
            = [&](double x, double y) { return image.pixelColor(QPoint(int(x * ratio), int(y * ratio))); };
        QCOMPARE(colourAt(bar.center().x(), (bar.bottom() + recordedTop) / 2), sideColor(0));
        QVERIFY(recordedTop - notRecordedTop > 6);
        int sampled = 0;
        int sideColoured = 0;
        for (double y = notRecordedTop + 2; y < recordedTop - 2; y += 1, ++sampled) {
            if (colourAt(bar.center().x(), y) == sideColor(0))
                ++sideColoured;
        }
        QCOMPARE(sideColoured, 0);
        QVERIFY(sampled > 0);

        // A pair without such time: no legend entry for it.
        QVERIFY(test::compare(window, test::sampleA(), test::sampleB()));
        QVERIFY(!chart->legendNames().contains(QStringLiteral("busy, not recorded")));
    }

    // At 1024x700 the Operation summary showed two and a half rows of its table: the panels below
    // (extra kernels, communication) took the rest.
    void operationSummaryShowsRowsAt1024x700()
    {
        MainWindow window;
        window.resize(1024, 700);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(test::compare(window, test::sampleA(), test::sampleB()));
        OperationSummaryPage* page = window.operationSummaryPage();
        window.tabs()->setCurrentWidget(page);
        QTableView* view = page->summaryTable()->view();
        QTRY_VERIFY(view->isVisible());
        QApplication::processEvents();
        QVERIFY2(view->model()->rowCount() >= 10, "the bundled pair has more than 10 operations");
        QVERIFY2(wholeRowsShown(view) >= 8, qPrintable(QString::number(wholeRowsShown(view))));
    }

    // At 1440x900 the Efficiency table's 25 columns ran off its right edge: the secondary ones are
    // hidden by default, and come back from the Columns menu.
    void efficiencyColumnsFitAt1440x900()
    {
        MainWindow window;
        window.resize(1440, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(test::compare(window, test::sampleA(), test::sampleB()));
        EfficiencyPage* page = window.tabs()->efficiencyPage();
        window.tabs()->setCurrentWidget(page);
        QTableView* view = page->table()->view();
        QTRY_VERIFY(view->isVisible());
        QApplication::processEvents();
        QTRY_VERIFY2(shownColumnsWidth(view) <= view->viewport()->width(),
            qPrintable(QStringLiteral("%1 > %2").arg(shownColumnsWidth(view)).arg(view->viewport()->width())));
        QVERIFY(!view->horizontalScrollBar()->isVisible());
        // The columns a reader needs first are there.
        QStringList shown;
        for (int column = 0; column < view->model()->columnCount(); ++column) {
            if (!view->isColumnHidden(column))
                shown.append(
                    view->model()->headerData(column, Qt::Horizontal, ReportTableModel::ColumnKeyRole).toString());
        }
        for (const char* key : { "op", "shape", "dtype", "trace1_median_us", "trace2_median_us", "trace1_peak_share",
                 "trace2_peak_share", "bound", "stake_us" })
            QVERIFY2(shown.contains(QString::fromLatin1(key)), key);
        auto* button = page->findChild<QToolButton*>(QStringLiteral("efficiency_columns"));
        QVERIFY(button);
        QVERIFY2(button->text().startsWith(QStringLiteral("Columns (")), qPrintable(button->text()));

        // The way back: every column from the menu, then the defaults again.
        QMenu* menu = page->columns()->menu();
        emit menu->aboutToShow();
        QAction* every = nullptr;
        for (QAction* action : menu->actions()) {
            if (action->text() == QStringLiteral("Show every column"))
                every = action;
        }
        QVERIFY(every);
        every->trigger();
        for (int column = 0; column < view->model()->columnCount(); ++column)
            QVERIFY(!view->isColumnHidden(column));
        QCOMPARE(button->text(), QStringLiteral("Columns"));
        // One column by its entry; kept in the page's state.
        emit menu->aboutToShow();
        for (QAction* action : menu->actions()) {
            if (action->text() == QStringLiteral("A note"))
                action->setChecked(false);
        }
        QCOMPARE(page->columns()->hiddenKeys(), QStringList { QStringLiteral("trace1_note") });
        const QJsonObject state = page->saveState();
        page->columns()->setHiddenKeys({});
        page->restoreState(state);
        QCOMPARE(page->columns()->hiddenKeys(), QStringList { QStringLiteral("trace1_note") });
    }
};

QTEST_MAIN(TestVisualDefects)
#include "tst_visualdefects.moc"
