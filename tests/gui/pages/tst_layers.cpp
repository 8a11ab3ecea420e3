// The Layers tab: the time of each layer of the model on both sides (report.layerTimes) in a table
// and a chart, the header that says what the layers are, the findings of the selected layer and
// the way to them on the Operations page, and what the tab says when the traces have no layers.

#include "mainwindowtestsupport.h"

#include "analysis/analysiscontroller.h"
#include "analysis/analysisresults.h"
#include "charts/layerchart.h"
#include "model/fusionreport.h"
#include "models/layerfindingsproxy.h"
#include "models/reportcolumnsmodel.h"
#include "models/reporttablemodel.h"
#include "models/tablefilterproxy.h"
#include "pages/layerspage.h"
#include "pages/operationspage.h"
#include "pages/summarypage.h"
#include "pages/tablepage.h"
#include "shell/mainwindow.h"
#include "widgets/filterlineedit.h"

#include <QAbstractBarSeries>
#include <QAbstractItemModelTester>
#include <QBarSet>
#include <QChart>
#include <QComboBox>
#include <QCoreApplication>
#include <QFile>
#include <QHeaderView>
#include <QImage>
#include <QJsonObject>
#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QUrl>
#include <QValueAxis>

#include <memory>

using namespace fusiondiff;
using namespace fusiondiff::ui;
using test::sampleA;
using test::sampleB;

namespace {

QString owlv2(const char* gpu)
{
    return test::realTrace(QStringLiteral("owlv2-large-patch14-ensemble.%1.json.gz").arg(QLatin1String(gpu)));
}

// A window that has compared `a` and `b`, at the operation level `opLevel` if one is given.
std::unique_ptr<MainWindow> compared(const QString& a, const QString& b, const QString& opLevel = {})
{
    auto window = std::make_unique<MainWindow>();
    if (!opLevel.isEmpty())
        window->applyClassifierAndParameters({}, {}, opLevel);
    if (!test::compare(*window, a, b))
        return nullptr;
    return window;
}

QString tabText(MainWindow& window, QWidget* page)
{
    return window.tabs()->tabText(window.tabs()->indexOf(page));
}

QString findingOp(const FusionReport& report, int row)
{
    return QString::fromStdString(report.opFindings[static_cast<size_t>(row)].op);
}

} // namespace

