#include "pages/tablechartpage.h"

#include "analysis/analysisresults.h"
#include "charts/barchart.h"
#include "display/sidenames.h"
#include "model/fusionreport.h"
#include "models/reporttablemodel.h"
#include "pages/tablepage.h"
#include "widgets/adaptivesplitter.h"

#include <QSplitter>
#include <QVBoxLayout>

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
    auto* splitter = orientation == Qt::Horizontal ? new AdaptiveSplitter(kSideBySideWidth, this)
                                                   : new QSplitter(orientation, this);
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
