// Saved sessions (File > Save Session..., Open Session...): a session saved on the bundled sample
// pair brings back the tab, the filters, the sort orders, the selections (by the rows' names, not
// their places), the Summary's basis, the parameters and the timeline's zoom and selected kernel;
// it opens from a drop and from the recent sessions, and at start-up when the setting asks for it.
// A corrupt file, a newer version, a file naming a missing trace or a field of the wrong type is
// refused with a message naming the file, and the results on screen stay; saving over a session
// that fails midway leaves the old file whole.

#include "guitestsupport.h"

#include "analysis/analysiscontroller.h"
#include "charts/chartpanel.h"
#include "model/fusionreport.h"
#include "model/jobreport.h"
#include "models/findingalignmentmodel.h"
#include "models/groupdiffmodel.h"
#include "models/reportcolumnsmodel.h"
#include "models/tablefilterproxy.h"
#include "pages/groupspage.h"
#include "pages/kernelspage.h"
#include "pages/layerspage.h"
#include "pages/operationspage.h"
#include "pages/operationsummarypage.h"
#include "pages/resultspage.h"
#include "pages/stepspage.h"
#include "pages/summarypage.h"
#include "pages/tablechartpage.h"
#include "pages/tablepage.h"
#include "ranks/rankspage.h"
#include "shell/mainwindow.h"
#include "shell/resultstabs.h"
#include "shell/sessionfile.h"
#include "shell/windowsession.h"
#include "timeline/timelinedata.h"
#include "timeline/timelinepanel.h"
#include "timeline/timelineview.h"
#include "timeline/tracetimelinepage.h"
#include "util/atomicfile.h"
#include "widgets/filterlineedit.h"
#include "widgets/tracedropzone.h"

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QSettings>
#include <QSignalSpy>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <array>
#include <cerrno>
#include <memory>

using namespace fusiondiff;
using namespace fusiondiff::ui;

namespace {

constexpr int kTimeoutMs = 120000;

int columnOf(ReportTableId table, const char* key)
{
    return ReportColumnsModel(table).column(key);
}

// The source row of `table` whose `column` reads `text`; -1 if none.
int rowWith(const TablePage* table, int column, const QString& text)
{
    const QAbstractItemModel* model = table->sourceModel();
    for (int row = 0; row < model->rowCount(); ++row) {
        if (model->index(row, column).data(ReportTableModel::FullTextRole).toString() == text)
            return row;
    }
    return -1;
}

// The first column's whole text of each selected row.
QStringList selectedNames(const TablePage* table)
{
    QStringList names;
    for (const int row : table->selectedSourceRows())
        names.append(table->sourceModel()->index(row, 0).data(ReportTableModel::FullTextRole).toString());
    return names;
}

void filter(TablePage* table, const QString& text)
{
    table->filterEdit()->setText(text);
    table->filterEdit()->applyNow();
}

std::unique_ptr<MainWindow> shownWindow()
{
    auto window = std::make_unique<MainWindow>();
    window->resize(1440, 900);
    window->show();
    if (!QTest::qWaitForWindowExposed(window.get()))
        return nullptr;
    return window;
}

// A window that has compared the sample pair.
std::unique_ptr<MainWindow> comparedSamples(const QStringList& parameters = {})
{
    std::unique_ptr<MainWindow> window = shownWindow();
    if (!window)
        return nullptr;
    if (!parameters.isEmpty())
        window->applyClassifierAndParameters({}, parameters);
    QSignalSpy shown(window.get(), &MainWindow::resultsShown);
    window->openTraces(test::sampleA(), test::sampleB());
    if (!shown.wait(kTimeoutMs))
        return nullptr;
    return window;
}

// Opens `path` in `window` and waits until the session is restored.
bool restore(MainWindow& window, const QString& path)
{
    QSignalSpy restored(window.session(), &WindowSession::restored);
    return window.session()->open(path) && restored.wait(kTimeoutMs);
}

QJsonObject jsonOf(const QString& path)
{
    return QJsonDocument::fromJson(test::readFile(path)).object();
}

bool writeText(const QString& path, const QByteArray& bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

int failAtRename(AtomicWriteStep step, uint64_t)
{
    return step == AtomicWriteStep::Rename ? EIO : 0;
}

int failWhileWriting(AtomicWriteStep step, uint64_t)
{
    return step == AtomicWriteStep::Write ? ENOSPC : 0;
}

int failAtSync(AtomicWriteStep step, uint64_t)
{
    return step == AtomicWriteStep::Sync ? EIO : 0;
}

// Moves the divider of the splitter `name` in `page` 120 pixels down from where the page put it,
// as a user's drag does (the sizes, and the mark the window sets when a divider is moved).
// Returns the first panel's share of the splitter then; -1 without such a splitter or where it
// hardly moved (a panel's minimum stopped it).
double moveDivider(QWidget* page, const QString& name)
{
    auto* splitter = page->findChild<QSplitter*>(name);
    if (!splitter || splitter->count() != 2)
        return -1;
    const QList<int> before = splitter->sizes();
    splitter->setSizes({ before[0] + 120, before[1] - 120 });
    splitter->setProperty(kUserSizedProperty, true);
    const QList<int> after = splitter->sizes();
    return after[0] - before[0] >= 60 ? double(after[0]) / (after[0] + after[1]) : -1;
}

// The first panel's share of the splitter `name` in `page` if the user placed its divider, else -1.
double placedShare(QWidget* page, const QString& name)
{
    auto* splitter = page->findChild<QSplitter*>(name);
    if (!splitter || !splitter->property(kUserSizedProperty).toBool() || splitter->count() != 2)
        return -1;
    const QList<int> sizes = splitter->sizes();
    return double(sizes[0]) / std::max(1, sizes[0] + sizes[1]);
}

// Another window's page may be a line taller or shorter (a splitter shares out the difference):
// the divider is where it was when the first panel's share is, within 2% (the move was over 8%).
bool sameShare(double a, double b)
{
    return a >= 0 && qAbs(a - b) <= 0.02;
}

bool near(double a, double b)
{
    return qAbs(a - b) <= 1e-6 * std::max(1.0, qAbs(b));
}

// Whether `lanes` show [start, end) as saved, and what they show otherwise.
bool showsRange(const TimelineView& lanes, double start, double end)
{
    return near(lanes.visibleStart(), start) && near(lanes.visibleEnd(), end);
}

QString rangeText(const TimelineView& lanes, double start, double end)
{
    return QStringLiteral("%1-%2, saved %3-%4").arg(lanes.visibleStart()).arg(lanes.visibleEnd()).arg(start).arg(end);
}

// What the divider `name` of `page` holds against the share it was moved to.
QString dividerText(QWidget* page, const QString& name, double movedShare)
{
    return QStringLiteral("%1 of the height, moved to %2").arg(placedShare(page, name)).arg(movedShare);
}

} // namespace

class TestSession : public QObject
{
    Q_OBJECT

