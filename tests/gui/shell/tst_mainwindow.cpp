// The desktop application driven as its users drive it: traces dropped onto the zones, results in
// every table, the drill-down, exports identical to fusiondiff-cli, inline errors, cancellation,
// re-analysis without re-reading, and the settings that persist.

#include "mainwindowtestsupport.h"
#include "tracewriter.h"

#include "analysis/analysiscontroller.h"
#include "analysis/analysissettingswidget.h"
#include "charts/barchart.h"
#include "charts/chartpanel.h"
#include "display/colors.h"
#include "display/kernelnames.h"
#include "model/fusionreport.h"
#include "model/tracestore.h"
#include "models/findingalignmentmodel.h"
#include "models/groupdiffmodel.h"
#include "models/reportcolumnsmodel.h"
#include "models/reporttablemodel.h"
#include "models/tablefilterproxy.h"
#include "models/tracesummarymodel.h"
#include "pages/groupspage.h"
#include "pages/kernelspage.h"
#include "pages/operationspage.h"
#include "pages/operationsummarypage.h"
#include "pages/summarypage.h"
#include "pages/tablechartpage.h"
#include "pages/tablepage.h"
#include "report/reportnotes.h"
#include "shell/mainwindow.h"
#include "widgets/tracedropzone.h"

#include <QAbstractItemModelTester>
#include <QBarSet>
#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QHeaderView>
#include <QHorizontalBarSeries>
#include <QImage>
#include <QLabel>
#include <QProcess>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace fusiondiff;
using namespace fusiondiff::ui;
using test::readFile;
using test::sampleA;
using test::sampleB;

namespace {

// The index of the column `key` of `table` as the app shows it.
int columnOf(ReportTableId table, const char* key)
{
    return ReportColumnsModel(table).column(key);
}

QString vllm()
{
    return test::realTrace(QStringLiteral("vllm_decode_full_graph.mi300x.json.gz"));
}
QString hta()
{
    return test::realTrace(QStringLiteral("hta_trace_diff_test.v100.json.gz"));
}
QString xdit()
{
    return test::realTrace(QStringLiteral("xdit_flux_aiter.mi300x.json.gz"));
}
QString sglangDecode()
{
    return test::realTrace(QStringLiteral("sglang_qwen3-8b_decode.mi300x.json.gz"));
}
QString sglangCapture()
{
    return test::realTrace(QStringLiteral("sglang_qwen3-8b_decode_capture.mi300x.json.gz"));
}
QString graphsA()
{
    return test::dataPath(QStringLiteral("synthetic/graphs.amd.json"));
}
QString graphsB()
{
    return test::dataPath(QStringLiteral("synthetic/graphs.nvidia.json"));
}

// Runs fusiondiff-cli compare with --csv into `folder`.
bool cliCsv(const QStringList& arguments, const QString& folder)
{
    QProcess process;
    process.start(test::cliPath(),
        QStringList { QStringLiteral("compare") } + arguments
            + QStringList { QStringLiteral("--quiet"), QStringLiteral("--csv"), folder });
    if (!process.waitForFinished(test::kResultsTimeoutMs) || process.exitCode() != 0) {
        qWarning("fusiondiff-cli failed: %s", process.readAllStandardError().constData());
        return false;
    }
    return true;
}

// Waits until the controller is idle with no job queued.
bool waitIdle(AnalysisController& controller)
{
    return QTest::qWaitFor([&] { return !controller.isBusy(); }, test::kResultsTimeoutMs);
}

QBarSet* barSet(BarChart* chart, int side)
{
    auto* series = static_cast<QHorizontalBarSeries*>(chart->chart()->series().first());
    for (QBarSet* set : series->barSets()) {
        if (set->label().startsWith(side == 0 ? QLatin1String("A") : QLatin1String("B")))
            return set;
    }
    return nullptr;
}

} // namespace

class TestMainWindow : public QObject
{
    Q_OBJECT

private:
    // A window that has compared `a` and `b` (optionally with the seed's rules).
    std::unique_ptr<MainWindow> compared(const QString& a, const QString& b, const QString& classifier = {})
    {
        auto window = std::make_unique<MainWindow>();
        if (!classifier.isEmpty())
            window->applyClassifierAndParameters(classifier, {});
        if (!test::compare(*window, a, b))
            return nullptr;
        return window;
    }

private Q_SLOTS:
    void initTestCase() { test::useOwnSettings(QStringLiteral("tst_mainwindow")); }
    void cleanupTestCase() { test::removeOwnSettings(); }

    void init() { QSettings().clear(); }

