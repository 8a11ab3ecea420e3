#include "pages/tablechartpage.h"

#include "analysis/analysisresults.h"
#include "charts/barchart.h"
#include "display/sidenames.h"
#include "model/fusionreport.h"
#include "models/reporttablemodel.h"
#include "pages/tablepage.h"
#include "widgets/adaptivesplitter.h"

#include <QChart>
#include <QGraphicsLayout>
#include <QHeaderView>
#include <QSplitter>
#include <QStyle>
#include <QTableView>
#include <QVBoxLayout>

#include <cmath>

namespace fusiondiff::ui {

TableChartPage::TableChartPage(
    ReportTableModel* model, ChartSource chartSource, bool offerLogScale, Qt::Orientation orientation, QWidget* parent)
    : QWidget(parent)
    , m_model(model)
    , m_table(new TablePage(model, this))
    , m_chartPanel(new ChartPanel(model->csvName(), offerLogScale, this))
    , m_chartSource(std::move(chartSource))
{
    model->setParent(this);
    // Side by side pages stack their table and chart in a narrow window.
    QSplitter* splitter = nullptr;
    if (orientation == Qt::Horizontal) {
        auto* adaptive = new AdaptiveSplitter(kSideBySideWidth, this);
        // Beside the chart the table shows all its columns (in a larger font they are wider than
        // a fixed share of the window): the chart gives way, or goes below the table.
        connect(m_table, &TablePage::columnsAdjusted, adaptive, [this, adaptive] {
            adaptive->setWantedWidth(1, chartWidthForItsTitle());
            adaptive->setWantedWidth(0, tableWidthForAllColumns());
        });
        splitter = adaptive;
    } else {
        splitter = new QSplitter(orientation, this);
    }
    splitter->setObjectName(model->csvName() + QStringLiteral("_splitter"));
    splitter->addWidget(m_table);
    splitter->addWidget(m_chartPanel);
    splitter->setChildrenCollapsible(false);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter);

    connect(m_table, &TablePage::exportCsvRequested, this, &TableChartPage::exportCsvRequested);
    connect(m_table, &TablePage::selectedSourceRowsChanged, m_chartPanel->chart(), &BarChart::setSelectedCategories);
    connect(m_chartPanel->chart(), &BarChart::categoryClicked, this, [this](int category) {
        m_table->selectSourceRows({ category });
        m_chartPanel->chart()->setSelectedCategories({ category });
    });
    connect(m_chartPanel, &ChartPanel::metricChanged, this, &TableChartPage::updateChart);
}

int TableChartPage::tableWidthForAllColumns() const
{
    const QTableView* view = m_table->view();
    const QHeaderView* rows = view->verticalHeader();
    // The columns, the row header, the frame, a vertical scroll bar and the page's margins.
    return view->horizontalHeader()->length() + (rows->isVisible() ? rows->width() : 0) + 2 * view->frameWidth()
        + view->style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, view) + m_table->width() - view->width();
}

int TableChartPage::chartWidthForItsTitle() const
{
    // Giving way to the table, the chart keeps its title whole (Qt Charts elides it to its width).
    const BarChart* view = m_chartPanel->chart();
    const QChart* chart = view->chart();
    qreal left = 0;
    qreal right = 0;
    chart->layout()->getContentsMargins(&left, nullptr, &right, nullptr);
    const int title = QFontMetrics(chart->titleFont()).horizontalAdvance(chart->title());
    return title + chart->margins().left() + chart->margins().right() + static_cast<int>(std::ceil(left + right))
        + 2 * view->frameWidth() + m_chartPanel->width() - view->width() + 8;
}

QString TableChartPage::csvName() const
{
    return m_table->csvName();
}

QJsonObject TableChartPage::saveState() const
{
    return { { QStringLiteral("table"), m_table->saveState() } };
}

void TableChartPage::restoreState(const QJsonObject& state)
{
    m_table->restoreState(state.value(QStringLiteral("table")).toObject());
}

void TableChartPage::setResults(const AnalysisResults& results)
{
    m_report = results.report;
    m_model->setReport(m_report);
    updateChart();
}

void TableChartPage::updateChart()
{
    BarChart* chart = m_chartPanel->chart();
    if (!m_report) {
        chart->setData({}, {}, {}, {}, {}, {});
        return;
    }
    const ChartData chartData = m_chartSource(*m_report, m_chartPanel->metric());
    chart->setData(chartData.categories, tr("A: %1").arg(sideAlias(*m_report, 0)), chartData.values[0],
        tr("B: %1").arg(sideAlias(*m_report, 1)), chartData.values[1], chartData.valueTitle);
    chart->setSelectedCategories(m_table->selectedSourceRows());
    m_chartPanel->setEmptyText(chartData.categories.isEmpty() ? m_emptyChartText : QString());
}

} // namespace fusiondiff::ui