    std::unique_ptr<MainWindow> m_compared; // the sample pair compared, for the tests that refuse a session
    QTemporaryDir m_folder;

    MainWindow* compared()
    {
        if (!m_compared)
            m_compared = comparedSamples();
        return m_compared.get();
    }

private Q_SLOTS:
    void initTestCase()
    {
        test::useOwnSettings(QStringLiteral("tst_session"));
        QVERIFY(m_folder.isValid());
    }

    void cleanupTestCase()
    {
        m_compared.reset();
        test::removeOwnSettings();
    }

    void init() { QSettings().clear(); }

    void cleanup() { setAtomicWriteHookForTesting(nullptr); }

    void aRowIsSelectedAgainByItsNameNotItsPlace()
    {
        // Two rows named "a": the second one is selected; in the new rows it is elsewhere.
        QStandardItemModel before;
        for (const char* name : { "a", "b", "a", "c" })
            before.appendRow(new QStandardItem(QString::fromLatin1(name)));
        TablePage first(&before);
        first.selectSourceRows({ 2 });
        const QJsonObject state = first.saveState();

        QStandardItemModel after;
        for (const char* name : { "c", "a", "x", "a", "b" })
            after.appendRow(new QStandardItem(QString::fromLatin1(name)));
        TablePage second(&after);
        second.restoreState(state);
        QCOMPARE(second.selectedSourceRows(), QList<int>({ 3 }));

        // A name no longer there selects nothing.
        QStandardItemModel gone;
        gone.appendRow(new QStandardItem(QStringLiteral("b")));
        TablePage third(&gone);
        third.selectSourceRows({ 0 });
        third.restoreState(state);
        QVERIFY(third.selectedSourceRows().isEmpty());
    }