    void droppedTracesReachResults()
    {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QSignalSpy shown(&window, &MainWindow::resultsShown);
        QSignalSpy ready(window.controller(), &AnalysisController::resultsReady);
        QCOMPARE(window.stack()->currentIndex(), 0); // the welcome page invites a drop

        QVERIFY(test::dropFiles(window.dropZone(0), { vllm() }));
        QVERIFY(waitIdle(*window.controller()));
        QCOMPARE(window.controller()->side(0).status, AnalysisController::Status::Loaded);
        QCOMPARE(ready.count(), 0); // one trace: nothing to compare yet
        QVERIFY(window.dropZone(0)->fileText().contains(QLatin1String("vllm_decode_full_graph.mi300x.json.gz")));
        QVERIFY2(window.dropZone(0)->detailsText().contains(QLatin1String("425 kernels")),
            qPrintable(window.dropZone(0)->detailsText()));
        QVERIFY(window.dropZone(0)->detailsText().contains(QLatin1String("AMD")));

        QVERIFY(test::dropFiles(window.dropZone(1), { hta() }));
        QVERIFY(shown.wait(test::kResultsTimeoutMs));
        QCOMPARE(ready.count(), 1);
        QCOMPARE(window.stack()->currentWidget(), window.tabs());
        QVERIFY(window.dropZone(1)->detailsText().contains(QLatin1String("9,876 kernels")));
        QVERIFY(window.dropZone(1)->detailsText().contains(QLatin1String("Tesla V100-SXM2-16GB")));
        QVERIFY(window.dropZone(1)->detailsText().contains(QLatin1String("802 ms")));

        const FusionReport& report = *window.controller()->results().report;
        QCOMPARE(QString::fromStdString(report.traces[0].path), vllm());
        QCOMPARE(QString::fromStdString(report.traces[1].path), hta());
        QCOMPARE(
            window.opportunitiesPage()->table()->proxy()->rowCount(), static_cast<int>(report.opportunities.size()));
        QCOMPARE(window.mappingsPage()->proxy()->rowCount(), static_cast<int>(report.mappings.size()));
        QCOMPARE(window.kernelTypesPage()->table()->proxy()->rowCount(), static_cast<int>(report.globalCounts.size()));
        QCOMPARE(window.kernelsPage()->proxy()->rowCount(), static_cast<int>(report.kernels.size()));
        QCOMPARE(window.groupsPage()->pairsTable()->proxy()->rowCount(), static_cast<int>(report.groupPairs.size()));
        QCOMPARE(
            window.operationsPage()->findingsTable()->proxy()->rowCount(), static_cast<int>(report.opFindings.size()));
        QCOMPARE(window.operationSummaryPage()->summaryTable()->proxy()->rowCount(),
            static_cast<int>(report.opSummary.size()));
        QCOMPARE(window.operationSummaryPage()->collectivesTable()->proxy()->rowCount(),
            static_cast<int>(report.collectives.size()));
        QVERIFY(window.operationSummaryPage()->collectivesShown()); // HTA's trace has NCCL kernels
        // The summary says what the core's notes say, word for word.
        const QString findings = window.summaryPage()->findingsText();
        for (const std::string& note : reportNotes(report))
            QVERIFY2(findings.contains(QString::fromStdString(note)), note.c_str());
        QVERIFY(findings.contains(QString::fromStdString(report.mappings.front().evidence)));

        // The window's own proxies, sorted as a user would by clicking a cost column.
        for (TablePage* page : { window.opportunitiesPage()->table(), window.mappingsPage(),
                 window.kernelTypesPage()->table(), window.kernelsPage(), window.groupsPage()->pairsTable(),
                 window.groupsPage()->unmatchedTable(), window.groupsPage()->sequenceTable(),
                 window.summaryPage()->table(), window.operationsPage()->findingsTable(),
                 window.operationsPage()->alignmentTable(), window.operationSummaryPage()->summaryTable(),
                 window.operationSummaryPage()->extraKernelsPage()->table(),
                 window.operationSummaryPage()->collectivesTable() }) {
            QAbstractItemModelTester tester(page->proxy(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        }
        QTableView* view = window.kernelsPage()->view();
        view->horizontalHeader()->setSortIndicator(2, Qt::DescendingOrder);
        uint64_t largest = 0;
        for (const KernelNameRow& row : report.kernels)
            largest = std::max(largest, row.count[0]);
        QCOMPARE(view->model()->index(0, 2).data(ReportTableModel::SortRole).toULongLong(), largest);
    }

    void kernelsMatchedAcrossTracesAreListedByTheTimeAtStake()
    {
        MainWindow window;
        QVERIFY(test::compare(window, sampleA(), sampleB()));
        const FusionReport& report = *window.controller()->results().report;
        QVERIFY(!report.matchedKernels.empty());
        KernelsPage* page = window.kernelsTab();
        QVERIFY(page->matchedShown());
        QAbstractItemModel* model = page->matchedTable()->proxy();
        QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model->rowCount(), static_cast<int>(report.matchedKernels.size()));
        // An MI300X against an H100: vendors' kernels of different names do the same work.
        const auto crossVendor = std::find_if(report.matchedKernels.begin(), report.matchedKernels.end(),
            [](const MatchedKernels& row) { return row.names[0] != row.names[1]; });
        QVERIFY(crossVendor != report.matchedKernels.end());
        // In the core's order, the largest time difference first; each row shows its two names whole in
        // the tooltip and for filtering and copying, and B - A as its raw value.
        auto* columns = qobject_cast<ReportColumnsModel*>(page->matchedTable()->sourceModel());
        QVERIFY(columns);
        const int nameColumns[2] { columns->column("trace1_kernel"), columns->column("trace2_kernel") };
        const int differenceColumn = columns->column("delta_time_us");
        for (int row = 0; row < model->rowCount(); ++row) {
            const MatchedKernels& kernels = report.matchedKernels[static_cast<size_t>(row)];
            for (const int side : { 0, 1 }) {
                const QModelIndex name = model->index(row, nameColumns[side]);
                const QString full = QString::fromStdString(kernels.names[static_cast<size_t>(side)]);
                QCOMPARE(name.data(ReportTableModel::FullTextRole).toString(), full);
                QVERIFY(name.data(Qt::ToolTipRole).toString().contains(demangledKernelName(full).left(40)));
            }
            QCOMPARE(model->index(row, differenceColumn).data(ReportTableModel::SortRole).toDouble(),
                kernels.differenceUs());
            if (row > 0) {
                QVERIFY(std::abs(kernels.differenceUs())
                    <= std::abs(report.matchedKernels[static_cast<size_t>(row) - 1].differenceUs()));
            }
        }
        // The mean is the total over the pairs.
        const MatchedKernels& first = report.matchedKernels.front();
        QCOMPARE(model->index(0, columns->column("trace2_mean_us")).data(ReportTableModel::SortRole).toDouble(),
            first.timeUs[1] / static_cast<double>(first.pairs));
        // Sorting by B - A puts the row where B gains most first.
        page->matchedTable()->view()->horizontalHeader()->setSortIndicator(differenceColumn, Qt::AscendingOrder);
        double lowest = 0;
        for (const MatchedKernels& row : report.matchedKernels)
            lowest = std::min(lowest, row.differenceUs());
        QCOMPARE(model->index(0, differenceColumn).data(ReportTableModel::SortRole).toDouble(), lowest);
    }

    void twoFilesDroppedAtOnceFillBothZones()
    {
        MainWindow window;
        QSignalSpy shown(&window, &MainWindow::resultsShown);
        // Dropped onto B, still A first and B second: the order of the dragged files decides.
        QVERIFY(test::dropFiles(window.dropZone(1), { sampleA(), sampleB() }));
        QVERIFY(shown.wait(test::kResultsTimeoutMs));
        QCOMPARE(window.controller()->side(0).path, sampleA());
        QCOMPARE(window.controller()->side(1).path, sampleB());
        QVERIFY(window.dropZone(0)->detailsText().contains(QLatin1String("1,516 kernels")));
        QVERIFY(window.dropZone(1)->detailsText().contains(QLatin1String("1,465 kernels")));
    }

    void sampleTracesOpen()
    {
        MainWindow window;
        QSignalSpy shown(&window, &MainWindow::resultsShown);
        QVERIFY(window.openSampleTraces());
        QVERIFY(shown.wait(test::kResultsTimeoutMs));
        const FusionReport& report = *window.controller()->results().report;
        QCOMPARE(report.traces[0].platform, Platform::AMD);
        QCOMPARE(report.traces[1].platform, Platform::NVIDIA);
        QCOMPARE(report.traces[0].fileName, std::string("Qwen1.5-0.5B-Chat.mi300x.json.gz"));
        // Eager traces: no groups to drill into, and the page says why.
        QCOMPARE(window.groupsPage()->pairsTable()->proxy()->rowCount(), 0);

        // The status bar names the pair; a passing message ("Saved … to …") takes the whole bar
        // while it is shown, then the pair's label is back.
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QLabel* pair = window.pairLabel();
        QVERIFY(window.statusBar()->isAncestorOf(pair) && pair->isVisible());
        QVERIFY2(pair->toolTip().startsWith(QStringLiteral("Showing A: Qwen1.5-0.5B-Chat.mi300x")),
            qPrintable(pair->toolTip()));
        QVERIFY2(pair->text().contains(QStringLiteral("A: ")), qPrintable(pair->text()));
        window.statusBar()->showMessage(QStringLiteral("Saved the session to /a/long/path/of/a/session.fdsession"));
        QVERIFY(!pair->isVisible());
        window.statusBar()->clearMessage();
        QVERIFY(pair->isVisible());
    }

    void selectingRowsHighlightsBarsAndBack()
    {
        auto window = compared(xdit(), hta(), QStringLiteral("seed"));
        QVERIFY(window);
        TableChartPage* page = window->opportunitiesPage();
        BarChart* chart = page->chartPanel()->chart();
        const FusionReport& report = *window->controller()->results().report;
        QCOMPARE(chart->categoryCount(), static_cast<int>(report.opportunities.size()));
        QCOMPARE(chart->values(0).first(), static_cast<qreal>(report.opportunities[0].total[0]));

        // Sorted differently from the chart, so that proxy and source rows differ.
        page->table()->view()->sortByColumn(0, Qt::AscendingOrder);
        page->table()->selectSourceRows({ 3 });
        QCOMPARE(chart->selectedCategories(), QList<int>({ 3 }));
        QVERIFY(barSet(chart, 0)->isBarSelected(chart->categoryCount() - 1 - 3));
        QVERIFY(barSet(chart, 1)->isBarSelected(chart->categoryCount() - 1 - 3));

        // A click on a bar (Qt numbers the bars from the bottom) selects its row.
        emit barSet(chart, 1)->clicked(chart->categoryCount() - 1 - 5);
        QCOMPARE(page->table()->selectedSourceRows(), QList<int>({ 5 }));
        QCOMPARE(chart->selectedCategories(), QList<int>({ 5 }));
        const QModelIndex current = page->table()->view()->selectionModel()->selectedRows().first();
        QCOMPARE(
            current.data().toString(), QString::fromStdString(report.typeName(report.opportunities[5].kernelType)));

        // The switch to GPU time.
        page->chartPanel()->setMetric(ChartPanel::GpuTime);
        QCOMPARE(chart->values(1)[5], report.opportunities[5].timeMs[1]);
        QCOMPARE(chart->selectedCategories(), QList<int>({ 5 }));

        // Kernel types: table and chart, with the log scale.
        BarChart* types = window->kernelTypesPage()->chartPanel()->chart();
        QCOMPARE(types->categoryCount(), static_cast<int>(report.globalCounts.size()));
        window->kernelTypesPage()->chartPanel()->setLogarithmic(true);
        QVERIFY(types->isLogarithmic());
    }

    void selectingAGroupPairFillsTheDrillDown()
    {
        auto window = compared(vllm(), hta());
        QVERIFY(window);
        GroupsPage* page = window->groupsPage();
        const FusionReport& report = *window->controller()->results().report;
        QCOMPARE(page->pairsTable()->proxy()->rowCount(), 1);
        QSignalSpy drilled(page, &GroupsPage::drillDownReady);
        page->unmatchedTable()->selectSourceRows({ 0 });
        QVERIFY(drilled.wait(test::kResultsTimeoutMs));
        page->pairsTable()->selectSourceRows({ 0 });
        QVERIFY(drilled.wait(test::kResultsTimeoutMs));

        const GroupPair& pair = report.groupPairs[0];
        const LargeGroup& a = report.largeGroups[0][pair.group1];
        const LargeGroup& b = report.largeGroups[1][pair.group2];
        const GroupDiff& diff = page->diffModel()->diff();
        QCOMPARE(diff.correlation[0], std::optional<int64_t>(a.correlation));
        QCOMPARE(diff.correlation[1], std::optional<int64_t>(b.correlation));
        QCOMPARE(diff.kernels[0].size(), size_t(a.size));
        QCOMPARE(diff.kernels[1].size(), size_t(b.size));
        QVERIFY(page->sequenceTable()->proxy()->rowCount() >= static_cast<int>(std::max(a.size, b.size)));
        QVERIFY(page->diffModel()->rowsWithStatus(OnlyA) + page->diffModel()->rowsWithStatus(OnlyB)
                + page->diffModel()->rowsWithStatus(DifferentTypes)
            > 0);

        // The composition chart shows the pair's kernels per type.
        BarChart* composition = page->compositionPanel()->chart();
        qreal sumA = 0;
        for (const qreal value : composition->values(0))
            sumA += value;
        QCOMPARE(sumA, static_cast<qreal>(a.size));
    }

    void exportAllWritesTheCliBytes_data()
    {
        QTest::addColumn<QString>("a");
        QTest::addColumn<QString>("b");
        QTest::addColumn<QString>("classifier");
        QTest::addColumn<QStringList>("parameters");
        QTest::addColumn<QString>("opLevel");
        QTest::addRow("bundled sample pair") << sampleA() << sampleB() << QString() << QStringList() << QString();
        QTest::addRow("vllm vs hta, matched groups") << vllm() << hta() << QString() << QStringList() << QString();
        QTest::addRow("xdit vs hta, seed rules")
            << xdit() << hta() << QStringLiteral("seed") << QStringList() << QString();
        QTest::addRow("parameters") << vllm() << hta() << QStringLiteral("seed")
                                    << QStringList { QStringLiteral("min_group_size=20"),
                                           QStringLiteral("size_tolerance=0.5") }
                                    << QString();
        QTest::addRow("bundled pair, module level")
            << sampleA() << sampleB() << QString() << QStringList() << QStringLiteral("module");
        QTest::addRow("synthetic graphs, launch level")
            << graphsA() << graphsB() << QString() << QStringList() << QStringLiteral("launch");
    }

    void exportAllWritesTheCliBytes()
    {
        QFETCH(QString, a);
        QFETCH(QString, b);
        QFETCH(QString, classifier);
        QFETCH(QStringList, parameters);
        QFETCH(QString, opLevel);
        MainWindow window;
        window.applyClassifierAndParameters(classifier, parameters, opLevel);
        QVERIFY(test::compare(window, a, b));

        QTemporaryDir dir;
        const QString gui = dir.filePath(QStringLiteral("gui"));
        const QString cli = dir.filePath(QStringLiteral("cli"));
        QCOMPARE(window.exportAll(gui), QString());
        QStringList arguments { a, b };
        if (!classifier.isEmpty())
            arguments << QStringLiteral("--classifier") << classifier;
        for (const QString& parameter : parameters)
            arguments << QStringLiteral("--param") << parameter;
        if (!opLevel.isEmpty())
            arguments << QStringLiteral("--op-level") << opLevel;
        QVERIFY(cliCsv(arguments, cli));

        const QStringList cliFiles = QDir(cli).entryList(QDir::Files, QDir::Name);
        QCOMPARE(QDir(gui).entryList(QDir::Files, QDir::Name), cliFiles);
        // traces, ..., graph_kinds, ..., kernels, matched_kernels, layer_times, step_times, host_time, efficiency
        QCOMPARE(cliFiles.size(), 21);
        QVERIFY(cliFiles.contains(QStringLiteral("op_findings.csv")));
        QVERIFY(cliFiles.contains(QStringLiteral("layer_times.csv")));
        for (const QString& file : cliFiles) {
            const QByteArray expected = readFile(QDir(cli).filePath(file));
            QVERIFY(!expected.isEmpty());
            QVERIFY2(readFile(QDir(gui).filePath(file)) == expected, qPrintable(file));
        }
    }

    void captureTraceIsUsedAsByTheCliAndRemembered()
    {
        auto window = compared(vllm(), sglangDecode());
        QVERIFY(window);
        AnalysisController* controller = window->controller();
        const std::shared_ptr<const TraceStore> storeB = controller->side(1).store;
        QVERIFY(window->dropZone(1)->captureText().contains(QLatin1String("No capture trace")));
        const auto capturedKinds = [&] { return controller->results().report->graphComparison.capturedKinds[1]; };
        QCOMPARE(capturedKinds(), uint64_t(0));

        // B's capture trace: the analysis runs again, without reading the traces again, and every
        // table is what `fusiondiff-cli compare A B --capture2 C` writes.
        QSignalSpy shown(window.get(), &MainWindow::resultsShown);
        window->setCaptureTrace(1, sglangCapture());
        QVERIFY(shown.wait(test::kResultsTimeoutMs));
        QVERIFY(capturedKinds() > 0);
        QCOMPARE(controller->results().stores[1], storeB);
        const QString text = window->dropZone(1)->captureText();
        QVERIFY2(text.contains(QLatin1String("sglang_qwen3-8b_decode_capture.mi300x.json.gz"))
                && text.contains(QLatin1String("544 kernel launches")),
            qPrintable(text));
        QTemporaryDir dir;
        const QString gui = dir.filePath(QStringLiteral("gui"));
        const QString cli = dir.filePath(QStringLiteral("cli"));
        QCOMPARE(window->exportAll(gui), QString());
        QVERIFY(cliCsv({ vllm(), sglangDecode(), QStringLiteral("--capture2"), sglangCapture() }, cli));
        const QStringList cliFiles = QDir(cli).entryList(QDir::Files, QDir::Name);
        QCOMPARE(QDir(gui).entryList(QDir::Files, QDir::Name), cliFiles);
        QVERIFY(readFile(QDir(cli).filePath(QStringLiteral("graph_kinds.csv"))).contains("capture_32_DECODE"));
        for (const QString& file : cliFiles)
            QVERIFY2(readFile(QDir(gui).filePath(file)) == readFile(QDir(cli).filePath(file)), qPrintable(file));

        // Swapping A and B takes the capture trace along.
        window->swapTraces();
        QVERIFY(shown.wait(test::kResultsTimeoutMs));
        QVERIFY(controller->results().report->graphComparison.capturedKinds[0] > 0);
        QVERIFY(window->dropZone(0)->captureText().contains(QLatin1String("sglang_qwen3-8b_decode_capture")));
        QVERIFY(window->dropZone(1)->captureText().contains(QLatin1String("No capture trace")));
        window->swapTraces();
        QVERIFY(shown.wait(test::kResultsTimeoutMs));

        // Opening the trace again, in a new window, brings its capture trace back.
        QCOMPARE(window->rememberedCapture(sglangDecode()), QFileInfo(sglangCapture()).absoluteFilePath());
        window->close(); // saves the settings
        window.reset();
        auto again = compared(vllm(), sglangDecode());
        QVERIFY(again);
        QVERIFY(again->controller()->results().report->graphComparison.capturedKinds[1] > 0);
        QVERIFY(again->dropZone(1)->captureText().contains(QLatin1String("sglang_qwen3-8b_decode_capture")));

        // A file that is no capture trace: its reason in the zone, and no comparison until it is removed.
        QSignalSpy shownAgain(again.get(), &MainWindow::resultsShown);
        again->setCaptureTrace(0, sampleA());
        QVERIFY(waitIdle(*again->controller()));
        const QString error = again->dropZone(0)->captureText();
        QVERIFY2(error.contains(QLatin1String("Qwen1.5-0.5B-Chat.mi300x.json.gz"))
                && error.contains(QLatin1String("capture")),
            qPrintable(error));
        QVERIFY(again->controller()->side(0).captureError.has_value());
        QCOMPARE(shownAgain.count(), 0);
        QVERIFY(again->rememberedCapture(vllm()).isEmpty()); // only capture traces that loaded are remembered
        again->setCaptureTrace(0, {});
        QVERIFY(shownAgain.wait(test::kResultsTimeoutMs));
        QVERIFY(again->dropZone(0)->captureText().contains(QLatin1String("No capture trace")));

        // Removed, it is forgotten.
        again->setCaptureTrace(1, {});
        QVERIFY(shownAgain.wait(test::kResultsTimeoutMs));
        QCOMPARE(again->controller()->results().report->graphComparison.capturedKinds[1], uint64_t(0));
        QVERIFY(again->rememberedCapture(sglangDecode()).isEmpty());
    }

    void eachTabExportsItsOwnTable()
    {
        // Each page knows its table: moving a tab does not change what Export Current Table writes.
        MainWindow window;
        QTabWidget* tabs = window.tabs();
        const QStringList expected { QStringLiteral("traces"), QStringLiteral("op_findings"),
            QStringLiteral("layer_times"), QStringLiteral("step_times"), QStringLiteral("op_summary"),
            QStringLiteral("fusion_opportunities"), QStringLiteral("fusion_mappings"), QStringLiteral("global_counts"),
            QStringLiteral("kernels"), QStringLiteral("matched_groups"), QStringLiteral("efficiency"),
            QString() }; // the timeline: no table
        QCOMPARE(tabs->count(), expected.size());
        QList<QWidget*> pages;
        for (int tab = 0; tab < tabs->count(); ++tab)
            pages.append(tabs->widget(tab));
        tabs->tabBar()->moveTab(0, tabs->count() - 1);
        tabs->tabBar()->moveTab(2, 0);
        QCOMPARE(tabs->indexOf(pages[0]), tabs->count() - 1);
        QCOMPARE(tabs->indexOf(pages[3]), 0);
        for (qsizetype page = 0; page < pages.size(); ++page) {
            tabs->setCurrentWidget(pages[page]);
            QCOMPARE(window.currentTableCsvName(), expected[page]);
        }
    }

    void operationsTabShowsTheFindingSideBySide()
    {
        auto window = compared(sampleA(), sampleB());
        QVERIFY(window);
        const FusionReport& report = *window->controller()->results().report;
        OperationsPage* page = window->operationsPage();
        QAbstractItemModelTester tester(
            page->findingsTable()->proxy(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester alignmentTester(
            page->alignmentTable()->proxy(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(window->tabs()->indexOf(page) >= 0);
        QCOMPARE(window->tabs()->tabText(window->tabs()->indexOf(page)), QStringLiteral("Operations (1)"));

        // The report's one finding, as the view shows it.
        QAbstractItemModel* findings = page->findingsTable()->proxy();
        QCOMPARE(findings->rowCount(), 1);
        QCOMPARE(findings->index(0, columnOf(ReportTableId::OpFindings, "op")).data().toString(),
            QStringLiteral("aten::scaled_dot_product_attention"));
        QCOMPARE(findings->index(0, columnOf(ReportTableId::OpFindings, "occurrences")).data().toString(),
            QStringLiteral("24"));

        // Selected when the tab is first shown: the drill-down shows its stack, its run and its
        // kernels side by side.
        QCOMPARE(page->alignmentModel()->rowCount(), 0);
        window->show();
        window->tabs()->setCurrentWidget(page);
        QVERIFY(QTest::qWaitForWindowExposed(window.get()));
        QCOMPARE(page->findingsTable()->selectedSourceRows(), QList<int>({ 0 }));
        const OpFinding& finding = report.opFindings[0];
        const QString details = page->detailsText();
        for (const std::string& frame : finding.stack)
            QVERIFY2(details.contains(QString::fromStdString(frame)), frame.c_str());
        QVERIFY(details.contains(QString::fromStdString(finding.extraRuns[0].explanation)));
        QAbstractItemModel* rows = page->alignmentTable()->proxy();
        QCOMPARE(rows->rowCount(), static_cast<int>(finding.alignment.size()));
        QCOMPARE(rows->rowCount(), 2);
        QCOMPARE(rows->index(0, FindingAlignmentModel::TypeAColumn).data().toString(), QStringLiteral("Memory"));
        QCOMPARE(rows->index(0, FindingAlignmentModel::NameAColumn).data(Qt::BackgroundRole).value<QColor>(),
            sideBackground(0));
        QCOMPARE(rows->index(0, FindingAlignmentModel::NameBColumn).data(Qt::BackgroundRole).value<QColor>(),
            gapBackground());
        QCOMPARE(rows->index(0, FindingAlignmentModel::RunColumn).data().toString(), QStringLiteral("A run 1"));
        QVERIFY(!rows->index(1, FindingAlignmentModel::NameAColumn).data(Qt::BackgroundRole).isValid());

        // The Summary leads with where to look first, then the notes, and the traces' iterations.
        const QString summary = window->summaryPage()->findingsText();
        const std::vector<LookFirst> first = whereToLookFirst(report);
        QVERIFY(!first.empty());
        QVERIFY(summary.indexOf(QString::fromStdString(first[0].headline))
            < summary.indexOf(QString::fromStdString(reportNotes(report).front())));
        for (const LookFirst& item : first) {
            QVERIFY2(summary.contains(QString::fromStdString(item.headline)), item.headline.c_str());
            for (const std::string& detail : item.details)
                QVERIFY2(summary.contains(QString::fromStdString(detail)), detail.c_str());
        }
        QAbstractItemModel* traces = window->summaryPage()->table()->sourceModel();
        QCOMPARE(traces->index(TraceSummaryModel::IterationsRow, TraceSummaryModel::TraceAColumn).data().toString(),
            QStringLiteral("1 profiler step"));
        QCOMPARE(
            traces->index(TraceSummaryModel::OperationsMatchedRow, TraceSummaryModel::TraceBColumn).data().toString(),
            QStringLiteral("1,029 of 1,029 (100%)"));
        QCOMPARE(traces->index(TraceSummaryModel::OperationsMatchedRow, TraceSummaryModel::TraceBColumn)
                     .data(Qt::ToolTipRole)
                     .toString(),
            QString::fromStdString(report.opAlignment.verdict));

        // The operation summary: every operation, the extra Memory kernels; no communication.
        OperationSummaryPage* operations = window->operationSummaryPage();
        QCOMPARE(operations->summaryTable()->proxy()->rowCount(), static_cast<int>(report.opSummary.size()));
        QCOMPARE(operations->extraKernelsPage()->chartPanel()->chart()->categories(),
            QStringList { QStringLiteral("Memory") });
        QCOMPARE(operations->extraKernelsPage()->chartPanel()->chart()->values(0), QList<qreal> { 24 });
        QVERIFY(!operations->collectivesShown());
    }

    void graphFindingShowsItsRepeatedRuns()
    {
        auto window = compared(graphsA(), graphsB());
        QVERIFY(window);
        const FusionReport& report = *window->controller()->results().report;
        OperationsPage* page = window->operationsPage();
        QVERIFY(!report.opFindings.empty());
        QCOMPARE(page->findingsTable()->proxy()->rowCount(), static_cast<int>(report.opFindings.size()));
        page->selectFinding(0);
        const QString details = page->detailsText();
        QVERIFY2(details.contains(QLatin1String("(x20)")), qPrintable(details));
        QVERIFY(details.contains(QLatin1String("(x19)")));
        QCOMPARE(page->alignmentModel()->rowCount(), static_cast<int>(report.opFindings[0].alignment.size()));
        int x20 = 0;
        for (int row = 0; row < page->alignmentModel()->rowCount(); ++row)
            x20 += page->alignmentModel()
                       ->index(row, FindingAlignmentModel::RunColumn)
                       .data()
                       .toString()
                       .endsWith(QLatin1String("(x20)"));
        QCOMPARE(x20, 1); // the run listed; its 19 repeats are marked "repeat"
        // A click on a run in the details scrolls to its rows.
        page->showRun(1);
        const int row = page->alignmentModel()->firstRowOfRun(1);
        QVERIFY(row > 0);
    }

    void operationLevelReRunsTheAnalysis()
    {
        auto window = compared(sampleA(), sampleB());
        QVERIFY(window);
        AnalysisController* controller = window->controller();
        const std::shared_ptr<const TraceStore> storeA = controller->side(0).store;
        QCOMPARE(
            controller->results().report->opFindings.front().op, std::string("aten::scaled_dot_product_attention"));

        // On the Operations tab, new results are drilled into as they arrive.
        window->show();
        window->tabs()->setCurrentWidget(window->operationsPage());
        QVERIFY(QTest::qWaitForWindowExposed(window.get()));
        QSignalSpy shown(window.get(), &MainWindow::resultsShown);
        window->settingsWidget()->setOpLevel(OpLevel::Module);
        QVERIFY(shown.wait(test::kResultsTimeoutMs));
        const FusionReport& report = *controller->results().report;
        QCOMPARE(report.options.opLevel, OpLevel::Module);
        QCOMPARE(report.opFindings.front().op, std::string("nn.Module: Qwen2Attention"));
        QCOMPARE(controller->results().stores[0], storeA); // not read again
        QCOMPARE(window->operationsPage()
                     ->findingsTable()
                     ->proxy()
                     ->index(0, columnOf(ReportTableId::OpFindings, "op"))
                     .data()
                     .toString(),
            QStringLiteral("nn.Module: Qwen2Attention"));
        QCOMPARE(window->operationsPage()->alignmentModel()->rowCount(),
            static_cast<int>(report.opFindings.front().alignment.size()));
        QVERIFY(window->summaryPage()->findingsText().contains(QLatin1String("nn.Module: Qwen2Attention")));

        // At the launching operator, the fill has its own operator: no finding, and the page says why.
        window->settingsWidget()->setOpLevel(OpLevel::LaunchingOperator);
        QVERIFY(shown.wait(test::kResultsTimeoutMs));
        QVERIFY(controller->results().report->opFindings.empty());
        QCOMPARE(window->operationsPage()->findingsTable()->proxy()->rowCount(), 0);
        QCOMPARE(window->operationsPage()->alignmentModel()->rowCount(), 0);
    }

    void reanalysisDoesNotReadTheFilesAgain()
    {
        auto window = compared(vllm(), hta());
        QVERIFY(window);
        AnalysisController* controller = window->controller();
        const std::shared_ptr<const TraceStore> storeA = controller->side(0).store;
        const std::shared_ptr<const TraceStore> storeB = controller->side(1).store;
        QCOMPARE(controller->results().report->classifier.name, std::string("default"));

        QSignalSpy shown(window.get(), &MainWindow::resultsShown);
        QVERIFY(window->settingsWidget()->setClassifierSpec(QStringLiteral("seed")));
        QVERIFY(shown.wait(test::kResultsTimeoutMs));
        QCOMPARE(controller->results().report->classifier.name, std::string("seed"));
        QCOMPARE(controller->results().stores[0], storeA);
        QCOMPARE(controller->results().stores[1], storeB);

        // A parameter typed into the settings: applied once editing pauses, on the same stores.
        window->settingsWidget()->setParameter(QStringLiteral("min_group_size"), 500);
        QVERIFY(shown.wait(test::kResultsTimeoutMs));
        QCOMPARE(controller->results().report->options.minGroupSize, int64_t(500));
        QCOMPARE(controller->results().report->groupPairs.size(), size_t(0));
        QCOMPARE(controller->results().stores[0], storeA);

        // Swapping A and B re-analyses without reading either file.
        window->swapTraces();
        QVERIFY(shown.wait(test::kResultsTimeoutMs));
        QCOMPARE(controller->results().stores[0], storeB);
        QCOMPARE(controller->results().stores[1], storeA);
        QCOMPARE(QString::fromStdString(controller->results().report->traces[0].path), hta());
        QVERIFY(window->dropZone(0)->fileText().contains(QLatin1String("hta_trace_diff_test")));
    }

    void newerRunSupersedesOlder()
    {
        auto window = compared(vllm(), hta());
        QVERIFY(window);
        AnalysisController* controller = window->controller();
        QSignalSpy ready(controller, &AnalysisController::resultsReady);
        const quint64 before = controller->generation();
        AnalysisOptions options;
        for (const int64_t size : { 10, 20, 30, 40 }) {
            options.minGroupSize = size;
            controller->setOptions(options);
        }
        QVERIFY(waitIdle(*controller));
        QCOMPARE(controller->generation(), before + 4);
        // Only the newest run's results arrive.
        QCOMPARE(ready.count(), 1);
        QCOMPARE(controller->results().report->options.minGroupSize, int64_t(40));

        // A new trace while another one loads: the newest pair wins.
        controller->setTraces(xdit(), hta());
        controller->setTrace(0, vllm());
        QVERIFY(waitIdle(*controller));
        QCOMPARE(QString::fromStdString(controller->results().report->traces[0].path), vllm());
    }

    void badFileShowsItsErrorInlineAndKeepsTheOtherTrace_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("reason");
        QTest::addColumn<QString>("offset");
        const QByteArray real = readFile(test::realTrace(QStringLiteral("bert-small-uncased.h100.json.gz")));
        QTest::addRow("malformed JSON") << QByteArray(
            R"({"traceEvents": [{"ph":"X","cat":"kernel","name":"k","ts":1,"dur":2}, {"ph": "X", "ts": 3,, }]})")
                                        << QStringLiteral("malformed.json") << QStringLiteral("malformed JSON")
                                        << QStringLiteral("at byte 90");
        QTest::addRow("truncated gzip") << real.left(40000) << QStringLiteral("truncated.json.gz")
                                        << QStringLiteral("truncated") << QStringLiteral("at byte 40000");
        QTest::addRow("not a trace") << QByteArray("not json at all\n") << QStringLiteral("notes.json")
                                     << QStringLiteral("not a JSON trace") << QStringLiteral("at byte 0");
        QTest::addRow("empty file") << QByteArray() << QStringLiteral("empty.json") << QStringLiteral("empty")
                                    << QString();
        QTest::addRow("missing file") << QByteArray("-") << QStringLiteral("missing.json")
                                      << QStringLiteral("does not exist") << QString();
    }

    void badFileShowsItsErrorInlineAndKeepsTheOtherTrace()
    {
        QFETCH(QByteArray, content);
        QFETCH(QString, name);
        QFETCH(QString, reason);
        QFETCH(QString, offset);
        QTemporaryDir dir;
        const QString path = dir.filePath(name);
        if (content != "-") {
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(content);
        }

        auto window = compared(sampleA(), sampleB());
        QVERIFY(window);
        const std::shared_ptr<const FusionReport> earlier = window->controller()->results().report;
        QSignalSpy shown(window.get(), &MainWindow::resultsShown);

        QVERIFY(test::dropFiles(window->dropZone(1), { path }));
        QVERIFY(waitIdle(*window->controller()));
        const QString error = window->dropZone(1)->errorText();
        QVERIFY2(error.contains(name), qPrintable(error));
        QVERIFY2(error.contains(reason), qPrintable(error));
        if (!offset.isEmpty())
            QVERIFY2(error.contains(offset), qPrintable(error));
        QVERIFY(window->dropZone(1)->isVisible() || !window->isVisible());
        QCOMPARE(window->controller()->side(1).status, AnalysisController::Status::Failed);

        // A stays loaded and the earlier results stay on screen.
        QCOMPARE(window->controller()->side(0).status, AnalysisController::Status::Loaded);
        QVERIFY(window->dropZone(0)->errorText().isEmpty());
        QVERIFY(window->dropZone(0)->detailsText().contains(QLatin1String("1,516 kernels")));
        QCOMPARE(shown.count(), 0);
        QCOMPARE(window->controller()->results().report, earlier);
        QCOMPARE(window->stack()->currentWidget(), window->tabs());
        QCOMPARE(window->kernelsPage()->proxy()->rowCount(), static_cast<int>(earlier->kernels.size()));

        // A good file on B again compares with the A that stayed loaded.
        QVERIFY(test::dropFiles(window->dropZone(1), { sampleB() }));
        QVERIFY(shown.wait(test::kResultsTimeoutMs));
        QVERIFY(window->dropZone(1)->errorText().isEmpty());
    }

    void cancelStopsARunningAnalysis()
    {
        // A synthetic trace large enough (~100 MB) that loading spans many 8 MB chunks.
        QTemporaryDir dir;
        test::TraceWriter writer;
        writer.amd();
        for (int group = 0; group < 1500; ++group)
            writer.kernels("void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>>", 300,
                group + 1);
        const QString big = writer.write(dir, QStringLiteral("big.json"));
        QVERIFY(QFileInfo(big).size() > 50'000'000);
        qInfo("synthetic trace: %lld bytes", QFileInfo(big).size());

        MainWindow window;
        AnalysisController* controller = window.controller();
        QSignalSpy cancelled(controller, &AnalysisController::cancelled);
        QSignalSpy ready(controller, &AnalysisController::resultsReady);
        bool pressed = false;
        connect(controller, &AnalysisController::progressChanged, this, [&](int permille) {
            if (!pressed && permille > 0 && permille < 900) {
                pressed = true;
                QTest::mouseClick(window.cancelButton(), Qt::LeftButton);
            }
        });
        window.show();
        window.openTraces(big, hta());
        QVERIFY(controller->isBusy());
        QVERIFY(window.cancelButton()->isVisible());
        QElapsedTimer sinceStart;
        sinceStart.start();
        QVERIFY(cancelled.wait(test::kResultsTimeoutMs));
        QVERIFY(pressed);
        qInfo(
            "cancelled %lld ms after the start, at %d per mille", sinceStart.elapsed(), window.progressBar()->value());
        QVERIFY(waitIdle(*controller));
        QCOMPARE(ready.count(), 0);
        // The large trace was still loading: nothing of it is kept. The small one may have finished
        // loading before the click; then it is kept (issue 19 item 28), else it is cancelled too.
        QCOMPARE(controller->side(0).status, AnalysisController::Status::Cancelled);
        QVERIFY(!controller->side(0).store);
        const AnalysisController::SideState& small = controller->side(1);
        if (small.status == AnalysisController::Status::Loaded) {
            QVERIFY(small.store);
        } else {
            QCOMPARE(small.status, AnalysisController::Status::Cancelled);
            QVERIFY(!small.store);
        }
        QVERIFY(!window.cancelButton()->isVisible());
        QVERIFY(window.dropZone(0)->detailsText().contains(QLatin1String("cancelled")));

        // A cancelled side is not loaded again behind the user's back; opening it again is.
        AnalysisOptions options;
        options.minGroupSize = 7;
        controller->setOptions(options);
        QVERIFY(!controller->isBusy());
        QVERIFY(test::compare(window, sampleA(), sampleB()));
    }

    void chartsSaveAsPngAndSvg()
    {
        auto window = compared(xdit(), hta(), QStringLiteral("seed"));
        QVERIFY(window);
        window->resize(1440, 900);
        window->show();
        window->tabs()->setCurrentWidget(window->kernelTypesPage());
        QVERIFY(QTest::qWaitForWindowExposed(window.get()));
        QTemporaryDir dir;
        BarChart* chart = window->kernelTypesPage()->chartPanel()->chart();
        const QString png = dir.filePath(QStringLiteral("types.png"));
        const QString svg = dir.filePath(QStringLiteral("types.svg"));
        for (const QString& path : { png, svg }) { // earlier images are replaced
            QFile old(path);
            QVERIFY(old.open(QIODevice::WriteOnly) && old.write("old image") == 9);
        }
        QCOMPARE(chart->saveImage(png), QString());
        QCOMPARE(chart->saveImage(svg), QString());
        // QSaveFile wrote each to a temporary file first and renamed it: none is left.
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden, QDir::Name),
            (QStringList { QStringLiteral("types.png"), QStringLiteral("types.svg") }));
        const QString nowhere = dir.filePath(QStringLiteral("missing/types.png"));
        const QString error = chart->saveImage(nowhere);
        QVERIFY2(error.startsWith(QStringLiteral("Cannot write ") + nowhere), qPrintable(error));
        QVERIFY(readFile(png).startsWith("\x89PNG"));
        QCOMPARE(QImage(png).size(), chart->size());
        QVERIFY(test::opaqueColours(QImage(png)) > 10); // bars, text and grid, drawn on an opaque background
        QVERIFY(chart->width() >= 400);
        const QByteArray svgText = readFile(svg);
        QVERIFY(svgText.contains("<svg"));
        QVERIFY(svgText.contains("GEMM")); // the category labels are text in the SVG
    }

    void settingsPersist()
    {
        {
            MainWindow window;
            window.show();
            window.resize(700, 560); // within the offscreen screen: a larger one is fitted to it
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            window.applyClassifierAndParameters(
                QStringLiteral("seed"), { QStringLiteral("min_group_size=33") }, QStringLiteral("launch"));
            window.settingsDock()->show();
            window.close();
        }
        MainWindow window;
        QCOMPARE(window.settingsWidget()->classifierSpec(), QStringLiteral("seed"));
        QCOMPARE(window.settingsWidget()->options().minGroupSize, int64_t(33));
        QCOMPARE(window.controller()->options().minGroupSize, int64_t(33));
        QCOMPARE(window.settingsWidget()->options().opLevel, OpLevel::LaunchingOperator);
        QCOMPARE(window.controller()->options().opLevel, OpLevel::LaunchingOperator);
        QCOMPARE(window.controller()->classifier()->name(), std::string("seed"));
        QCOMPARE(window.size(), QSize(700, 560));

        // A rule file that cannot be read is reported beside the classifier; the previous one stays.
        QVERIFY(!window.settingsWidget()->setClassifierSpec(QStringLiteral("/nonexistent/rules.json")));
        QVERIFY(window.settingsWidget()->classifierError().contains(QLatin1String("rules.json")));
        QCOMPARE(window.settingsWidget()->classifierSpec(), QStringLiteral("seed"));

        // Recent files.
        QVERIFY(test::compare(window, sampleA(), sampleB()));
        QCOMPARE(window.recentFiles().mid(0, 2), QStringList({ sampleB(), sampleA() }));
    }

    void applicationOpensTracesFromTheCommandLine()
    {
        // `fusiondiff A B`, with the hidden option that saves every view and quits.
        QTemporaryDir dir;
        QProcess process;
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        process.setProcessEnvironment(environment);
        process.start(QStringLiteral(FUSIONDIFF_GUI_PATH),
            { QStringLiteral("--screenshot"), dir.path(), QStringLiteral("--classifier"), QStringLiteral("seed"),
                vllm(), hta() });
        QVERIFY(process.waitForFinished(test::kResultsTimeoutMs));
        QCOMPARE(process.exitCode(), 0);
        const QStringList files = QDir(dir.path()).entryList({ QStringLiteral("*.png") });
        QVERIFY2(files.contains(QStringLiteral("07-correlation-groups.png")), qPrintable(files.join(QLatin1Char(' '))));
        QVERIFY(files.contains(QStringLiteral("11-operations.png")));
        QVERIFY(files.size() >= 9);

        // An operation level the CLI would refuse is refused here too.
        QProcess bad;
        bad.setProcessEnvironment(environment);
        bad.start(QStringLiteral(FUSIONDIFF_GUI_PATH), { QStringLiteral("--op-level"), QStringLiteral("layer") });
        QVERIFY(bad.waitForFinished(test::kResultsTimeoutMs));
        QCOMPARE(bad.exitCode(), 2);
        QVERIFY(bad.readAllStandardError().contains("--op-level takes auto, operator, module or launch"));

        // A capture trace needs its trace.
        QProcess lone;
        lone.setProcessEnvironment(environment);
        lone.start(QStringLiteral(FUSIONDIFF_GUI_PATH), { QStringLiteral("--capture2"), sglangCapture(), vllm() });
        QVERIFY(lone.waitForFinished(test::kResultsTimeoutMs));
        QCOMPARE(lone.exitCode(), 2);
        QVERIFY(lone.readAllStandardError().contains("--capture1 and --capture2 go with two traces"));
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