class TestLayers : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { test::useOwnSettings(QStringLiteral("tst_layers")); }

    void cleanupTestCase() { test::removeOwnSettings(); }

    void init() { QSettings().clear(); }

    void findingsKnowTheirLayers()
    {
        OpFinding finding;
        finding.layerIndices = { 0, 1, 7, 12 };
        finding.phaseLayers = { { "phase 1", 0 }, { "phase 1", 7 }, { "phase 2", 1 }, { "phase 2", 12 } };
        const QString forward = QStringLiteral("phase 1");
        const QString backward = QStringLiteral("phase 2");
        QVERIFY(findingIsInLayer(finding, { forward, 0 }));
        QVERIFY(findingIsInLayer(finding, { forward, 7 }));
        QVERIFY(!findingIsInLayer(finding, { forward, 8 }));
        QVERIFY(findingIsInLayer(finding, { backward, 12 }));
        // The same index in the other phase is another layer.
        QVERIFY(!findingIsInLayer(finding, { backward, 0 }));
        QVERIFY(!findingIsInLayer(finding, { forward, 12 }));
        QVERIFY(!findingIsInLayer(finding, { forward, -1 }));
        QVERIFY(!findingIsInLayer(OpFinding {}, { forward, 0 })); // not aligned by layers
    }

    // The bundled pair: 24 decoder layers a step, B slower in every one of them.
    void samplePairShowsItsLayers()
    {
        auto window = compared(sampleA(), sampleB());
        QVERIFY(window);
        const FusionReport& report = *window->controller()->results().report;
        LayersPage* page = window->layersPage();
        QAbstractItemModelTester tester(
            page->findingsTable()->proxy(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(tabText(*window, page), QStringLiteral("Layers (24)"));
        QVERIFY(page->hasLayers());
        window->show();
        window->tabs()->setCurrentWidget(page);
        QVERIFY(QTest::qWaitForWindowExposed(window.get()));
        QVERIFY(page->chart()->isVisible());
        QVERIFY(!page->emptyText()->isVisible());

        QCOMPARE(page->layersTable()->proxy()->rowCount(), 24);
        // One call of each layer on each side: the calls columns, the same on every row, are hidden.
        QTableView* layers = page->layersTable()->view();
        auto* model = qobject_cast<ReportColumnsModel*>(page->layersTable()->sourceModel());
        QVERIFY(model);
        QVERIFY(layers->isColumnHidden(model->column("trace1_calls")));
        QVERIFY(!layers->isColumnHidden(model->column("delta_time_us")));
        const QString header = page->header()->text();
        QVERIFY2(header.contains(QStringLiteral("24 calls of <b>nn.Module: Qwen2DecoderLayer</b> a step on each side")),
            qPrintable(header));
        QVERIFY2(
            header.contains(QStringLiteral("24 layer calls compared on each side (1 per layer)")), qPrintable(header));
        QVERIFY2(header.contains(QStringLiteral("98% of the operations on each side")), qPrintable(header));
        QVERIFY2(header.contains(QStringLiteral("B takes longer in 24, A in 0")), qPrintable(header));

        // B − A per layer: every bar above the axis, in B's set, in microseconds.
        LayerChart* chart = page->chart();
        QCOMPARE(chart->layerCount(), 24);
        QCOMPARE(chart->mode(), LayerChart::Difference);
        QCOMPARE(chart->chart()->series().size(), 1);
        QVERIFY(chart->valueTitle().contains(QStringLiteral("(us)")));
        const QList<qreal> longerInB = chart->barValues(1);
        const QList<qreal> longerInA = chart->barValues(0);
        QCOMPARE(longerInB.size(), 24);
        for (int layer = 0; layer < 24; ++layer) {
            const LayerTimes& times = report.layerTimes[static_cast<size_t>(layer)];
            QVERIFY(times.differenceUs() > 0);
            QCOMPARE(longerInB[layer], times.differenceUs());
            QCOMPARE(longerInA[layer], 0.0);
        }
        // A beside B: each side's time.
        page->chartMode()->setCurrentIndex(page->chartMode()->findData(LayerChart::PerSide));
        QCOMPARE(chart->mode(), LayerChart::PerSide);
        QVERIFY(chart->valueTitle().contains(QStringLiteral("ms")));
        QCOMPARE(chart->barValues(0).size(), 24);
        // One bar series in the chart at a time: Qt Charts gives every bar series in a chart a share
        // of each layer's width, so that a second one (hidden) pushed the bars off their layer.
        QCOMPARE(chart->chart()->series().size(), 1);
        QCOMPARE(chart->barValues(0)[5], report.layerTimes[5].timeUs[0] / 1000);
        QCOMPARE(chart->barValues(1)[5], report.layerTimes[5].timeUs[1] / 1000);
        QVERIFY(chart->hoverText(5).contains(QStringLiteral("Layer 5")));

        // The layer that differs most is selected first, with the finding in it (the attention of
        // every layer).
        size_t largest = 0;
        for (size_t layer = 0; layer < report.layerTimes.size(); ++layer) {
            if (report.layerTimes[layer].differenceUs() > report.layerTimes[largest].differenceUs())
                largest = layer;
        }
        QCOMPARE(page->layersTable()->selectedSourceRows(), QList<int>({ static_cast<int>(largest) }));
        QCOMPARE(chart->selectedLayers(), QList<int>({ static_cast<int>(largest) }));
        QCOMPARE(page->listedFindings(), QList<int>({ 0 }));
        QCOMPARE(findingOp(report, 0), QStringLiteral("aten::scaled_dot_product_attention"));

        // A click on a layer's bar selects its row.
        emit chart->layerClicked(7);
        QCOMPARE(page->layersTable()->selectedSourceRows(), QList<int>({ 7 }));
        QCOMPARE(chart->selectedLayers(), QList<int>({ 7 }));
        QCOMPARE(page->listedFindings(), QList<int>({ 0 }));

        // The report export draws the chart after the kernel types.
        const QSize shownSize = chart->size();
        QTemporaryDir dir;
        const QString markdown = dir.filePath(QStringLiteral("report.md"));
        QCOMPARE(window->exportReport(markdown), QString());
        QVERIFY(test::readFile(markdown).contains("](report_layer_times.png)"));
        const QImage image(dir.filePath(QStringLiteral("report_layer_times.png")));
        QCOMPARE(image.size(), QSize(1000, 620));
        QVERIFY(test::opaqueColours(image) > 20);
        QCOMPARE(chart->size(), shownSize); // drawn off screen: the widget keeps its size
        QVERIFY(chart->chart()->title().isEmpty());

        // The Summary's "By layer" note links here.
        window->tabs()->setCurrentWidget(window->summaryPage());
        QVERIFY(window->summaryPage()->findingsText().contains(QStringLiteral("Each layer on the Layers tab")));
        QTextBrowser* notes = nullptr;
        for (QTextBrowser* candidate : window->summaryPage()->findChildren<QTextBrowser*>())
            notes = candidate->toHtml().contains(QStringLiteral("href=\"layers:\"")) ? candidate : notes;
        QVERIFY(notes);
        emit notes->anchorClicked(QUrl(QStringLiteral("layers:")));
        QCOMPARE(window->tabs()->currentWidget(), page);

        // The view's CSV is the report's layer_times table.
        QCOMPARE(page->csvName(), QStringLiteral("layer_times"));
        QCOMPARE(window->currentTableCsvName(), QStringLiteral("layer_times"));
    }

    // owlv2: 180 layers a step (five ensembles of 24 vision and 12 text encoder layers). B is slower
    // in the vision layers, A in the text ones, and the one finding inside layers is in the text
    // layers only: selecting a layer lists the findings in it, and activating one opens it.
    void selectingALayerListsItsFindingsAndOpensThem()
    {
        auto window = compared(owlv2("mi300x"), owlv2("h100"));
        QVERIFY(window);
        const FusionReport& report = *window->controller()->results().report;
        LayersPage* page = window->layersPage();
        QCOMPARE(tabText(*window, page), QStringLiteral("Layers (180)"));
        QVERIFY(page->header()->text().contains(QStringLiteral("B takes longer in 120, A in 60")));
        window->show();
        window->tabs()->setCurrentWidget(page);
        QVERIFY(QTest::qWaitForWindowExposed(window.get()));

        // The chart's two sets: B's bars where B is slower (vision), A's where A is (text).
        const QList<qreal> longerInA = page->chart()->barValues(0);
        const QList<qreal> longerInB = page->chart()->barValues(1);
        QCOMPARE(longerInA.size(), 180);
        // The layer axis is labelled every few layers, not 180 times over itself.
        auto* layerAxis = qobject_cast<QValueAxis*>(page->chart()->chart()->axes(Qt::Horizontal).value(0));
        QVERIFY(layerAxis);
        const qreal interval = layerAxis->tickInterval();
        QVERIFY2(interval >= 2 && 180 / interval <= page->chart()->width() / 30, qPrintable(QString::number(interval)));
        QVERIFY(QList<qreal>({ 2, 5, 10, 20, 50 }).contains(interval));
        QVERIFY(longerInB[0] > 0 && longerInA[0] == 0);
        QVERIFY(longerInA[24] < 0 && longerInB[24] == 0);

        int linear = -1; // the finding inside layers
        for (size_t row = 0; row < report.opFindings.size(); ++row) {
            if (!report.opFindings[row].layers.empty())
                linear = static_cast<int>(row);
        }
        QVERIFY(linear >= 0);
        QCOMPARE(findingOp(report, linear), QStringLiteral("aten::linear"));

        page->selectLayers({ 0 }); // a vision layer: no finding in it
        QVERIFY(page->listedFindings().isEmpty());
        page->selectLayers({ 24 }); // a text layer
        QCOMPARE(page->listedFindings(), QList<int>({ linear }));
        page->selectLayers({ 0, 30 });
        QCOMPARE(page->listedFindings(), QList<int>({ linear }));

        // Activating the finding opens it on the Operations page, even where a filter hid it.
        page->selectLayers({ 24 });
        window->tabs()->setCurrentWidget(window->operationsPage());
        TablePage* findings = window->operationsPage()->findingsTable();
        findings->filterEdit()->setText(QStringLiteral("conv2d"));
        QTRY_COMPARE(findings->proxy()->rowCount(), 1);
        window->tabs()->setCurrentWidget(page);
        QTableView* view = page->findingsTable()->view();
        const QModelIndex first = view->model()->index(0, 0);
        view->setCurrentIndex(first);
        QTest::keyClick(view, Qt::Key_Return); // activates the current row
        QCOMPARE(window->tabs()->currentWidget(), window->operationsPage());
        QCOMPARE(findings->selectedSourceRows(), QList<int>({ linear }));

        // And back: the finding's details name its layers, and their link selects them.
        const QString details = window->operationsPage()->detailsText();
        const QString layers = QString::fromStdString(report.opFindings[static_cast<size_t>(linear)].layers);
        QVERIFY2(details.contains(QStringLiteral("In layers ") + layers), qPrintable(details));
        auto* browser = window->operationsPage()->findChild<QTextBrowser*>();
        QVERIFY(browser);
        emit browser->anchorClicked(QUrl(QStringLiteral("layers:")));
        QCOMPARE(window->tabs()->currentWidget(), page);
        QList<int> text; // the text encoders' layers: 12 in each of the five ensembles
        for (int ensemble = 0; ensemble < 5; ++ensemble) {
            for (int layer = 24; layer < 36; ++layer)
                text.append(ensemble * 36 + layer);
        }
        QCOMPARE(page->layersTable()->selectedSourceRows(), text);
        QCOMPARE(page->chart()->selectedLayers(), text);
        QCOMPARE(page->listedFindings(), QList<int>({ linear }));
    }

    // Layers that real pairs rarely show: a unit named differently on each side, calls that differ
    // between layers (a layer missing from a step), B faster in one layer.
    void differentUnitsAndCalls()
    {
        auto report = std::make_shared<FusionReport>();
        report->sideNames = { "AMD", "NVIDIA" };
        report->traces[0].kernels = 200; // a side without kernels has no other notes
        report->traces[1].kernels = 180;
        LayerAlignment& layers = report->opAlignment.layers;
        layers.unit = { "nn.Module: LlamaDecoderLayer", "nn.Module: FusedLlamaLayer" };
        layers.perStep = 2;
        layers.calls = { 4, 3 };
        layers.share = { 0.91, 0.84 };
        layers.matched = 42;
        report->layerTimes = {
            LayerTimes {
                .index = 0, .calls = { 2, 2 }, .kernels = { 20, 18 }, .timeUs = { 200, 250 }, .phase = "phase 1" },
            LayerTimes {
                .index = 1, .calls = { 2, 1 }, .kernels = { 20, 9 }, .timeUs = { 100, 40 }, .phase = "phase 1" }
        };
        LayersPage page;
        AnalysisResults results;
        results.report = report;
        page.setResults(results);
        QVERIFY(page.hasLayers());
        const QString header = page.header()->text();
        QVERIFY2(header.contains(QStringLiteral("2 calls a step: <b>nn.Module: LlamaDecoderLayer</b> in A (AMD), "
                                                "<b>nn.Module: FusedLlamaLayer</b> in B (NVIDIA)")),
            qPrintable(header));
        QVERIFY2(header.contains(QStringLiteral("4 layer calls compared in A, 3 in B,")), qPrintable(header));
        QVERIFY2(header.contains(QStringLiteral("91% of A's operations and 84% of B's")), qPrintable(header));
        QVERIFY2(header.contains(QStringLiteral("B takes longer in 1, A in 1")), qPrintable(header));
        // The calls differ between layers: their columns are shown.
        auto* model = qobject_cast<ReportColumnsModel*>(page.layersTable()->sourceModel());
        QVERIFY(!page.layersTable()->view()->isColumnHidden(model->column("trace2_calls")));
        // B − A: layer 0 above the axis in B's set, layer 1 below in A's; in % of A's time too.
        QCOMPARE(page.chart()->barValues(1), QList<qreal>({ 50, 0 }));
        QCOMPARE(page.chart()->barValues(0), QList<qreal>({ 0, -60 }));
        page.setChartMode(LayerChart::Relative);
        QCOMPARE(page.chart()->barValues(1), QList<qreal>({ 25, 0 }));
        QCOMPARE(page.chart()->barValues(0), QList<qreal>({ 0, -60 }));
        QVERIFY(page.chart()->hoverText(1).contains(QStringLiteral("(-60%)")));
        // The layer that differs most is selected: layer 1 (-60 us against +50 us).
        QCOMPARE(page.layersTable()->selectedSourceRows(), QList<int>({ 1 }));
    }

    // A prefill step's layer 0 and a decode step's are different rows: the page selects, names and
    // restores a layer by its phase and index, not by the index (the table's first cell) alone.
    void layersAreSelectedByPhaseAndIndex()
    {
        const auto reportOf = [](std::vector<LayerTimes> rows) {
            auto report = std::make_shared<FusionReport>();
            report->sideNames = { "AMD", "NVIDIA" };
            report->traces[0].kernels = 200;
            report->traces[1].kernels = 180;
            report->opAlignment.layers.unit = { "nn.Module: DecoderLayer", "nn.Module: DecoderLayer" };
            report->opAlignment.layers.perStep = 2;
            report->layerTimes = std::move(rows);
            return report;
        };
        const auto row = [](uint32_t index, const char* phase, double a, double b) {
            return LayerTimes {
                .index = index, .calls = { 1, 1 }, .kernels = { 4, 4 }, .timeUs = { a, b }, .phase = phase
            };
        };
        LayersPage page;
        AnalysisResults results;
        results.report = reportOf({ row(0, "phase 1", 100, 90), row(1, "phase 1", 100, 95), row(0, "phase 2", 10, 30),
            row(1, "phase 2", 10, 12) });
        page.setResults(results);
        // The layer that differs most: phase 2's layer 0 (+20 us), named with its phase.
        QCOMPARE(page.layersTable()->selectedSourceRows(), QList<int>({ 2 }));
        QCOMPARE(page.selectedLayerKeys(), QList<LayersPage::LayerKey>({ { QStringLiteral("phase 2"), 0 } }));
        QCOMPARE(page.findingsTable()->title(), QStringLiteral("Findings in layer 0 of phase 2"));
        page.selectLayerKeys({ { QStringLiteral("phase 1"), 1 } });
        QCOMPARE(page.layersTable()->selectedSourceRows(), QList<int>({ 1 }));
        page.selectLayerKeys({ { QStringLiteral("phase 2"), 0 } });
        const QJsonObject state = page.saveState();

        // Analysed again, phase 1 has lost its layer 0: phase 2's layer 0 is now the first row of index 0.
        LayersPage again;
        AnalysisResults other;
        other.report = reportOf({ row(1, "phase 1", 100, 150), row(0, "phase 2", 10, 30), row(1, "phase 2", 10, 12) });
        again.setResults(other);
        QCOMPARE(again.layersTable()->selectedSourceRows(), QList<int>({ 0 }));
        again.restoreState(state);
        QCOMPARE(again.layersTable()->selectedSourceRows(), QList<int>({ 1 }));
        QCOMPARE(again.selectedLayerKeys(), QList<LayersPage::LayerKey>({ { QStringLiteral("phase 2"), 0 } }));
        QCOMPARE(again.chart()->selectedLayers(), QList<int>({ 1 }));

        // A session saved before the keys (the table's own state alone) still restores its rows.
        QJsonObject older = state;
        older.remove(QStringLiteral("selected_layers"));
        LayersPage same;
        same.setResults(results);
        same.selectLayers({ 0 });
        same.restoreState(older);
        QCOMPARE(same.layersTable()->selectedSourceRows(), QList<int>({ 2 }));
    }

    // A finding is listed under the layers of the phases its calls ran in: choosing layer 0 of the
    // backward phase does not list a finding of the forward phase's layer 0, and a finding's
    // layers, selected from the Operations page, are those of its own phases.
    void findingsAreListedUnderTheirPhasesLayers()
    {
        auto report = std::make_shared<FusionReport>();
        report->sideNames = { "AMD", "NVIDIA" };
        report->opAlignment.layers.unit = { "nn.Module: DecoderLayer", "nn.Module: DecoderLayer" };
        report->opAlignment.layers.perStep = 2;
        for (const char* phase : { "phase 1", "phase 2" }) {
            for (uint32_t index = 0; index < 2; ++index)
                report->layerTimes.push_back(
                    { .index = index, .calls = { 1, 1 }, .kernels = { 4, 4 }, .timeUs = { 10, 12 }, .phase = phase });
        }
        OpFinding forward;
        forward.op = "aten::add";
        forward.occurrences = 1;
        forward.layerIndices = { 0 };
        forward.phaseLayers = { { "phase 1", 0 } };
        forward.layers = "0";
        OpFinding backward = forward;
        backward.op = "aten::mul";
        backward.layerIndices = { 0, 1 };
        backward.phaseLayers = { { "phase 2", 1 }, { "phase 2", 0 } };
        std::sort(backward.phaseLayers.begin(), backward.phaseLayers.end());
        backward.layers = "0–1";
        report->opFindings = { forward, backward };
        LayersPage page;
        AnalysisResults results;
        results.report = report;
        page.setResults(results);
        const auto listed = [&page, &report] {
            QStringList ops;
            const QAbstractItemModel* model = page.findingsTable()->proxy();
            for (int row = 0; row < model->rowCount(); ++row) {
                const int source = model->index(row, 0).data(ReportTableModel::SourceRowRole).toInt();
                ops.append(QString::fromStdString(report->opFindings[static_cast<size_t>(source)].op));
            }
            return ops;
        };
        page.selectLayerKeys({ { QStringLiteral("phase 1"), 0 } });
        QCOMPARE(listed(), QStringList({ QStringLiteral("aten::add") }));
        page.selectLayerKeys({ { QStringLiteral("phase 2"), 0 } });
        QCOMPARE(listed(), QStringList({ QStringLiteral("aten::mul") }));
        page.selectLayerKeys({ { QStringLiteral("phase 1"), 1 } });
        QVERIFY(listed().isEmpty());
        page.selectLayersOf(0);
        QCOMPARE(page.layersTable()->selectedSourceRows(), QList<int>({ 0 }));
        page.selectLayersOf(1);
        QCOMPARE(page.layersTable()->selectedSourceRows(), QList<int>({ 2, 3 }));
    }

    // Without layers the tab says why, and shows no empty chart.
    void pairWithoutLayersSaysWhy_data()
    {
        QTest::addColumn<QString>("a");
        QTest::addColumn<QString>("b");
        QTest::addColumn<QString>("opLevel");
        QTest::addColumn<QString>("reason");
        QTest::newRow("operator level") << sampleA() << sampleB() << QStringLiteral("operator")
                                        << QStringLiteral("compared at the operator level");
        QTest::newRow("graphs only") << test::dataPath(QStringLiteral("synthetic/graphs.amd.json"))
                                     << test::dataPath(QStringLiteral("synthetic/graphs.nvidia.json")) << QString()
                                     << QStringLiteral("No operations were compared");
        // Each side has layers, but not as many a step: 4 BERT layers against 12 TimeSformer ones.
        QTest::newRow("no layers in common")
            << test::realTrace(QStringLiteral("bert-small-uncased.mi300x.json.gz"))
            << test::realTrace(QStringLiteral("timesformer-base-finetuned-k400.h100.json.gz")) << QString()
            << QStringLiteral("4 calls of nn.Module: BertLayer a step");
    }
    void pairWithoutLayersSaysWhy()
    {
        QFETCH(QString, a);
        QFETCH(QString, b);
        QFETCH(QString, opLevel);
        QFETCH(QString, reason);
        auto window = compared(a, b, opLevel);
        QVERIFY(window);
        LayersPage* page = window->layersPage();
        QVERIFY(!page->hasLayers());
        QCOMPARE(tabText(*window, page), QStringLiteral("Layers (none)"));
        window->resize(1440, 900); // wide enough for the tabs' whole titles
        window->show();
        window->tabs()->setCurrentWidget(page);
        QVERIFY(QTest::qWaitForWindowExposed(window.get()));
        QVERIFY(page->emptyText()->isVisible());
        QVERIFY(!page->chart()->isVisible());
        QVERIFY(!page->layersTable()->isVisible());
        const QString text = page->emptyText()->text();
        QVERIFY2(text.contains(QStringLiteral("No layer view")), qPrintable(text));
        QVERIFY2(text.contains(reason), qPrintable(text));
        QCOMPARE(page->chart()->layerCount(), 0);

        // A pair with layers afterwards brings the view back.
        if (QLatin1String(QTest::currentDataTag()) == QLatin1String("graphs only")) {
            QVERIFY(test::compare(*window, sampleA(), sampleB()));
            QVERIFY(page->chart()->isVisible());
            QCOMPARE(page->chart()->layerCount(), 24);
            QCOMPARE(tabText(*window, page), QStringLiteral("Layers (24)"));
        }
    }

    // The chart's mode is kept with the other charts' settings.
    void chartModePersists()
    {
        {
            MainWindow window;
            QCOMPARE(window.layersPage()->chart()->mode(), LayerChart::Difference); // the default
            QComboBox* mode = window.layersPage()->chartMode();
            mode->setCurrentIndex(mode->findData(LayerChart::Relative));
            QCOMPARE(window.layersPage()->chart()->mode(), LayerChart::Relative);
            window.close(); // saves the settings
        }
        MainWindow window;
        QCOMPARE(window.layersPage()->chart()->mode(), LayerChart::Relative);
    }

    // Qt Charts lays a chart out whether or not it is seen: results that arrive while another tab is
    // shown build the layers' bars when the tab is first shown.
    void chartIsBuiltWhenShown()
    {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(test::compare(window, sampleA(), sampleB()));
        QVERIFY(window.tabs()->currentWidget() != window.layersPage());
        const auto bars = [&window] {
            const QList<QAbstractSeries*> series = window.layersPage()->chart()->chart()->series();
            return series.isEmpty() ? -1 : static_cast<QAbstractBarSeries*>(series.first())->barSets().first()->count();
        };
        QCOMPARE(bars(), 0);
        window.tabs()->setCurrentWidget(window.layersPage());
        QCOMPARE(bars(), 24);
        QCOMPARE(window.layersPage()->chart()->selectedLayers(), QList<int>({ 0 })); // kept meanwhile
    }

    // At 1024x700 the page fits without scrolling: the chart and several rows of the layers and of
    // the findings are on screen.
    void layersPageFitsA1024x700Window()
    {
        MainWindow window;
        window.resize(1024, 700);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(test::compare(window, owlv2("mi300x"), owlv2("h100")));
        LayersPage* page = window.layersPage();
        window.tabs()->setCurrentWidget(page);
        QTest::qWait(50);
        auto* scroll = qobject_cast<QScrollArea*>(window.centralWidget());
        QVERIFY(scroll);
        QVERIFY(!scroll->horizontalScrollBar()->isVisible());
        QVERIFY(!scroll->verticalScrollBar()->isVisible());
        QVERIFY2(page->minimumSizeHint().width() <= page->width(), qPrintable(QString::number(page->width())));
        QVERIFY2(page->chart()->height() >= 160, qPrintable(QString::number(page->chart()->height())));
        for (TablePage* table : { page->layersTable(), page->findingsTable() }) {
            QTableView* view = table->view();
            const int rows = view->viewport()->height() / view->verticalHeader()->defaultSectionSize();
            QVERIFY2(rows >= 4, qPrintable(QStringLiteral("%1: %2 rows").arg(table->csvName()).arg(rows)));
            QVERIFY(!view->horizontalScrollBar()->isVisible() || table == page->findingsTable());
        }
    }
};

QTEST_MAIN(TestLayers)
#include "tst_layers.moc"