    void aSavedSessionComesBackAsItWas()
    {
        std::unique_ptr<MainWindow> one = comparedSamples({ QStringLiteral("fused_by_ratio=1.7") });
        QVERIFY(one);

        // The Operation summary filtered, sorted by B − A descending, one operation selected.
        TablePage* operations = one->operationSummaryPage()->summaryTable();
        filter(operations, QStringLiteral("aten::"));
        const int delta = columnOf(ReportTableId::OpSummary, "delta_time_us");
        operations->view()->sortByColumn(delta, Qt::DescendingOrder);
        const int mul = rowWith(operations, 0, QStringLiteral("aten::mul"));
        QVERIFY(mul > 0);
        operations->selectSourceRows({ mul });
        // Every kernel's table filtered, sorted by name, two GEMMs selected.
        TablePage* kernels = one->kernelsPage();
        filter(kernels, QStringLiteral("gemm"));
        kernels->view()->sortByColumn(0, Qt::AscendingOrder);
        QVERIFY(kernels->proxy()->rowCount() >= 3);
        const QList<int> gemms = { kernels->proxy()->mapToSource(kernels->proxy()->index(1, 0)).row(),
            kernels->proxy()->mapToSource(kernels->proxy()->index(2, 0)).row() };
        kernels->selectSourceRows(gemms);
        // The Steps tab's host code sorted by B's time, one selected.
        TablePage* host = one->tabs()->stepsPage()->hostTime();
        host->view()->sortByColumn(columnOf(ReportTableId::HostTime, "trace2_own_us_per_step"), Qt::DescendingOrder);
        const int sync = rowWith(host, 0, QStringLiteral("cudaDeviceSynchronize"));
        QVERIFY(sync >= 0);
        host->selectSourceRows({ sync });
        // The Summary's waterfall on the kernel time, as a user picks it.
        QComboBox* basis = one->summaryPage()->basisChoice();
        basis->setCurrentIndex(basis->findData(QStringLiteral("gpu_kernel_time")));
        emit basis->activated(basis->currentIndex());
        // The timeline zoomed in, a kernel of B selected.
        one->tabs()->setCurrentWidget(one->timelinePage());
        TimelineView* view = one->timelinePage()->timeline()->view();
        QVERIFY(view->timeline().lanes[1].kernels.size() > 200);
        view->setVisibleRange(2000, 9000);
        view->setSelectedKernel(1, 150);
        // The tab the session opens on.
        one->tabs()->setCurrentWidget(one->operationSummaryPage());

        const QString path = m_folder.filePath(QStringLiteral("round-trip.fdsession"));
        QSignalSpy written(one->session(), &WindowSession::written);
        QVERIFY(one->session()->save(path));
        QCOMPARE(written.count(), 1);
        const QJsonObject saved = jsonOf(path);
        // A pair's session is written as version 2, which older builds read; runs need version 3.
        QCOMPARE(saved.value(QLatin1String("version")).toInt(), 2);
        QCOMPARE(saved.value(QLatin1String("tab")).toString(), QStringLiteral("operation_summary"));

        // A window of its own, its settings the defaults (the basis and the parameter included).
        QSettings().clear();
        std::unique_ptr<MainWindow> two = shownWindow();
        QVERIFY(two);
        QCOMPARE(two->summaryPage()->basisChoice()->currentData().toString(), QStringLiteral("step_time"));
        QVERIFY(restore(*two, path));

        QCOMPARE(two->controller()->side(0).path, QFileInfo(test::sampleA()).absoluteFilePath());
        QCOMPARE(two->controller()->side(1).path, QFileInfo(test::sampleB()).absoluteFilePath());
        QCOMPARE(two->controller()->options().fusedByRatio, 1.7);
        QCOMPARE(two->tabs()->results().report->options.fusedByRatio, 1.7);
        QCOMPARE(two->tabs()->currentWidget(), two->operationSummaryPage());

        TablePage* operationsAgain = two->operationSummaryPage()->summaryTable();
        QCOMPARE(operationsAgain->filterEdit()->text(), QStringLiteral("aten::"));
        QCOMPARE(operationsAgain->proxy()->rowCount(), operations->proxy()->rowCount());
        QCOMPARE(operationsAgain->view()->horizontalHeader()->sortIndicatorSection(), delta);
        QCOMPARE(operationsAgain->view()->horizontalHeader()->sortIndicatorOrder(), Qt::DescendingOrder);
        QCOMPARE(selectedNames(operationsAgain), QStringList { QStringLiteral("aten::mul") });

        TablePage* kernelsAgain = two->kernelsPage();
        QCOMPARE(kernelsAgain->filterEdit()->text(), QStringLiteral("gemm"));
        QCOMPARE(kernelsAgain->view()->horizontalHeader()->sortIndicatorSection(), 0);
        QCOMPARE(kernelsAgain->view()->horizontalHeader()->sortIndicatorOrder(), Qt::AscendingOrder);
        QCOMPARE(selectedNames(kernelsAgain), selectedNames(kernels));
        QCOMPARE(kernelsAgain->selectedSourceRows().size(), 2);

        TablePage* hostAgain = two->tabs()->stepsPage()->hostTime();
        QCOMPARE(hostAgain->view()->horizontalHeader()->sortIndicatorSection(),
            columnOf(ReportTableId::HostTime, "trace2_own_us_per_step"));
        QCOMPARE(selectedNames(hostAgain), QStringList { QStringLiteral("cudaDeviceSynchronize") });

        QCOMPARE(two->summaryPage()->basisChoice()->currentData().toString(), QStringLiteral("gpu_kernel_time"));

        // The timeline is built when its tab is first shown, and then zoomed as it was.
        two->tabs()->setCurrentWidget(two->timelinePage());
        TimelineView* viewAgain = two->timelinePage()->timeline()->view();
        QCOMPARE(viewAgain->visibleStart(), 2000.0);
        QVERIFY2(qAbs(viewAgain->visibleEnd() - 9000) < 1e-6, qPrintable(QString::number(viewAgain->visibleEnd())));
        QCOMPARE(viewAgain->selectedSide(), 1);
        QCOMPARE(viewAgain->selectedKernel(), 150);

        // Saved again, with the timeline's tab current: the same pages; opened, on the timeline.
        const QString again = m_folder.filePath(QStringLiteral("round-trip-again.fdsession"));
        QVERIFY(two->session()->save(again));
        QCOMPARE(jsonOf(again).value(QLatin1String("pages")), saved.value(QLatin1String("pages")));
        QCOMPARE(jsonOf(again).value(QLatin1String("tab")).toString(), QStringLiteral("timeline"));
        std::unique_ptr<MainWindow> three = shownWindow();
        QVERIFY(three);
        QVERIFY(restore(*three, again));
        QCOMPARE(three->tabs()->currentWidget(), three->timelinePage());
        QCOMPARE(three->timelinePage()->timeline()->view()->visibleStart(), 2000.0);
        QCOMPARE(three->timelinePage()->timeline()->view()->selectedKernel(), 150);
        QVERIFY(three->recentSessions().contains(QFileInfo(again).absoluteFilePath()));
    }

