// The Efficiency view on a real pair with shapes (bert-small-uncased, MI300X against H100): its
// cells and points are the report's efficiency table, its filters, the selection between rows and
// points, a row opening its operation, and the GPU peaks file's setting.

#include "mainwindowtestsupport.h"

#include "analysis/analysiscontroller.h"
#include "analysis/analysissettingswidget.h"
#include "analysis/peaksfilesetting.h"
#include "efficiency/efficiencymodel.h"
#include "efficiency/efficiencypage.h"
#include "efficiency/rooflinechart.h"
#include "model/fusionreport.h"
#include "models/reporttablemodel.h"
#include "models/tablefilterproxy.h"
#include "ops/efficiency/gpupeaks.h"
#include "pages/operationspage.h"
#include "pages/operationsummarypage.h"
#include "pages/tablepage.h"
#include "report/reporttables.h"
#include "shell/resultstabs.h"
#include "widgets/filterlineedit.h"

#include <QChart>
#include <QComboBox>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <variant>

using namespace fusiondiff;
using namespace fusiondiff::ui;

namespace {

QString bertA()
{
    return test::realTrace(QStringLiteral("bert-small-uncased.mi300x.json.gz"));
}

QString bertB()
{
    return test::realTrace(QStringLiteral("bert-small-uncased.h100.json.gz"));
}

// The built-in peaks as a user's file: `definition`, and without the rows whose gpu `drop` names.
QByteArray peaksFile(const QString& definition, const QString& drop = {})
{
    QJsonObject peaks = QJsonDocument::fromJson(QByteArray::fromStdString(std::string(builtinGpuPeaksText()))).object();
    peaks.insert(QStringLiteral("definition"), definition);
    QJsonArray kept;
    for (const QJsonValue gpu : peaks.value(QStringLiteral("gpus")).toArray()) {
        if (drop.isEmpty() || gpu.toObject().value(QStringLiteral("gpu")).toString() != drop)
            kept.append(gpu);
    }
    peaks.insert(QStringLiteral("gpus"), kept);
    return QJsonDocument(peaks).toJson();
}

bool writeFile(const QString& path, const QByteArray& bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

// The source rows the table shows, in its order.
QList<int> shownRows(const TablePage* table)
{
    QList<int> rows;
    for (int row = 0; row < table->proxy()->rowCount(); ++row)
        rows.append(table->proxy()->mapToSource(table->proxy()->index(row, 0)).row());
    return rows;
}

} // namespace

class TestEfficiencyView : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        test::useOwnSettings(QStringLiteral("tst_efficiencyview"));
        m_window = std::make_unique<MainWindow>();
        m_window->resize(1440, 900);
        m_window->show();
        QVERIFY(test::compare(*m_window, bertA(), bertB()));
        m_page = m_window->tabs()->efficiencyPage();
        m_window->tabs()->setCurrentWidget(m_page);
        QTRY_VERIFY(m_page->isVisible());
        m_report = m_window->controller()->results().report;
        QVERIFY(m_report);
        // The pair has GEMM and attention rows with FLOPs, memory rows and unsupported operators.
        QVERIFY(m_report->efficiency.rows.size() >= 10);
    }

    void cleanupTestCase()
    {
        m_window.reset();
        test::removeOwnSettings();
    }

    void init()
    {
        m_page->table()->filterEdit()->clear();
        m_page->table()->filterEdit()->applyNow();
        m_page->setBoundFilter(BoundFilter::All);
        QCoreApplication::processEvents();
    }

    void cellsAreTheReportsTable()
    {
        const ReportTable table = reportTable(ReportTableId::Efficiency, *m_report);
        const EfficiencyModel* model = m_page->model();
        QCOMPARE(model->rowCount(), static_cast<int>(table.rows));
        int compared = 0;
        for (const TableColumn& column : table.columns) {
            const int shown = model->column(column.key.c_str());
            QVERIFY2(shown >= 0, column.key.c_str());
            for (size_t row = 0; row < table.rows; ++row) {
                const QModelIndex index = model->index(static_cast<int>(row), shown);
                const CellValue cell = column.value(row);
                if (std::holds_alternative<double>(cell)) {
                    // Sorted by the column's sort key where it has one (the time at stake by its size).
                    const CellValue key = column.sortKey ? column.sortKey(row) : cell;
                    QCOMPARE(model->data(index, ReportTableModel::SortRole).toDouble(), std::get<double>(key));
                    ++compared;
                } else if (const uint64_t* count = std::get_if<uint64_t>(&cell)) {
                    QCOMPARE(model->data(index, ReportTableModel::SortRole).toULongLong(), *count);
                } else if (const std::string* text = std::get_if<std::string>(&cell)) {
                    QCOMPARE(model->data(index).toString(), QString::fromStdString(*text));
                } else {
                    // A blank cell says why: "—" and the reason in its tooltip.
                    if (column.key == "work_note" || column.key.ends_with("_note") || column.key == "bound"
                        || column.key == "shape" || column.key == "dtype" || column.key == "family")
                        continue;
                    QVERIFY2(model->data(index).toString() == QStringLiteral("—"),
                        (column.key + " row " + std::to_string(row)).c_str());
                    QVERIFY2(model->data(index, Qt::ToolTipRole).toString().startsWith(QStringLiteral("Blank: ")),
                        qPrintable(model->data(index, Qt::ToolTipRole).toString()));
                }
            }
        }
        QVERIFY(compared > 100);

        // Every row with FLOPs is a point per side that ran it: intensity and achieved TFLOPS.
        const RooflineChart* chart = m_page->chart();
        int points = 0;
        for (size_t row = 0; row < m_report->efficiency.rows.size(); ++row) {
            const EfficiencyRow& expected = m_report->efficiency.rows[row];
            for (int side = 0; side < 2; ++side) {
                const QPointF point = chart->pointOf(static_cast<int>(row), side);
                const double tflops = expected.sides[static_cast<size_t>(side)].tflops;
                if (expected.flops > 0 && expected.bytes > 0 && tflops > 0) {
                    QCOMPARE(point.x(), expected.flops / expected.bytes);
                    QCOMPARE(point.y(), tflops);
                    ++points;
                } else {
                    QVERIFY(point.isNull());
                }
            }
        }
        QVERIFY(points >= 8);
        // The roofs are the peaks of the report's rows of the data type drawn.
        const QString dtype = chart->roofDataType();
        QCOMPARE(dtype, QStringLiteral("bf16"));
        for (const EfficiencyRow& row : m_report->efficiency.rows) {
            if (row.dtype != "bf16")
                continue;
            for (int side = 0; side < 2; ++side) {
                if (row.sides[static_cast<size_t>(side)].peakTflops > 0) {
                    QCOMPARE(chart->roofOf(side).y(), row.sides[static_cast<size_t>(side)].peakTflops);
                    QCOMPARE(chart->roofOf(side).x(), row.sides[static_cast<size_t>(side)].peakTbps);
                }
            }
        }
        QVERIFY(m_page->peaksText().contains(QStringLiteral("MI300X")));
        QVERIFY(m_page->peaksText().contains(QStringLiteral("H100 SXM")));
        QVERIFY(m_page->peaksText().contains(QStringLiteral("datasheet")));
    }

    void filtersByTextAndBound()
    {
        m_page->table()->filterEdit()->setText(QStringLiteral("aten::addmm"));
        m_page->table()->filterEdit()->applyNow();
        QTRY_VERIFY(m_page->table()->proxy()->rowCount() > 0);
        int addmm = 0;
        for (const EfficiencyRow& row : m_report->efficiency.rows)
            addmm += row.op == "aten::addmm" ? 1 : 0;
        QCOMPARE(m_page->table()->proxy()->rowCount(), addmm);
        QTRY_COMPARE(m_page->chart()->plottedRows().size(), addmm);
        for (const int row : m_page->chart()->plottedRows())
            QCOMPARE(m_report->efficiency.rows[static_cast<size_t>(row)].op, std::string("aten::addmm"));

        m_page->table()->filterEdit()->clear();
        m_page->table()->filterEdit()->applyNow();
        m_page->setBoundFilter(BoundFilter::Memory);
        QList<int> memory;
        for (size_t row = 0; row < m_report->efficiency.rows.size(); ++row) {
            const auto& sides = m_report->efficiency.rows[row].sides;
            if (sides[0].bound == "memory" || sides[1].bound == "memory")
                memory.append(static_cast<int>(row));
        }
        QVERIFY(!memory.isEmpty());
        QVERIFY(memory.size() < static_cast<int>(m_report->efficiency.rows.size()));
        QList<int> shown = shownRows(m_page->table());
        std::sort(shown.begin(), shown.end());
        QCOMPARE(shown, memory);
        m_page->setBoundFilter(BoundFilter::Unknown);
        for (const int row : shownRows(m_page->table()))
            QVERIFY(m_report->efficiency.rows[static_cast<size_t>(row)].sides[0].bound.empty());
    }

    void rowsAndPointsSelectEachOther()
    {
        const RooflineChart* chart = m_page->chart();
        QVERIFY(chart->plottedRows().size() >= 2);
        const int row = chart->plottedRows().at(1);
        m_page->table()->selectSourceRows({ row });
        // The selected row's points are drawn again, larger, over the others.
        QList<QScatterSeries*> selected;
        for (QAbstractSeries* series : chart->chart()->series()) {
            auto* scatter = qobject_cast<QScatterSeries*>(series);
            if (scatter && scatter != chart->pointsOf(0) && scatter != chart->pointsOf(1))
                selected.append(scatter);
        }
        QCOMPARE(selected.size(), 2);
        QCOMPARE(selected[0]->points(), QList<QPointF> { chart->pointOf(row, 0) });
        QCOMPARE(selected[1]->points(), QList<QPointF> { chart->pointOf(row, 1) });

        // A click on another row's point selects that row.
        const int other = chart->plottedRows().at(0);
        QScatterSeries* series = chart->pointsOf(1);
        const QPointF onScene = chart->chart()->mapToPosition(chart->pointOf(other, 1), series);
        const QPoint onView = chart->mapFromScene(onScene);
        QTest::mouseClick(chart->viewport(), Qt::LeftButton, {}, onView);
        QTRY_COMPARE(m_page->table()->selectedSourceRows(), QList<int> { other });
    }

    void enterOpensTheRowsOperation()
    {
        // Each row with a compared operation opens it: its finding, or its row of the summary.
        int opened = 0;
        for (size_t row = 0; row < m_report->efficiency.rows.size(); ++row) {
            const DrillTarget target = drillTargetOf(*m_report, row);
            if (target.kind == DrillTarget::None)
                continue;
            m_window->tabs()->setCurrentWidget(m_page);
            m_page->table()->selectSourceRows({ static_cast<int>(row) });
            QTableView* view = m_page->table()->view();
            view->setFocus();
            QTest::keyClick(view, Qt::Key_Return);
            if (target.kind == DrillTarget::Finding) {
                QCOMPARE(m_window->tabs()->currentWidget(), m_window->tabs()->operationsPage());
                QCOMPARE(m_window->tabs()->operationsPage()->findingsTable()->selectedSourceRows(),
                    QList<int> { target.row });
            } else {
                QCOMPARE(m_window->tabs()->currentWidget(), m_window->tabs()->operationSummaryPage());
                QCOMPARE(m_window->tabs()->operationSummaryPage()->summaryTable()->selectedSourceRows(),
                    QList<int> { target.row });
                QVERIFY(operationCoversForTest(
                    m_report->opSummary[static_cast<size_t>(target.row)].op, m_report->efficiency.rows[row].op));
            }
            ++opened;
        }
        QVERIFY(opened >= 3);
        m_window->tabs()->setCurrentWidget(m_page);
    }

    void badPeaksFileIsNamedAndTheOldPeaksKept()
    {
        QTemporaryDir dir;
        PeaksFileSetting* setting = m_window->settingsWidget()->peaksSetting();
        const QString bad = dir.filePath(QStringLiteral("peaks.json"));
        QVERIFY(writeFile(bad, "{\"definition\": \"measured\", \"gpus\": ["));
        QVERIFY(!setting->setPeaksFile(bad));
        QVERIFY2(setting->error().contains(bad), qPrintable(setting->error()));
        QVERIFY(setting->error().contains(QStringLiteral("previous peaks are kept")));
        QCOMPARE(setting->peaksFile(), QString());
        QCOMPARE(m_window->settingsWidget()->options().peaksFile, std::string());
        const QString missing = dir.filePath(QStringLiteral("missing.json"));
        QVERIFY(!setting->setPeaksFile(missing));
        QVERIFY(setting->error().contains(missing));

        // A good file without the MI300X: the analysis runs again, A's GPU is unknown and said so.
        const QString subset = dir.filePath(QStringLiteral("subset.json"));
        QVERIFY(writeFile(subset, peaksFile(QStringLiteral("max achievable"), QStringLiteral("MI300X"))));
        QSignalSpy shown(m_window.get(), &MainWindow::resultsShown);
        QVERIFY(setting->setPeaksFile(subset));
        QVERIFY(setting->error().isEmpty());
        QVERIFY(shown.wait(test::kResultsTimeoutMs));
        const auto report = m_window->controller()->results().report;
        QCOMPARE(report->efficiency.peaksOrigin, subset.toStdString());
        QVERIFY(m_page->peaksText().contains(QStringLiteral("max achievable")));
        QVERIFY(m_page->peaksText().contains(subset));
        QVERIFY2(m_page->peaksText().contains(QStringLiteral("A (AMD): GPU unknown")), qPrintable(m_page->peaksText()));
        QVERIFY(m_page->chart()->roofOf(0).isNull());
        QVERIFY(!m_page->chart()->roofOf(1).isNull());
        const EfficiencyModel* model = m_page->model();
        const QModelIndex peak = model->index(0, model->column("trace1_peak_tflops"));
        QCOMPARE(model->data(peak).toString(), QStringLiteral("—"));
        QVERIFY2(model->data(peak, Qt::ToolTipRole).toString().contains(QStringLiteral("unknown GPU")),
            qPrintable(model->data(peak, Qt::ToolTipRole).toString()));

        // Kept between runs; a file that has gone bad since keeps the built-in peaks, and says why.
        m_window->close();
        QCOMPARE(QSettings().value(QStringLiteral("analysis/peaksFile")).toString(), subset);
        QVERIFY(writeFile(subset, "not json"));
        MainWindow again;
        QCOMPARE(again.settingsWidget()->peaksSetting()->peaksFile(), QString());
        QVERIFY(again.settingsWidget()->peaksSetting()->error().contains(subset));
        QCOMPARE(again.settingsWidget()->options().peaksFile, std::string());
        m_window->settingsWidget()->peaksSetting()->useBuiltInPeaks();
        m_window->show();
    }

private:
    static bool operationCoversForTest(const std::string& operation, const std::string& op)
    {
        return operation == op || (operation == "aten::linear" && (op == "aten::addmm" || op == "aten::mm"))
            || (operation == "aten::scaled_dot_product_attention" && op.starts_with("aten::_scaled_dot_product_"));
    }

    std::unique_ptr<MainWindow> m_window;
    EfficiencyPage* m_page = nullptr;
    std::shared_ptr<const FusionReport> m_report;
};

QTEST_MAIN(TestEfficiencyView)
#include "tst_efficiencyview.moc"
