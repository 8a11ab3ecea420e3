// The defects a first session with the app ran into (issue 13), each driven as a user meets it:
// a dark theme, a new pair over an old one, the window's size on small screens, the keyboard,
// kernel and trace names, cancelling and the recent files.

#include "mainwindowtestsupport.h"

#include "analysis/analysiscontroller.h"
#include "charts/barchart.h"
#include "charts/chartpanel.h"
#include "charts/gapwaterfall.h"
#include "charts/stepchart.h"
#include "display/colors.h"
#include "display/formatting.h"
#include "display/kernelnames.h"
#include "display/sidenames.h"
#include "model/fusionreport.h"
#include "model/tracestore.h"
#include "models/findingalignmentmodel.h"
#include "models/groupdiffmodel.h"
#include "models/reportcolumnsmodel.h"
#include "models/reporttablemodel.h"
#include "models/tablefilterproxy.h"
#include "pages/groupspage.h"
#include "pages/kernelspage.h"
#include "pages/operationspage.h"
#include "pages/operationsummarypage.h"
#include "pages/stepspage.h"
#include "pages/summarypage.h"
#include "pages/tablechartpage.h"
#include "pages/tablepage.h"
#include "report/reportwriters.h"
#include "shell/globalsearch.h"
#include "shell/mainwindow.h"
#include "shell/resultstabs.h"
#include "widgets/filterlineedit.h"
#include "widgets/tracedropzone.h"

#include <QAbstractAxis>
#include <QAction>
#include <QBarSet>
#include <QChart>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHeaderView>
#include <QHorizontalBarSeries>
#include <QImage>
#include <QLabel>
#include <QLegend>
#include <QLocale>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QSplitter>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QUrl>

#include <algorithm>

using namespace fusiondiff;
using namespace fusiondiff::ui;
using test::compare;
using test::sampleA;
using test::sampleB;

namespace {

constexpr int kTimeoutMs = 120000;
constexpr double kMinimumContrast = 4.5; // WCAG AA for body text

// Shows `window`, opens `a` and `b` in it and waits for their results.
QString realTrace(const char* name)
{
    return test::realTrace(QString::fromLatin1(name));
}

QString contrastText(const QColor& a, const QColor& b)
{
    return QStringLiteral("%1 on %2: %3").arg(a.name(), b.name()).arg(contrastRatio(a, b));
}

} // namespace