    void theCaptureTraceComesBackWithItsTrace()
    {
        // Graph launches on both sides, B with the capture trace that names its graphs' operations.
        const QString a = test::realTrace(QStringLiteral("vllm_decode_full_graph.mi300x.json.gz"));
        const QString b = test::realTrace(QStringLiteral("sglang_qwen3-8b_decode.mi300x.json.gz"));
        const QString capture = test::realTrace(QStringLiteral("sglang_qwen3-8b_decode_capture.mi300x.json.gz"));
        const QString path = m_folder.filePath(QStringLiteral("graphs.fdsession"));
        {
            std::unique_ptr<MainWindow> one = shownWindow();
            QVERIFY(one);
            QSignalSpy shown(one.get(), &MainWindow::resultsShown);
            one->openTraces(a, b, {}, capture);
            QVERIFY(shown.wait(kTimeoutMs));
            QVERIFY(one->tabs()->results().captures[1]);
            one->tabs()->setCurrentWidget(one->groupsPage());
            QVERIFY(one->session()->save(path));
        }
        QSettings().clear(); // nor remembered with the trace
        std::unique_ptr<MainWindow> two = shownWindow();
        QVERIFY(two);
        QVERIFY(restore(*two, path));
        QCOMPARE(two->controller()->side(1).capturePath, QFileInfo(capture).absoluteFilePath());
        QVERIFY(two->tabs()->results().captures[1]);
        QVERIFY(!two->tabs()->results().captures[0]);
        QCOMPARE(two->tabs()->currentWidget(), two->groupsPage());
    }

    // Two runs, with a rank pair the user chose rather than the job's: the session reopens them as
    // runs, on that pair, on the Ranks tab.
    void aRunSessionComesBackWithItsRankPair()
    {
        const QString runA = test::realTrace(QStringLiteral("dlrm_8ranks"));
        const QString runB = test::realTrace(QStringLiteral("dlrm_8ranks_rank2_slow5x"));
        const QString path = m_folder.filePath(QStringLiteral("runs.fdsession"));
        std::array<int, 2> chosen {};
        {
            std::unique_ptr<MainWindow> one = shownWindow();
            QVERIFY(one);
            QSignalSpy shown(one.get(), &MainWindow::resultsShown);
            one->openTraces(runA, runB);
            QVERIFY(shown.wait(kTimeoutMs));
            const std::array<int, 2> straggler = one->controller()->job()->detailedPair;
            chosen = { straggler[0] == 5 ? 6 : 5, straggler[1] == 5 ? 6 : 5 };
            QVERIFY(one->controller()->setRankPair(chosen[0], chosen[1]));
            QVERIFY(shown.wait(kTimeoutMs));
            QCOMPARE(one->controller()->job()->detailedPair, chosen);
            one->tabs()->setCurrentWidget(one->tabs()->ranksPage());
            QVERIFY(one->session()->save(path));
        }
        const QJsonObject saved = jsonOf(path);
        QCOMPARE(saved.value(QLatin1String("version")).toInt(), 3);
        QCOMPARE(saved.value(QLatin1String("tab")).toString(), QStringLiteral("ranks"));
        const QJsonArray traces = saved.value(QLatin1String("traces")).toArray();
        QCOMPARE(traces.at(0).toObject().value(QLatin1String("run")).toArray().first().toString(),
            QFileInfo(runA).absoluteFilePath());
        QCOMPARE(traces.at(1).toObject().value(QLatin1String("rank")).toInt(), chosen[1]);

        QSettings().clear();
        std::unique_ptr<MainWindow> two = shownWindow();
        QVERIFY(two);
        QVERIFY(restore(*two, path));
        QVERIFY(two->controller()->comparesRuns());
        QCOMPARE(two->controller()->side(1).runInputs, QStringList { QFileInfo(runB).absoluteFilePath() });
        QCOMPARE(two->tabs()->results().report->job->detailedPair, chosen);
        QVERIFY(two->controller()->side(0).path.contains(QStringLiteral("worker%1").arg(chosen[0])));
        QCOMPARE(two->tabs()->currentWidget(), two->tabs()->ranksPage());
    }

    void aDroppedSessionOpensAsASession()
    {
        MainWindow* window = compared();
        QVERIFY(window);
        window->tabs()->setCurrentWidget(window->kernelTypesPage());
        const QString path = m_folder.filePath(QStringLiteral("dropped.fdsession"));
        QVERIFY(window->session()->save(path));

        std::unique_ptr<MainWindow> other = shownWindow();
        QVERIFY(other);
        QSignalSpy restored(other->session(), &WindowSession::restored);
        QVERIFY(test::dropFiles(other->dropZone(1), { path }));
        QVERIFY(restored.wait(kTimeoutMs));
        QCOMPARE(other->tabs()->currentWidget(), other->kernelTypesPage());
        // Not a trace: neither side tried to read the session as one.
        QCOMPARE(other->controller()->side(1).path, QFileInfo(test::sampleB()).absoluteFilePath());
    }

    void theOperationsDrillDownComesBack()
    {
        // The hand-made graph pair: the finding with the most kernels drilled into.
        std::unique_ptr<MainWindow> one = shownWindow();
        QVERIFY(one);
        QSignalSpy shown(one.get(), &MainWindow::resultsShown);
        one->openTraces(test::sourcePath(QStringLiteral("tests/data/synthetic/graphs.amd.json")),
            test::sourcePath(QStringLiteral("tests/data/synthetic/graphs.nvidia.json")));
        QVERIFY(shown.wait(kTimeoutMs));
        OperationsPage* page = one->operationsPage();
        one->tabs()->setCurrentWidget(page);
        const std::vector<OpFinding>& findings = one->tabs()->results().report->opFindings;
        QVERIFY(!findings.empty());
        int finding = 0;
        for (size_t i = 0; i < findings.size(); ++i) {
            if (findings[i].alignment.size() > findings[static_cast<size_t>(finding)].alignment.size())
                finding = static_cast<int>(i);
        }
        page->selectFinding(finding);
        TablePage* kernels = page->alignmentTable();
        QTRY_VERIFY2(
            kernels->sourceModel()->rowCount() > 4, qPrintable(QString::number(kernels->sourceModel()->rowCount())));
        // The kernels filtered by the type of one of them, the second row shown selected.
        const QString type = kernels->sourceModel()
                                 ->index(2, FindingAlignmentModel::TypeAColumn)
                                 .data(ReportTableModel::FullTextRole)
                                 .toString();
        QVERIFY(!type.isEmpty());
        filter(kernels, type);
        QVERIFY(kernels->proxy()->rowCount() >= 2);
        QVERIFY(kernels->proxy()->rowCount() < kernels->sourceModel()->rowCount());
        const int selected = kernels->proxy()->mapToSource(kernels->proxy()->index(1, 0)).row();
        kernels->selectSourceRows({ selected });
        // The lanes zoomed into the middle of the call, the findings' divider placed.
        TimelineView* lanes = page->timeline()->view();
        const double end = lanes->timeline().end();
        lanes->setVisibleRange(end * 0.2, end * 0.6);
        const double start = lanes->visibleStart();
        const double shownEnd = lanes->visibleEnd();
        const double findingsShare = moveDivider(page, QStringLiteral("operations_splitter"));
        QVERIFY(findingsShare > 0);

        const QString path = m_folder.filePath(QStringLiteral("operations.fdsession"));
        QVERIFY(one->session()->save(path));
        const QJsonObject drillDown = jsonOf(path)
                                          .value(QLatin1String("pages"))
                                          .toObject()
                                          .value(QLatin1String("operations"))
                                          .toObject()
                                          .value(QLatin1String("drill_down"))
                                          .toObject();
        QCOMPARE(drillDown.value(QLatin1String("kernels")).toObject().value(QLatin1String("filter")).toString(), type);
        QVERIFY(drillDown.value(QLatin1String("splitters")).toObject().contains(QLatin1String("operations_splitter")));

        QSettings().clear(); // the divider is not in the settings either
        std::unique_ptr<MainWindow> two = shownWindow();
        QVERIFY(two);
        QVERIFY(restore(*two, path));
        OperationsPage* again = two->operationsPage();
        QCOMPARE(two->tabs()->currentWidget(), again);
        QCOMPARE(again->findingsTable()->selectedSourceRows(), QList<int>({ finding }));
        TablePage* kernelsAgain = again->alignmentTable();
        QCOMPARE(kernelsAgain->filterEdit()->text(), type);
        QCOMPARE(kernelsAgain->proxy()->rowCount(), kernels->proxy()->rowCount());
        QCOMPARE(kernelsAgain->selectedSourceRows(), QList<int>({ selected }));
        QCOMPARE(again->timeline()->view()->selectedKernel(), lanes->selectedKernel());
        TimelineView* lanesAgain = again->timeline()->view();
        QTRY_VERIFY2(showsRange(*lanesAgain, start, shownEnd), qPrintable(rangeText(*lanesAgain, start, shownEnd)));
        // The divider where it was moved, not where the page puts it (120 pixels higher).
        QTRY_VERIFY2(sameShare(placedShare(again, QStringLiteral("operations_splitter")), findingsShare),
            qPrintable(dividerText(again, QStringLiteral("operations_splitter"), findingsShare)));
        // The page leaves a placed divider alone.
        QVERIFY(
            again->findChild<QSplitter*>(QStringLiteral("operations_splitter"))->property(kUserSizedProperty).toBool());
    }