class TestAppDefects : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { test::useOwnSettings(QStringLiteral("tst_appdefects")); }

    void cleanupTestCase() { test::removeOwnSettings(); }

    void init() { QSettings().clear(); }

    // Highlighted rows, legend chips and charts keep the palette's text readable, in a light and
    // in a dark theme.
    void highlightsAndChartsFollowThePalette_data()
    {
        QTest::addColumn<bool>("dark");
        QTest::newRow("light") << false;
        QTest::newRow("dark") << true;
    }
    void highlightsAndChartsFollowThePalette()
    {
        QFETCH(bool, dark);
        const QPalette original = QApplication::palette();
        QApplication::setPalette(dark ? darkPalette() : QPalette(QColor(0xEF, 0xEF, 0xEF)));
        const auto restore = qScopeGuard([&] { QApplication::setPalette(original); });
        QCOMPARE(isDarkPalette(), dark);

        MainWindow window;
        window.show();
        QVERIFY(compare(window, sampleA(), sampleB()));
        const QColor text = QApplication::palette().color(QPalette::Text);
        for (const QColor& background :
            { sideBackground(0), sideBackground(1), differenceBackground(), gapBackground() })
            QVERIFY2(contrastRatio(text, background) >= kMinimumContrast, qPrintable(contrastText(text, background)));
        // The chips of the legends draw the palette's text on those backgrounds.
        QVERIFY(colorChip(sideBackground(0), QStringLiteral("x")).contains(text.name()));

        // The highlighted rows of the side-by-side view, as the model gives them.
        window.tabs()->setCurrentWidget(window.operationsPage());
        QAbstractItemModel* rows = window.operationsPage()->alignmentTable()->proxy();
        QVERIFY(rows->rowCount() > 0);
        int highlighted = 0;
        for (int row = 0; row < rows->rowCount(); ++row) {
            for (int column = 0; column < rows->columnCount(); ++column) {
                const QModelIndex index = rows->index(row, column);
                const QVariant background = index.data(Qt::BackgroundRole);
                if (!background.isValid())
                    continue;
                const QVariant foreground = index.data(Qt::ForegroundRole);
                const QColor shown = foreground.isValid() ? foreground.value<QColor>() : text;
                ++highlighted;
                QVERIFY2(contrastRatio(shown, background.value<QColor>()) >= kMinimumContrast,
                    qPrintable(contrastText(shown, background.value<QColor>())));
            }
        }
        QVERIFY(highlighted > 0);

        // The charts: their background is the palette's, their labels its text.
        window.tabs()->setCurrentWidget(window.kernelTypesPage());
        QChart* chart = window.kernelTypesPage()->chartPanel()->chart()->chart();
        const QColor chartBackground = chart->backgroundBrush().color();
        QVERIFY2(contrastRatio(chart->legend()->labelColor(), chartBackground) >= kMinimumContrast,
            qPrintable(contrastText(chart->legend()->labelColor(), chartBackground)));
        QVERIFY2(contrastRatio(chart->titleBrush().color(), chartBackground) >= kMinimumContrast,
            qPrintable(contrastText(chart->titleBrush().color(), chartBackground)));
        const QList<QAbstractAxis*> axes = chart->axes();
        QVERIFY(!axes.isEmpty());
        for (QAbstractAxis* axis : axes)
            QVERIFY2(contrastRatio(axis->labelsColor(), chartBackground) >= kMinimumContrast,
                qPrintable(contrastText(axis->labelsColor(), chartBackground)));
        QCOMPARE(chartBackground.lightnessF() < 0.5, dark);
    }

    // The window opens inside the screen's available area (1440x900 where there is room), its
    // status bar on screen, at any scale factor; a saved geometry larger than the screen is fitted.
    void defaultWindowFitsTheScreen()
    {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const QRect available = window.screen()->availableGeometry();
        qInfo() << "available" << available << "window" << window.frameGeometry() << "minimum"
                << window.minimumSizeHint();
        QVERIFY2(available.contains(window.frameGeometry()),
            qPrintable(QStringLiteral("%1x%2 at %3,%4")
                           .arg(window.width())
                           .arg(window.height())
                           .arg(window.x())
                           .arg(window.y())));
        QVERIFY(window.width() <= 1440 && window.height() <= 900);
        QVERIFY(available.contains(window.statusBar()->mapTo(&window, window.statusBar()->rect().bottomRight())
            + window.geometry().topLeft()));
        window.resize(available.size() * 2);
        window.close(); // saves the geometry

        MainWindow restored;
        restored.show();
        QVERIFY(QTest::qWaitForWindowExposed(&restored));
        QVERIFY(available.contains(restored.frameGeometry()));
    }

    // A pair without fusion opportunities shown on their tab, then a pair with some: the chart
    // takes its share of the page again, its labels whole.
    void chartAfterAnEmptyOpportunitiesTabIsFullSize()
    {
        MainWindow window;
        window.resize(1440, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(compare(window, sampleA(), sampleB()));
        TableChartPage* page = window.opportunitiesPage();
        window.tabs()->setCurrentWidget(page);
        QTest::qWait(50);
        QVERIFY(!page->chartPanel()->chart()->isVisible());

        QVERIFY(compare(
            window, realTrace("vllm_decode_full_graph.mi300x.json.gz"), realTrace("hta_trace_diff_test.v100.json.gz")));
        QTest::qWait(50);
        BarChart* chart = page->chartPanel()->chart();
        QVERIFY(chart->isVisible());
        QVERIFY2(chart->height() >= page->height() / 3, qPrintable(QString::number(chart->height())));
        QVERIFY2(chart->chart()->plotArea().width() >= chart->width() / 3,
            qPrintable(QString::number(chart->chart()->plotArea().width())));
    }

    // Ctrl+Tab, Ctrl+Shift+Tab, Ctrl+PgDn and Ctrl+PgUp change tabs while a table has the focus.
    void tabShortcutsWorkFromATable()
    {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(compare(window, sampleA(), sampleB()));
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        window.tabs()->setCurrentWidget(window.kernelsTab());
        QTableView* table = window.kernelsPage()->view();
        table->setFocus();
        QVERIFY(QTest::qWaitFor([&] { return table->hasFocus(); }));
        const int start = window.tabs()->currentIndex();
        QTest::keyClick(table, Qt::Key_PageDown, Qt::ControlModifier);
        QCOMPARE(window.tabs()->currentIndex(), start + 1);
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_PageUp, Qt::ControlModifier);
        QCOMPARE(window.tabs()->currentIndex(), start);
        table->setFocus();
        QTest::keyClick(table, Qt::Key_Tab, Qt::ControlModifier);
        QCOMPARE(window.tabs()->currentIndex(), start + 1);
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Backtab, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(window.tabs()->currentIndex(), start);
        // The last tab wraps to the first.
        window.tabs()->setCurrentIndex(window.tabs()->count() - 1);
        QTest::keyClick(window.tabs()->currentWidget(), Qt::Key_PageDown, Qt::ControlModifier);
        QCOMPARE(window.tabs()->currentIndex(), 0);
    }

    // A new pair over an old one: the Kernel types chart highlights nothing, as its table selects
    // nothing.
    void kernelTypesHighlightClearedOnANewPair()
    {
        // The pixels of the chart drawn in a side's selected colour.
        const auto highlightedPixels = [](BarChart* chart) {
            const QImage image = chart->grab().toImage();
            int count = 0;
            for (int y = 0; y < image.height(); ++y) {
                for (int x = 0; x < image.width(); ++x) {
                    const QRgb pixel = image.pixel(x, y);
                    count += pixel == sideSelectedColor(0).rgb() || pixel == sideSelectedColor(1).rgb();
                }
            }
            return count;
        };
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(compare(window, sampleA(), sampleB()));
        TableChartPage* page = window.kernelTypesPage();
        window.tabs()->setCurrentWidget(page);
        page->table()->selectSourceRows({ 1 });
        BarChart* chart = page->chartPanel()->chart();
        QCOMPARE(chart->selectedCategories(), QList<int>({ 1 }));
        QVERIFY(highlightedPixels(chart) > 0);

        QVERIFY(compare(
            window, realTrace("bert-small-uncased.mi300x.json.gz"), realTrace("bert-small-uncased.h100.json.gz")));
        QCOMPARE(page->table()->selectedSourceRows(), QList<int>());
        QCOMPARE(chart->selectedCategories(), QList<int>());
        auto* series = static_cast<QHorizontalBarSeries*>(chart->chart()->series().first());
        for (QBarSet* set : series->barSets())
            QVERIFY2(set->selectedBars().isEmpty(), qPrintable(set->label()));
        QCOMPARE(highlightedPixels(chart), 0);
        // And when the new pair arrives while another tab is shown.
        page->table()->selectSourceRows({ 0 });
        window.tabs()->setCurrentIndex(0);
        QVERIFY(compare(window, sampleA(), sampleB()));
        window.tabs()->setCurrentWidget(page);
        QTest::qWait(20);
        QCOMPARE(chart->selectedCategories(), QList<int>());
        for (QBarSet* set : series->barSets())
            QVERIFY2(set->selectedBars().isEmpty(), qPrintable(set->label()));
        QCOMPARE(highlightedPixels(chart), 0);
    }

    // One time format: formatDuration's units everywhere, zero written as such.
    void timesHaveOneFormat()
    {
        QCOMPARE(formatMilliseconds(7.789), formatDuration(7789));
        QCOMPARE(formatMilliseconds(7.789), QStringLiteral("7.8 ms"));
        QCOMPARE(formatMilliseconds(0.25), QStringLiteral("250 us"));
        QCOMPARE(formatDuration(0), QStringLiteral("0 us"));
        // A residue of sums that cancel is zero, with no sign (the Pi0 waterfall's overlap read "-0.0 us").
        QCOMPARE(formatDuration(-1e-9), QStringLiteral("0 us"));
        QCOMPARE(formatSignedDuration(-1e-9), QStringLiteral("0 us"));
        QCOMPARE(formatSignedDuration(1e-9), QStringLiteral("0 us"));
        QCOMPARE(formatSignedDuration(-0.2), QStringLiteral("-0.2 us"));
        QCOMPARE(formatRatio(0), QStringLiteral("0"));
        QCOMPARE(formatRatio(1.234), QStringLiteral("1.23"));
    }

    // Kernel names: demangled, parameters and nested template arguments dropped, the whole name
    // in the tooltip.
    void kernelNamesAreDemangledAndCollapsed()
    {
        const QString mangled = QStringLiteral("_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_"
                                               "11FillFunctorIfEENS_6detail5ArrayIPcLi1EEEEEvifT0_T1_");
        const QString demangled
            = QStringLiteral("void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
                             "at::detail::Array<char*, "
                             "1> >(int, float, at::native::FillFunctor<float>, at::detail::Array<char*, 1>)");
        QCOMPARE(demangledKernelName(mangled), demangled);
        QCOMPARE(shownKernelName(mangled),
            QStringLiteral("at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<\u2026>, "
                           "at::detail::Array<\u2026> >"));
        QCOMPARE(shownKernelName(demangled), shownKernelName(mangled));
        QVERIFY(kernelNameToolTip(mangled).contains(demangled));
        QVERIFY(kernelNameToolTip(mangled).contains(mangled));
        QCOMPARE(kernelNameToolTip(demangled), demangled);
        // A signature without parameters (as some traces record them) loses its return type too.
        QCOMPARE(shownKernelName(QStringLiteral("void cunn_SoftMaxForward<float>")),
            QStringLiteral("cunn_SoftMaxForward<float>"));
        // Not C++: unchanged.
        QCOMPARE(shownKernelName(QStringLiteral("triton_poi_fused_add_0")), QStringLiteral("triton_poi_fused_add_0"));
        QCOMPARE(shownKernelName(QStringLiteral("_Znot_mangled")), QStringLiteral("_Znot_mangled"));
        QCOMPARE(shownKernelName(QStringLiteral("Memcpy HtoD (Pinned -> Device)")),
            QStringLiteral("Memcpy HtoD (Pinned -> Device)"));
        // Still long: every template argument collapsed.
        const QString longName = QStringLiteral("void ck::kernel_gemm<") + QString(200, QLatin1Char('x'))
            + QStringLiteral(", ck::Tuple<int>>(int)");
        QCOMPARE(shownKernelName(longName), QStringLiteral("ck::kernel_gemm<\u2026>"));

        // In the Kernels tab: shown short, whole in the tooltip and when copied.
        MainWindow window;
        QVERIFY(compare(window, realTrace("vllm_decode_full_graph.mi300x.json.gz"),
            realTrace("sglang_qwen3-8b_decode.mi300x.json.gz")));
        QAbstractItemModel* kernels = window.kernelsPage()->proxy();
        int found = 0;
        for (int row = 0; row < kernels->rowCount(); ++row) {
            const QModelIndex index = kernels->index(row, 0);
            const QString full = index.data(ReportTableModel::FullTextRole).toString();
            if (!full.startsWith(QLatin1String("_ZN5aiter")))
                continue;
            ++found;
            QVERIFY2(index.data().toString().startsWith(QLatin1String("aiter::")), qPrintable(index.data().toString()));
            QVERIFY(index.data(Qt::ToolTipRole).toString().contains(full));
            window.kernelsPage()->selectSourceRows(
                { kernels->index(row, 0).data(ReportTableModel::SourceRowRole).toInt() });
            QVERIFY(window.kernelsPage()->selectedRowsText().contains(full));
        }
        QVERIFY(found > 0);
    }

    // Two traces of one platform: each side a short alias, the whole label in the tooltips.
    void longSameVendorLabelsAreShortened()
    {
        const std::array<QString, 2> aliases
            = sideAliases({ QStringLiteral("sglang_qwen3-8b_decode.mi300x (AMD Instinct MI300X)"),
                QStringLiteral("vllm_decode_full_graph.mi300x (AMD Instinct MI300X)") });
        QCOMPARE(aliases[0], QStringLiteral("sglang_qwen3-8b_decode"));
        QCOMPARE(aliases[1], QStringLiteral("vllm_decode_full_graph"));
        // Short names stay.
        QCOMPARE(sideAliases({ QStringLiteral("AMD"), QStringLiteral("NVIDIA") })[1], QStringLiteral("NVIDIA"));
        // Names that differ only in the middle of something long: elided in the middle, distinct.
        const std::array<QString, 2> elided
            = sideAliases({ QStringLiteral("a_very_long_model_name_run1_with_many_words"),
                QStringLiteral("a_very_long_model_name_run2_with_many_words") });
        QVERIFY(elided[0] != elided[1]);
        QVERIFY(elided[0].size() <= kMaxAliasLength && elided[1].size() <= kMaxAliasLength);

        MainWindow window;
        QVERIFY(compare(window, realTrace("sglang_qwen3-8b_decode.mi300x.json.gz"),
            realTrace("vllm_decode_full_graph.mi300x.json.gz")));
        const FusionReport& report = *window.controller()->results().report;
        const QString label = QString::fromStdString(report.sideNames[0]);
        QVERIFY(label.size() > kMaxAliasLength);
        QCOMPARE(window.windowTitle(), QStringLiteral("%1 vs %2").arg(sideAlias(report, 0), sideAlias(report, 1)));
        BarChart* chart = window.kernelTypesPage()->chartPanel()->chart();
        auto* series = static_cast<QHorizontalBarSeries*>(chart->chart()->series().first());
        QStringList legend;
        for (QBarSet* set : series->barSets())
            legend.append(set->label());
        QVERIFY2(
            legend.contains(QStringLiteral("A: sglang_qwen3-8b_decode")), qPrintable(legend.join(QLatin1Char('|'))));
        const QString summary = window.summaryPage()->findingsText();
        QVERIFY(summary.contains(sideAlias(report, 0)));
        QVERIFY(!summary.contains(label));
    }

    // Cancelling the load of a second pair: the zones show the pair on screen again, and A<->B
    // swaps that pair.
    void cancellingASecondPairRestoresTheShownPair()
    {
        MainWindow window;
        window.show();
        QVERIFY(compare(window, sampleA(), sampleB()));
        AnalysisController* controller = window.controller();
        QSignalSpy cancelled(controller, &AnalysisController::cancelled);
        window.openTraces(realTrace("xdit_flux_aiter.mi300x.json.gz"), realTrace("hta_trace_diff_test.v100.json.gz"));
        QVERIFY(controller->isBusy());
        controller->cancel();
        QVERIFY(cancelled.wait(kTimeoutMs));
        QVERIFY(QTest::qWaitFor([&] { return !controller->isBusy(); }, kTimeoutMs));
        for (int side = 0; side < 2; ++side) {
            QCOMPARE(controller->side(side).status, AnalysisController::Status::Loaded);
            QCOMPARE(QFileInfo(controller->side(side).path).fileName(),
                QFileInfo(side == 0 ? sampleA() : sampleB()).fileName());
            QVERIFY(
                window.dropZone(side)->fileText().contains(QFileInfo(side == 0 ? sampleA() : sampleB()).fileName()));
            QVERIFY2(window.dropZone(side)->detailsText().contains(QLatin1String("kernels")),
                qPrintable(window.dropZone(side)->detailsText()));
        }
        QSignalSpy shown(&window, &MainWindow::resultsShown);
        window.swapTraces();
        QVERIFY(shown.wait(kTimeoutMs));
        const FusionReport& report = *controller->results().report;
        QCOMPARE(QFileInfo(QString::fromStdString(report.traces[0].path)).fileName(), QFileInfo(sampleB()).fileName());
        QCOMPARE(QFileInfo(QString::fromStdString(report.traces[1].path)).fileName(), QFileInfo(sampleA()).fileName());
    }

    // Recent files: only those that loaded; a pair swapped is the same recent pair.
    void recentFilesListOnlyLoadedFiles()
    {
        MainWindow window;
        QVERIFY(compare(window, sampleA(), sampleB()));
        QCOMPARE(window.recentPairs().size(), 1);
        QSignalSpy shown(&window, &MainWindow::resultsShown);
        window.swapTraces();
        QVERIFY(shown.wait(kTimeoutMs));
        QCOMPARE(window.recentPairs().size(), 1);
        QVERIFY(window.recentPairs().first().startsWith(QFileInfo(sampleB()).absoluteFilePath()));

        const QString missing = QDir::temp().filePath(QStringLiteral("fusiondiff-no-such-trace.json"));
        window.openTrace(1, missing);
        QVERIFY(QTest::qWaitFor([&] { return !window.controller()->isBusy(); }, kTimeoutMs));
        QCOMPARE(window.controller()->side(1).status, AnalysisController::Status::Failed);
        QVERIFY(!window.recentFiles().contains(QFileInfo(missing).absoluteFilePath()));
        QVERIFY(window.recentFiles().contains(QFileInfo(sampleA()).absoluteFilePath()));
        QVERIFY(window.recentFiles().contains(QFileInfo(sampleB()).absoluteFilePath()));
    }

    // Esc clears a filter; Ctrl+F goes to the search box, which finds a kernel, a type or an
    // operation and shows its row.
    void escapeClearsAFilterEvenWhileCancelHasEscape()
    {
        // While an analysis runs, the window's Cancel action has Escape as its shortcut: a filter with
        // text still takes the key (it claims the shortcut override) and clears itself.
        QWidget window;
        auto* filter = new FilterLineEdit(&window);
        QAction cancel(&window);
        cancel.setShortcut(QKeySequence(Qt::Key_Escape));
        cancel.setShortcutContext(Qt::WindowShortcut);
        window.addAction(&cancel);
        bool cancelled = false;
        connect(&cancel, &QAction::triggered, &window, [&cancelled] { cancelled = true; });
        window.show();
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        filter->setFocus();
        QTest::keyClicks(filter, QStringLiteral("gemm"));
        QTest::keyClick(filter, Qt::Key_Escape);
        QVERIFY(filter->text().isEmpty());
        QVERIFY(!cancelled);
        QTest::keyClick(filter, Qt::Key_Escape); // empty: Escape is Cancel's again
        QVERIFY(cancelled);
    }

    void escapeClearsAFilterAndCtrlFSearches()
    {
        MainWindow window;
        window.show();
        QVERIFY(compare(window, sampleA(), sampleB()));
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        window.tabs()->setCurrentWidget(window.kernelsTab());
        FilterLineEdit* filter = window.kernelsPage()->filterEdit();
        const int rows = window.kernelsPage()->proxy()->rowCount();
        filter->setFocus();
        QTest::keyClicks(filter, QStringLiteral("gemm"));
        filter->applyNow();
        QVERIFY(window.kernelsPage()->proxy()->rowCount() < rows);
        QTest::keyClick(filter, Qt::Key_Escape);
        QVERIFY(filter->text().isEmpty());
        QCOMPARE(window.kernelsPage()->proxy()->rowCount(), rows);

        window.kernelsPage()->view()->setFocus();
        QTest::keyClick(window.kernelsPage()->view(), Qt::Key_F, Qt::ControlModifier);
        GlobalSearch* search = window.search();
        QVERIFY(search->hasFocus());
        const FusionReport& report = *window.controller()->results().report;

        // An operation: its finding in the Operations tab.
        const QList<GlobalSearch::Hit> sdpa = search->find(QStringLiteral("SCALED_dot"));
        QVERIFY(!sdpa.isEmpty());
        QCOMPARE(sdpa.first().kind, GlobalSearch::OperationFinding);
        QTest::keyClicks(search, QStringLiteral("scaled_dot"));
        search->activateFirst();
        QCOMPARE(window.tabs()->currentWidget(), window.operationsPage());
        QCOMPARE(window.operationsPage()->findingsTable()->selectedSourceRows(), QList<int>({ sdpa.first().row }));

        // A type.
        const QList<GlobalSearch::Hit> types = search->find(QStringLiteral("attention"));
        const auto type = std::find_if(types.begin(), types.end(),
            [](const GlobalSearch::Hit& hit) { return hit.kind == GlobalSearch::KernelType; });
        QVERIFY(type != types.end());
        emit search->hitActivated(*type);
        QCOMPARE(window.tabs()->currentWidget(), window.kernelTypesPage());
        QCOMPARE(window.kernelTypesPage()->table()->selectedSourceRows(), QList<int>({ type->row }));
        QCOMPARE(QString::fromStdString(report.typeName(report.globalCounts[static_cast<size_t>(type->row)].type)),
            QStringLiteral("Attention"));

        // A kernel, by a part of its whole name, shown although a filter hid it.
        const int last = static_cast<int>(report.kernels.size()) - 1;
        const QString name = QString::fromStdString(report.kernels[static_cast<size_t>(last)].name);
        window.kernelsPage()->filterEdit()->setText(QStringLiteral("no such kernel"));
        window.kernelsPage()->filterEdit()->applyNow();
        const QList<GlobalSearch::Hit> kernels = search->find(name.right(30), 500);
        const auto kernel = std::find_if(kernels.begin(), kernels.end(),
            [&](const GlobalSearch::Hit& hit) { return hit.kind == GlobalSearch::Kernel && hit.row == last; });
        QVERIFY(kernel != kernels.end());
        emit search->hitActivated(*kernel);
        QCOMPARE(window.tabs()->currentWidget(), window.kernelsTab());
        QCOMPARE(window.kernelsPage()->selectedSourceRows(), QList<int>({ last }));
        QVERIFY(window.kernelsPage()->filterEdit()->text().isEmpty());
        QVERIFY(search->find(QStringLiteral("zzzz-nothing")).isEmpty());
    }

    // Clicking a run in a finding's details selects its rows beside.
    void clickingARunSelectsItsRows()
    {
        MainWindow window;
        window.show();
        QVERIFY(compare(window, test::dataPath(QStringLiteral("synthetic/graphs.amd.json")),
            test::dataPath(QStringLiteral("synthetic/graphs.nvidia.json"))));
        OperationsPage* page = window.operationsPage();
        window.tabs()->setCurrentWidget(page);
        QVERIFY(QTest::qWaitFor([&] { return page->alignmentModel()->finding() != nullptr; }));
        const QList<int> rows = page->alignmentModel()->rowsOfRun(0);
        QVERIFY(rows.size() >= 1);
        QVERIFY(page->alignmentTable()->selectedSourceRows().isEmpty());
        page->showRun(0, true);
        QCOMPARE(page->alignmentTable()->selectedSourceRows(), rows);
    }

    // Hovering a bar tells its values; a click on a bar of a group's composition selects the
    // kernels of its type.
    void barsTellTheirValuesAndGroupBarsSelect()
    {
        MainWindow window;
        window.show();
        QVERIFY(compare(
            window, realTrace("vllm_decode_full_graph.mi300x.json.gz"), realTrace("hta_trace_diff_test.v100.json.gz")));
        BarChart* types = window.kernelTypesPage()->chartPanel()->chart();
        const QString hover = types->hoverText(0, 0);
        QVERIFY(hover.contains(types->categories().first().toHtmlEscaped()));
        QVERIFY(hover.contains(QLocale().toString(types->values(0).first(), 'g', 6)));
        QVERIFY(hover.contains(QLocale().toString(types->values(1).first(), 'g', 6)));

        GroupsPage* groups = window.groupsPage();
        window.tabs()->setCurrentWidget(groups);
        QSignalSpy ready(groups, &GroupsPage::drillDownReady);
        groups->pairsTable()->selectSourceRows({ 0 });
        QVERIFY(ready.wait(kTimeoutMs));
        BarChart* composition = groups->compositionPanel()->chart();
        QVERIFY(composition->categoryCount() > 0);
        auto* series = static_cast<QHorizontalBarSeries*>(composition->chart()->series().first());
        const int category = 0;
        emit series->barSets().first()->clicked(composition->categoryCount() - 1 - category);
        const QString type = composition->categories()[category];
        const QList<int> selected = groups->sequenceTable()->selectedSourceRows();
        QVERIFY(!selected.isEmpty());
        QAbstractItemModel* model = groups->sequenceTable()->sourceModel();
        for (const int row : selected) {
            QVERIFY(model->index(row, GroupDiffModel::TypeAColumn).data().toString() == type
                || model->index(row, GroupDiffModel::TypeBColumn).data().toString() == type);
        }
        QCOMPARE(composition->selectedCategories(), QList<int>({ category }));
    }

    // A saved chart is titled with both traces' names; the chart on screen keeps its title.
    void savedChartsNameBothTraces()
    {
        MainWindow window;
        window.show();
        QVERIFY(compare(window, sampleA(), sampleB()));
        BarChart* chart = window.kernelTypesPage()->chartPanel()->chart();
        window.tabs()->setCurrentWidget(window.kernelTypesPage());
        const QString title = chart->chart()->title();
        const QString saved = chart->savedImageTitle();
        QVERIFY(saved.startsWith(title));
        QVERIFY2(
            saved.contains(QStringLiteral("A: AMD")) && saved.contains(QStringLiteral("B: NVIDIA")), qPrintable(saved));
        QTemporaryDir dir;
        const QString svg = dir.filePath(QStringLiteral("types.svg"));
        QCOMPARE(chart->saveImage(svg), QString());
        QFile file(svg);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray text = file.readAll();
        QVERIFY(text.contains("A: AMD"));
        QVERIFY(text.contains("B: NVIDIA"));
        QCOMPARE(chart->chart()->title(), title);
    }

    // File > Export Report: the CLI's Markdown with the charts, as Markdown (PNG files beside it)
    // or as one HTML file (the charts embedded).
    void reportExportsAsMarkdownAndHtml()
    {
        MainWindow window;
        QVERIFY(compare(
            window, realTrace("vllm_decode_full_graph.mi300x.json.gz"), realTrace("hta_trace_diff_test.v100.json.gz")));
        const FusionReport& report = *window.controller()->results().report;
        QTemporaryDir dir;
        const QString md = dir.filePath(QStringLiteral("report.md"));
        QCOMPARE(window.exportReport(md), QString());
        QFile markdown(md);
        QVERIFY(markdown.open(QIODevice::ReadOnly));
        const QByteArray text = markdown.readAll();
        QVERIFY(text.startsWith(QByteArray::fromStdString(reportToMarkdown(report))));
        QVERIFY(text.contains("![Kernels per type](report_kernel_types.png)"));
        for (const char* chart : { "report_kernel_types.png", "report_fusion_opportunities.png" }) {
            const QImage image(dir.filePath(QString::fromLatin1(chart)));
            QCOMPARE(image.size(), QSize(1000, 620));
        }

        const QString html = dir.filePath(QStringLiteral("report.html"));
        QCOMPARE(window.exportReport(html), QString());
        QFile page(html);
        QVERIFY(page.open(QIODevice::ReadOnly));
        const QByteArray htmlText = page.readAll();
        QCOMPARE(htmlText.count("data:image/png;base64,"), 2);
        QVERIFY(htmlText.contains("Where to look first"));
        QVERIFY(!window.exportReport(dir.filePath(QStringLiteral("no/such/folder/report.html"))).isEmpty());
    }

    // Kernel types and Kernels: B - A columns (count and time), sorted by the signed numbers.
    void differenceColumnsSortByTheirSign()
    {
        MainWindow window;
        QVERIFY(compare(window, sampleA(), sampleB()));
        const FusionReport& report = *window.controller()->results().report;
        TablePage* types = window.kernelTypesPage()->table();
        types->view()->sortByColumn(
            ReportColumnsModel(ReportTableId::GlobalCounts).column("time_difference_us"), Qt::DescendingOrder);
        QAbstractItemModel* proxy = types->proxy();
        double previous = std::numeric_limits<double>::infinity();
        for (int row = 0; row < proxy->rowCount(); ++row) {
            const int source = proxy->index(row, 0).data(ReportTableModel::SourceRowRole).toInt();
            const TypeCount& counts = report.globalCounts[static_cast<size_t>(source)];
            const double difference = counts.timeUs[1] - counts.timeUs[0];
            QVERIFY(difference <= previous);
            previous = difference;
            QCOMPARE(proxy->index(row, ReportColumnsModel(ReportTableId::GlobalCounts).column("time_difference_us"))
                         .data()
                         .toString(),
                formatSignedDuration(difference));
            QCOMPARE(proxy->index(row, ReportColumnsModel(ReportTableId::GlobalCounts).column("count_difference"))
                         .data()
                         .toString(),
                formatSignedCount(int64_t(counts.count[1]) - int64_t(counts.count[0])));
        }
        QCOMPARE(formatSignedCount(12), QStringLiteral("+12"));
        QCOMPARE(formatSignedCount(-3), QStringLiteral("-3"));
        QCOMPARE(formatSignedDuration(-350), QStringLiteral("-350 us"));

        TablePage* kernels = window.kernelsPage();
        kernels->view()->sortByColumn(
            ReportColumnsModel(ReportTableId::Kernels).column("count_difference"), Qt::AscendingOrder);
        qlonglong last = std::numeric_limits<qlonglong>::min();
        for (int row = 0; row < kernels->proxy()->rowCount(); ++row) {
            const qlonglong value
                = kernels->proxy()
                      ->index(row, ReportColumnsModel(ReportTableId::Kernels).column("count_difference"))
                      .data(ReportTableModel::SortRole)
                      .toLongLong();
            QVERIFY(value >= last);
            last = value;
        }
        QVERIFY(last > 0); // B launches some kernel more often
    }

    // The waterfall's parts are the breakdown's, largest first, each signed as the verdict signs
    // it (what it adds to the slower side's time), and they climb from the faster side's total
    // to the slower side's.
    static void checkWaterfallIs(const GapWaterfall& waterfall, const TimeGapBreakdown& gap)
    {
        const double sign = gap.deltaUs > 0 ? 1.0 : -1.0;
        std::vector<const TimeGapPart*> shown;
        for (const TimeGapPart& part : gap.parts) {
            if (part.deltaUs != 0 && !(part.cause == GapCause::Residual && std::abs(part.deltaUs) < 0.01))
                shown.push_back(&part);
        }
        QVERIFY(!shown.empty());
        QVERIFY(waterfall.parts().size() >= shown.size());
        for (size_t i = 0; i < shown.size(); ++i) {
            QCOMPARE(waterfall.parts()[i].title, QString::fromStdString(shown[i]->label));
            QCOMPARE(waterfall.parts()[i].deltaUs, shown[i]->deltaUs * sign);
        }
        const size_t faster = gap.deltaUs > 0 ? 1 : 0;
        double sum = gap.timeUs[faster];
        for (const GapPart& part : waterfall.parts())
            sum += part.deltaUs;
        QVERIFY(std::abs(sum - gap.timeUs[1 - faster]) < 0.01 + 1e-9 * gap.timeUs[1 - faster]);
        QVERIFY(waterfall.barToolTip(0).startsWith(faster == 0 ? QStringLiteral("<b>A:") : QStringLiteral("<b>B:")));
        QVERIFY(waterfall.barToolTip(0).contains(formatDuration(gap.timeUs[faster])));
    }

    // The Summary opens with the core's verdict and the time gap by cause on the headline's basis:
    // the bundled pair has steps, so the step time with the GPU's idle by cause as parts of their
    // own; the GPU kernel time is one click away (and the choice is kept). The parts add up, and
    // a click on a part shows the findings behind it (tst_trustworthyviews:
    // the unattributed part's own numbers).
    void summaryShowsTheGapAtAGlance()
    {
        QSettings().remove(QStringLiteral("summary/gap_basis"));
        MainWindow window;
        window.show();
        QVERIFY(compare(window, sampleA(), sampleB()));
        const FusionReport& report = *window.controller()->results().report;
        QVERIFY(report.timeGap.onStepTime);
        QVERIFY(report.timeGap.stepTime);
        SummaryPage* summary = window.summaryPage();
        GapWaterfall* waterfall = summary->waterfall();
        QVERIFY(summary->basisChoice()->isVisibleTo(summary));
        QCOMPARE(summary->basisChoice()->currentData().toString(), QStringLiteral("step_time"));
        QVERIFY(summary->verdictText().contains(QStringLiteral("in step time")));
        checkWaterfallIs(*waterfall, *report.timeGap.stepTime);
        bool idle = false;
        for (const GapPart& part : waterfall->parts())
            idle = idle || part.title.contains(QStringLiteral("idle")) || part.title.contains(QStringLiteral("host"));
        QVERIFY2(idle, "the step-time waterfall shows the GPU's idle by cause");
        // One click to the kernel time, kept for the next window.
        summary->basisChoice()->setCurrentIndex(summary->basisChoice()->findData(QStringLiteral("gpu_kernel_time")));
        emit summary->basisChoice()->activated(summary->basisChoice()->currentIndex());
        const TimeGapBreakdown& gap = report.timeGap.kernelTime;
        checkWaterfallIs(*waterfall, gap);
        QCOMPARE(QSettings().value(QStringLiteral("summary/gap_basis")).toString(), QStringLiteral("gpu_kernel_time"));
        {
            MainWindow again;
            QVERIFY(compare(again, sampleA(), sampleB()));
            checkWaterfallIs(*again.summaryPage()->waterfall(), gap);
        }
        QSettings().remove(QStringLiteral("summary/gap_basis"));
        QStringList titles;
        for (const GapPart& part : waterfall->parts()) {
            titles << part.title;
            QCOMPARE(part.fusion, part.title == QStringLiteral("extra kernels"));
        }
        QVERIFY(titles.contains(QStringLiteral("extra kernels")));
        QVERIFY(titles.contains(QStringLiteral("speed")));
        QVERIFY(titles.contains(QStringLiteral("unattributed")));
        QVERIFY(QTest::qWaitForWindowExposed(waterfall));
        for (size_t i = 0; i < waterfall->parts().size(); ++i) {
            const GapPart& part = waterfall->parts()[i];
            window.tabs()->setCurrentWidget(summary);
            QTest::mouseClick(waterfall, Qt::LeftButton, {}, waterfall->barRect(int(i) + 1).center().toPoint());
            if (part.fusion)
                QCOMPARE(window.tabs()->currentWidget(), window.operationsPage());
            else if (part.title == QStringLiteral("speed"))
                QCOMPARE(window.tabs()->currentWidget(), window.operationSummaryPage());
            else if (part.title == QStringLiteral("unattributed")) // its own numbers, on the Summary
                QCOMPARE(window.tabs()->currentWidget(), summary);
        }
    }

    // The Steps tab: a bar per step of each side, stacked as the report's StepRecord (busy, its
    // not recorded part, then idle by cause), the step_times and host_time tables below; without steps, it says why.
    void stepsTabShowsEveryStepOfBothSides()
    {
        MainWindow window;
        window.show();
        QVERIFY(compare(window, sampleA(), sampleB()));
        const FusionReport& report = *window.controller()->results().report;
        StepsPage* steps = window.tabs()->stepsPage();
        QVERIFY(steps);
        QVERIFY(window.tabs()->tabText(window.tabs()->indexOf(steps)).startsWith(QStringLiteral("Steps")));
        for (int side = 0; side < 2; ++side) {
            const std::vector<StepRecord>& records = report.stepTime.sides[size_t(side)].steps;
            QVERIFY(!records.empty());
            QCOMPARE(steps->chart()->stepCount(side), records.size());
            for (size_t step = 0; step < records.size(); ++step) {
                const std::vector<double> stack = steps->chart()->stackUs(side, step);
                QCOMPARE(stack.size(), kIdleCauses + 2);
                QCOMPARE(stack[0] + stack[1], records[step].busyUs);
                QCOMPARE(stack[1], records[step].notRecordedUs);
                for (size_t cause = 0; cause < kIdleCauses; ++cause)
                    QCOMPARE(stack[cause + 2], records[step].idleUs[cause]);
            }
        }
        window.tabs()->setCurrentWidget(steps);
        QVERIFY(QTest::qWaitForWindowExposed(steps->chart()));
        // Taller steps draw taller bars.
        const auto& a = report.stepTime.sides[0].steps;
        size_t tallest = 0;
        for (size_t step = 0; step < a.size(); ++step)
            tallest = a[step].busyUs + a[step].idleTotalUs() > a[tallest].busyUs + a[tallest].idleTotalUs() ? step
                                                                                                            : tallest;
        for (size_t step = 0; step < a.size(); ++step)
            QVERIFY(steps->chart()->barRect(0, step).height() <= steps->chart()->barRect(0, tallest).height() + 0.01);
        QCOMPARE(steps->stepTimes()->sourceModel()->rowCount(), int(report.stepTime.rows.size()));
        QCOMPARE(steps->hostTime()->sourceModel()->rowCount(), int(report.stepTime.hostTime.size()));
        QCOMPARE(steps->csvName(), QStringLiteral("step_times"));

        // A pair without steps: the page says why (the report's notes).
        QVERIFY(compare(window, test::dataPath(QStringLiteral("synthetic/graphs.amd.json")),
            test::dataPath(QStringLiteral("synthetic/graphs.nvidia.json"))));
        const FusionReport& other = *window.controller()->results().report;
        QCOMPARE(steps->chart()->stepCount(0), other.stepTime.sides[0].steps.size());
        for (const std::string& note : other.stepTime.notes)
            QVERIFY(steps->notesText().contains(QString::fromStdString(note)));
        if (other.stepTime.sides[0].steps.empty())
            QVERIFY(!steps->notesText().isEmpty());
    }

    // Where to look first: each entry links to its row (a finding in Operations, an operation in
    // Operation summary).
    void whereToLookFirstLinksOpenTheirRow()
    {
        MainWindow window;
        window.show();
        QVERIFY(compare(window, test::dataPath(QStringLiteral("synthetic/graphs.amd.json")),
            test::dataPath(QStringLiteral("synthetic/graphs.nvidia.json"))));
        SummaryPage* summary = window.summaryPage();
        summary->findingsText(); // laid out now
        QTextBrowser* browser = nullptr;
        for (QTextBrowser* candidate : summary->findChildren<QTextBrowser*>())
            browser = candidate->toHtml().contains(QStringLiteral("Where to look first")) ? candidate : browser;
        QVERIFY(browser);
        const QString html = browser->toHtml();
        const FusionReport& report = *window.controller()->results().report;
        const int findings = static_cast<int>(std::min<size_t>(report.opFindings.size(), 5));
        QVERIFY(findings > 0);
        for (int i = 0; i < findings; ++i)
            QVERIFY2(html.contains(QStringLiteral("href=\"finding:%1\"").arg(i)), qPrintable(html.left(2000)));
        const int last = findings - 1;
        window.tabs()->setCurrentIndex(0);
        emit browser->anchorClicked(QUrl(QStringLiteral("finding:%1").arg(last)));
        QCOMPARE(window.tabs()->currentWidget(), window.operationsPage());
        QCOMPARE(window.operationsPage()->findingsTable()->selectedSourceRows(), QList<int>({ last }));
        QVERIFY(!report.opSummary.empty());
        emit browser->anchorClicked(QUrl(QStringLiteral("operation:0")));
        QCOMPARE(window.tabs()->currentWidget(), window.operationSummaryPage());
        QCOMPARE(window.operationSummaryPage()->summaryTable()->selectedSourceRows(), QList<int>({ 0 }));
        // Kernels compared by type only link to their row of Kernel types.
        const auto byType = std::find_if(report.whereToLookFirst.begin(), report.whereToLookFirst.begin() + 5,
            [](const LookFirstEntry& entry) { return entry.kind == LookFirstKind::KernelType; });
        QVERIFY(byType != report.whereToLookFirst.begin() + 5);
        const auto type = std::find_if(report.globalCounts.begin(), report.globalCounts.end(),
            [&](const TypeCount& counts) { return report.typeName(counts.type) == byType->op; });
        const auto row = static_cast<int>(type - report.globalCounts.begin());
        QVERIFY(html.contains(QStringLiteral("href=\"kerneltype:%1\"").arg(row)));
        emit browser->anchorClicked(QUrl(QStringLiteral("kerneltype:%1").arg(row)));
        QCOMPARE(window.tabs()->currentWidget(), window.kernelTypesPage());
        QCOMPARE(window.kernelTypesPage()->table()->selectedSourceRows(), QList<int>({ row }));
    }

    // With only A loaded the start page asks for B.
    void startPageAsksForTheMissingTrace()
    {
        MainWindow window;
        window.show();
        window.openTrace(0, sampleA());
        QVERIFY(QTest::qWaitFor(
            [&] { return window.controller()->side(0).status == AnalysisController::Status::Loaded; }, kTimeoutMs));
        QVERIFY(QTest::qWaitFor([&] { return !window.controller()->isBusy(); }, kTimeoutMs));
        QCOMPARE(window.stack()->currentIndex(), 0);
        const QList<QLabel*> labels = window.stack()->currentWidget()->findChildren<QLabel*>();
        const bool asks = std::any_of(labels.begin(), labels.end(),
            [](const QLabel* label) { return label->text().contains(QLatin1String("now drop or open trace B")); });
        QVERIFY(asks);
        // The one trace's kernel types and top kernels, shown while waiting for the other.
        const QList<QTextBrowser*> browsers = window.stack()->currentWidget()->findChildren<QTextBrowser*>();
        QCOMPARE(browsers.size(), 1);
        QVERIFY(browsers.first()->isVisible());
        const QString text = browsers.first()->toPlainText();
        QVERIFY(text.contains(QStringLiteral("Kernel types of")));
        QVERIFY(text.contains(QStringLiteral("GEMM")));
        QVERIFY(text.contains(QStringLiteral("The kernels that take the most GPU time")));
    }

    // At 1024x700 the findings table shows at least five rows.
    void findingsTableShowsRowsAt1024x700()
    {
        MainWindow window;
        window.resize(1024, 700);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(compare(window, sampleA(), sampleB()));
        window.tabs()->setCurrentWidget(window.operationsPage());
        // The page sizes its splitter once it is laid out, which may take a few event-loop turns.
        QTableView* view = window.operationsPage()->findingsTable()->view();
        const auto rows = [view] { return view->viewport()->height() / view->verticalHeader()->defaultSectionSize(); };
        QTRY_VERIFY2_WITH_TIMEOUT(rows() >= 5, qPrintable(QString::number(rows())), 5000);
    }

    // The desktop adds the application's name after the title: the title does not repeat it.
    // At twice the scale a 1440-pixel screen is 720 wide: every page fits such a window without
    // scrolling sideways (texts wrap, charts shrink, side-by-side panels stack).
    void everyPageFitsA720PixelWideWindow_data()
    {
        QTest::addColumn<QString>("a");
        QTest::addColumn<QString>("b");
        QTest::newRow("sample") << sampleA() << sampleB();
        QTest::newRow("graphs") << test::sourcePath(QStringLiteral("tests/data/synthetic/graphs.amd.json"))
                                << test::sourcePath(QStringLiteral("tests/data/synthetic/graphs.nvidia.json"));
    }
    void everyPageFitsA720PixelWideWindow()
    {
        QFETCH(QString, a);
        QFETCH(QString, b);
        MainWindow window;
        window.resize(720, 450);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(compare(window, a, b));
        auto* scroll = qobject_cast<QScrollArea*>(window.centralWidget());
        QVERIFY(scroll);
        const int room = 720 - scroll->verticalScrollBar()->sizeHint().width();
        QStringList tooWide;
        for (int tab = 0; tab < window.tabs()->count(); ++tab) {
            window.tabs()->setCurrentIndex(tab);
            QTest::qWait(20);
            QWidget* page = window.tabs()->widget(tab);
            const int width = page->minimumSizeHint().width();
            if (width > room)
                tooWide.append(QStringLiteral("%1: %2 px").arg(window.tabs()->tabText(tab)).arg(width));
            // Stacked, every table takes the page's whole width (no panel keeps a side-by-side width).
            for (const TablePage* table : page->findChildren<TablePage*>()) {
                if (table->isVisible() && table->width() < page->width() - 40)
                    tooWide.append(QStringLiteral("%1: a table %2 px wide of %3")
                                       .arg(window.tabs()->tabText(tab))
                                       .arg(table->width())
                                       .arg(page->width()));
            }
        }
        QVERIFY2(tooWide.isEmpty(), qPrintable(tooWide.join(QStringLiteral(", "))));
        QVERIFY2(scroll->widget()->minimumSizeHint().width() <= room,
            qPrintable(QString::number(scroll->widget()->minimumSizeHint().width())));
        QVERIFY(!scroll->horizontalScrollBar()->isVisible());
        // The Summary stacks the trace table and the findings in a narrow window, and sets them side
        // by side again in a wide one.
        window.tabs()->setCurrentWidget(window.summaryPage());
        auto* sideBySide = window.summaryPage()->findChild<QSplitter*>(QStringLiteral("summary_splitter"));
        QVERIFY(sideBySide);
        QTRY_COMPARE(sideBySide->orientation(), Qt::Vertical);
        window.resize(1440, 900);
        QTRY_COMPARE(sideBySide->orientation(), Qt::Horizontal);
    }

    // The findings are what the Operations page is about: they get the height their rows need (up
    // to three fifths of the page), the drill-down the rest, and the divider stays where the user
    // puts it.
    void findingsTableGetsTheRoomItsRowsNeed()
    {
        QList<int> moved;
        {
            MainWindow window;
            window.resize(1440, 900);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            QVERIFY(compare(window, sampleA(), sampleB()));
            window.tabs()->setCurrentWidget(window.operationsPage());
            auto* splitter = window.operationsPage()->findChild<QSplitter*>(QStringLiteral("operations_splitter"));
            QVERIFY(splitter);
            QTableView* view = window.operationsPage()->findingsTable()->view();
            const int rowHeight = view->verticalHeader()->defaultSectionSize();
            // The page sizes its splitter once it is laid out, which may take a few event-loop turns.
            QTRY_VERIFY_WITH_TIMEOUT(view->viewport()->height() >= 5 * rowHeight - 2, 5000);
            const QList<int> sizes = splitter->sizes();
            const int total = sizes[0] + sizes[1];
            // One finding: five rows' room, no more; the drill-down takes the rest.
            QVERIFY2(view->viewport()->height() >= 5 * rowHeight - 2,
                qPrintable(QString::number(view->viewport()->height())));
            QVERIFY2(
                view->viewport()->height() <= 6 * rowHeight, qPrintable(QString::number(view->viewport()->height())));
            QVERIFY(sizes[0] <= total * 3 / 5);
            QVERIFY(sizes[1] >= total * 2 / 5);
            // The user's divider is kept, and remembered.
            QTest::qWait(20);
            QVERIFY(!splitter->property("fusiondiff_userSized").toBool());
            splitter->setSizes({ sizes[0] + 150, sizes[1] - 150 });
            splitter->setProperty("fusiondiff_userSized", true); // as a drag (QSplitter::splitterMoved) sets it
            moved = splitter->sizes();
            QVERIFY(compare(window, sampleB(), sampleA()));
            QVERIFY2(std::abs(splitter->sizes()[0] - moved[0]) <= 20,
                qPrintable(QStringLiteral("%1 against %2").arg(splitter->sizes()[0]).arg(moved[0])));
            window.close(); // saves the layout
        }
        MainWindow window;
        window.resize(1440, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(compare(window, sampleA(), sampleB()));
        window.tabs()->setCurrentWidget(window.operationsPage());
        QTest::qWait(20);
        auto* splitter = window.operationsPage()->findChild<QSplitter*>(QStringLiteral("operations_splitter"));
        // Restored before the page has its final height, then scaled to it: within a few pixels.
        QVERIFY2(std::abs(splitter->sizes()[0] - moved[0]) <= 20,
            qPrintable(QStringLiteral("%1 against %2").arg(splitter->sizes()[0]).arg(moved[0])));
    }

    void windowTitleDoesNotRepeatTheAppName()
    {
        QGuiApplication::setApplicationDisplayName(QStringLiteral("FusionDiff"));
        const auto restore = qScopeGuard([] { QGuiApplication::setApplicationDisplayName({}); });
        MainWindow window;
        QVERIFY(!window.windowTitle().contains(QLatin1String("FusionDiff")));
        QVERIFY(compare(window, sampleA(), sampleB()));
        QVERIFY(!window.windowTitle().contains(QLatin1String("FusionDiff")));
        QVERIFY(window.windowTitle().contains(QLatin1String(" vs ")));
    }
};

QTEST_MAIN(TestAppDefects)
#include "tst_appdefects.moc"