    void theGroupsDrillDownComesBack()
    {
        // Two runs of one H200 build: their graph launches pair one to one.
        const QString a = test::realTrace(QStringLiteral("pi0_torchcompile_cudagraph.h200.json.gz"));
        const QString b = test::realTrace(QStringLiteral("pi0_torchcompile_cudagraph_rerun.h200.json.gz"));
        std::unique_ptr<MainWindow> one = shownWindow();
        QVERIFY(one);
        QSignalSpy shown(one.get(), &MainWindow::resultsShown);
        one->openTraces(a, b);
        QVERIFY(shown.wait(kTimeoutMs));
        GroupsPage* page = one->groupsPage();
        one->tabs()->setCurrentWidget(page);
        QVERIFY2(page->pairsTable()->sourceModel()->rowCount() >= 2,
            qPrintable(QString::number(page->pairsTable()->sourceModel()->rowCount())));
        // Not the pair the page drills into by itself: the second one.
        QSignalSpy ready(page, &GroupsPage::drillDownReady);
        page->selectPair(1);
        QVERIFY(ready.wait(kTimeoutMs));
        TablePage* kernels = page->sequenceTable();
        QVERIFY(kernels->sourceModel()->rowCount() > 6);
        kernels->selectSourceRows({ 3, 4 });
        page->compositionPanel()->setMetric(ChartPanel::GpuTime);
        TimelineView* lanes = page->timeline()->view();
        const double end = lanes->timeline().end();
        lanes->setVisibleRange(end * 0.1, end * 0.3);
        const double start = lanes->visibleStart();
        const double shownEnd = lanes->visibleEnd();
        const double tablesShare = moveDivider(page, QStringLiteral("groups_splitter"));
        QVERIFY(tablesShare > 0);
        const QString path = m_folder.filePath(QStringLiteral("groups.fdsession"));
        QVERIFY(one->session()->save(path));

        QSettings().clear();
        std::unique_ptr<MainWindow> two = shownWindow();
        QVERIFY(two);
        QVERIFY(restore(*two, path));
        GroupsPage* again = two->groupsPage();
        QCOMPARE(two->tabs()->currentWidget(), again);
        QCOMPARE(again->pairsTable()->selectedSourceRows(), QList<int>({ 1 }));
        // The pair's kernels come from a worker; then their rows, the measure and the time come back.
        QTRY_COMPARE_WITH_TIMEOUT(again->sequenceTable()->selectedSourceRows(), QList<int>({ 3, 4 }), 30000);
        QCOMPARE(again->diffModel()->rowCount(), page->diffModel()->rowCount());
        QCOMPARE(again->compositionPanel()->metric(), ChartPanel::GpuTime);
        TimelineView* lanesAgain = again->timeline()->view();
        QTRY_VERIFY2(showsRange(*lanesAgain, start, shownEnd), qPrintable(rangeText(*lanesAgain, start, shownEnd)));
        QTRY_VERIFY2(sameShare(placedShare(again, QStringLiteral("groups_splitter")), tablesShare),
            qPrintable(dividerText(again, QStringLiteral("groups_splitter"), tablesShare)));

        // Saved again before anything else changes: the same drill-down.
        const QString twice = m_folder.filePath(QStringLiteral("groups-again.fdsession"));
        QVERIFY(two->session()->save(twice));
        const auto drillDownOf = [](const QString& file) {
            return jsonOf(file)
                .value(QLatin1String("pages"))
                .toObject()
                .value(QLatin1String("groups"))
                .toObject()
                .value(QLatin1String("drill_down"))
                .toObject();
        };
        QCOMPARE(drillDownOf(twice).value(QLatin1String("kernels")), drillDownOf(path).value(QLatin1String("kernels")));
        QCOMPARE(drillDownOf(twice).value(QLatin1String("composition")).toString(), QStringLiteral("gpu_time"));
    }

    void aVersion1SessionStillOpens()
    {
        // As the app wrote it before the drill-downs were kept: its pages' own states, no drill-down.
        const QString path = m_folder.filePath(QStringLiteral("version1.fdsession"));
        QVERIFY(writeText(path,
            QStringLiteral("{\"format\": \"fusiondiff-session\", \"version\": 1, \"traces\": [{\"path\": \"%1\"}, "
                           "{\"path\": \"%2\"}], \"tab\": \"operations\", \"pages\": {\"operations\": "
                           "{\"findings\": {\"filter\": \"\", \"selected\": [{\"key\": "
                           "\"aten::scaled_dot_product_attention\", \"nth\": 0}]}}}}")
                .arg(test::sampleA(), test::sampleB())
                .toUtf8()));
        std::unique_ptr<MainWindow> window = shownWindow();
        QVERIFY(window);
        QVERIFY(restore(*window, path));
        OperationsPage* page = window->operationsPage();
        QCOMPARE(window->tabs()->currentWidget(), page);
        QCOMPARE(
            selectedNames(page->findingsTable()), QStringList { QStringLiteral("aten::scaled_dot_product_attention") });
        // Its drill-down as the page shows a finding: its kernels, nothing filtered, the lanes fitted.
        QVERIFY(page->alignmentModel()->rowCount() > 0);
        QVERIFY(page->alignmentTable()->filterEdit()->text().isEmpty());
        QCOMPARE(page->timeline()->view()->visibleStart(), 0.0);
        // Saved again, it is a version 2 session with the drill-down.
        QVERIFY(window->session()->save(path));
        QCOMPARE(jsonOf(path).value(QLatin1String("version")).toInt(), 2);
        QVERIFY(jsonOf(path)
                    .value(QLatin1String("pages"))
                    .toObject()
                    .value(QLatin1String("operations"))
                    .toObject()
                    .contains(QLatin1String("drill_down")));
    }

    void aBadSessionIsRefusedNamingTheFile_data()
    {
        QTest::addColumn<QByteArray>("contents");
        QTest::addColumn<QString>("reason");
        const QByteArray traces = QStringLiteral("\"traces\": [{\"path\": \"%1\"}, {\"path\": \"%2\"}]")
                                      .arg(test::sampleA(), test::sampleB())
                                      .toUtf8();
        QTest::newRow("corrupt") << QByteArray("{\"format\": \"fusiondiff-session\", \"version\": 1, \"tra")
                                 << QStringLiteral("not a session file");
        QTest::newRow("another JSON file")
            << QByteArray("{\"traceEvents\": []}") << QStringLiteral("not a FusionDiff session file");
        const QByteArray newer = QByteArray::number(Session::kVersion + 1);
        QTest::newRow("a newer version") << QByteArray("{\"format\": \"fusiondiff-session\", \"version\": " + newer
            + ", " + traces
            + "}") << QStringLiteral("saved by a newer FusionDiff (session version %1").arg(Session::kVersion + 1);
        QTest::newRow("a missing trace") << QStringLiteral(
            "{\"format\": \"fusiondiff-session\", \"version\": 1, \"traces\": [{\"path\": \"%1\"}, "
            "{\"path\": \"gone/nvidia.json.gz\"}]}")
                                                .arg(test::sampleA())
                                                .toUtf8()
                                         << QDir::toNativeSeparators(
                                                m_folder.filePath(QStringLiteral("gone/nvidia.json.gz")))
                + QStringLiteral(": the file does not exist");
        QTest::newRow("a missing capture trace")
            << QStringLiteral("{\"format\": \"fusiondiff-session\", \"version\": 1, \"traces\": [{\"path\": \"%1\", "
                              "\"capture\": \"/no/capture.json\"}, {\"path\": \"%2\"}]}")
                   .arg(test::sampleA(), test::sampleB())
                   .toUtf8()
            << QStringLiteral("the capture trace of trace A /no/capture.json: the file does not exist");
        QTest::newRow("a run folder that is gone")
            << QStringLiteral("{\"format\": \"fusiondiff-session\", \"version\": 3, \"traces\": [{\"path\": \"%1\", "
                              "\"run\": [\"/no/run\"]}, {\"path\": \"%2\"}]}")
                   .arg(test::sampleA(), test::sampleB())
                   .toUtf8()
            << QStringLiteral("a rank of trace A, /no/run: the file does not exist");
        QTest::newRow("a rank that is not a number")
            << QStringLiteral("{\"format\": \"fusiondiff-session\", \"version\": 3, \"traces\": [{\"path\": \"%1\", "
                              "\"run\": [\"%1\"], \"rank\": \"two\"}, {\"path\": \"%2\"}]}")
                   .arg(test::sampleA(), test::sampleB())
                   .toUtf8()
            << QStringLiteral("the \"rank\" of trace A is not a rank number");
        QTest::newRow("one trace") << QByteArray(
            "{\"format\": \"fusiondiff-session\", \"version\": 1, \"traces\": [{\"path\": \"a.json\"}]}")
                                   << QStringLiteral("\"traces\" is not a list of two traces");
        QTest::newRow("an unknown parameter") << QByteArray("{\"format\": \"fusiondiff-session\", \"version\": 1, "
            + traces + ", \"parameters\": {\"no_such_parameter\": 3}}")
                                              << QStringLiteral("no_such_parameter");
        QTest::newRow("a parameter as text") << QByteArray("{\"format\": \"fusiondiff-session\", \"version\": 1, "
            + traces + ", \"parameters\": {\"min_group_size\": \"many\"}}")
                                             << QStringLiteral("the analysis parameter min_group_size is not a number");
    }

    void aBadSessionIsRefusedNamingTheFile()
    {
        QFETCH(QByteArray, contents);
        QFETCH(QString, reason);
        MainWindow* window = compared();
        QVERIFY(window);
        const std::shared_ptr<const FusionReport> before = window->tabs()->results().report;
        QVERIFY(before);
        const QString path = m_folder.filePath(QStringLiteral("bad.fdsession"));
        QVERIFY(writeText(path, contents));

        QSignalSpy failed(window->session(), &WindowSession::failed);
        QVERIFY(!window->session()->open(path));
        QCOMPARE(failed.count(), 1);
        const QString message = failed.first().first().toString();
        QVERIFY2(message.contains(QDir::toNativeSeparators(path)), qPrintable(message));
        QVERIFY2(message.contains(reason), qPrintable(message));
        QCOMPARE(window->messageLabel()->text(), message);
        QVERIFY(window->messageLabel()->isVisibleTo(window));
        // What was on screen stays: the results, the traces, no analysis started.
        QVERIFY(!window->session()->isRestoring());
        QVERIFY(!window->controller()->isBusy());
        QCOMPARE(window->tabs()->results().report, before);
        QCOMPARE(window->controller()->side(1).path, QFileInfo(test::sampleB()).absoluteFilePath());
        QCOMPARE(window->controller()->side(1).status, AnalysisController::Status::Loaded);
    }

    void aSessionThatIsNotThereIsRefusedNamingIt()
    {
        MainWindow* window = compared();
        QVERIFY(window);
        QSignalSpy failed(window->session(), &WindowSession::failed);
        const QString path = m_folder.filePath(QStringLiteral("never-saved.fdsession"));
        window->openTrace(0, path); // as from the command line or Open Recent
        QCOMPARE(failed.count(), 1);
        QVERIFY(failed.first().first().toString().contains(QDir::toNativeSeparators(path)));
        QVERIFY(failed.first().first().toString().contains(QStringLiteral("the file does not exist")));
        QCOMPARE(window->controller()->side(0).path, QFileInfo(test::sampleA()).absoluteFilePath());
    }

    void savingOverASessionIsWholeOrNotAtAll()
    {
        MainWindow* window = compared();
        QVERIFY(window);
        window->tabs()->setCurrentWidget(window->summaryPage());
        const QString path = m_folder.filePath(QStringLiteral("kept.fdsession"));
        QVERIFY(window->session()->save(path));
        const QByteArray before = test::readFile(path);
        QCOMPARE(jsonOf(path).value(QLatin1String("tab")).toString(), QStringLiteral("summary"));

        window->tabs()->setCurrentWidget(window->kernelsTab());
        for (const AtomicWriteHook hook : { &failWhileWriting, &failAtSync, &failAtRename }) {
            setAtomicWriteHookForTesting(hook);
            QSignalSpy failed(window->session(), &WindowSession::failed);
            QVERIFY(!window->session()->save(path));
            QCOMPARE(failed.count(), 1);
            QVERIFY2(failed.first().first().toString().contains(QDir::toNativeSeparators(path)),
                qPrintable(failed.first().first().toString()));
            QCOMPARE(test::readFile(path), before);
            // No half-written file left beside it.
            QCOMPARE(QDir(m_folder.path()).entryList({ QStringLiteral("*kept*") }, QDir::Files | QDir::Hidden),
                QStringList { QStringLiteral("kept.fdsession") });
        }
        setAtomicWriteHookForTesting(nullptr);
        QVERIFY(window->session()->save(path));
        QCOMPARE(jsonOf(path).value(QLatin1String("tab")).toString(), QStringLiteral("kernels"));
    }

    void theLastSessionReopensOnlyWhenTheSettingSaysSo()
    {
        QFile::remove(WindowSession::lastSessionPath());
        QVERIFY(!WindowSession::reopensLastSession()); // off by default
        {
            std::unique_ptr<MainWindow> window = comparedSamples();
            QVERIFY(window);
            window->close();
        }
        QVERIFY(!QFileInfo::exists(WindowSession::lastSessionPath()));

        WindowSession::setReopensLastSession(true);
        {
            std::unique_ptr<MainWindow> window = comparedSamples();
            QVERIFY(window);
            window->tabs()->setCurrentWidget(window->layersPage());
            window->close();
        }
        QVERIFY(QFileInfo::exists(WindowSession::lastSessionPath()));
        std::unique_ptr<MainWindow> next = shownWindow();
        QVERIFY(next);
        QSignalSpy restored(next->session(), &WindowSession::restored);
        next->session()->openLastSession();
        QVERIFY(restored.wait(kTimeoutMs));
        QCOMPARE(next->tabs()->currentWidget(), next->layersPage());
        QFile::remove(WindowSession::lastSessionPath());
    }
};

QTEST_MAIN(TestSession)
#include "tst_session.moc"
