#pragma once

#include "charts/chartpanel.h"
#include "pages/resultspage.h"

#include <QList>
#include <QStringList>
#include <QWidget>

#include <functional>
#include <memory>

namespace fusiondiff {
struct FusionReport;
}

namespace fusiondiff::ui {

class ReportTableModel;
class TablePage;

// What a chart shows for a report: one category per row of the table's model, in source order.
struct ChartData
{
    QStringList categories;
    QList<qreal> values[2];
    QString valueTitle;
};

// A report table above (or beside) a chart of the same rows. Selecting rows highlights their bars;
// clicking a bar selects its row.
class TableChartPage : public QWidget, public ResultsPage
{
    Q_OBJECT
public:
    using ChartSource = std::function<ChartData(const FusionReport& report, ChartPanel::Metric metric)>;

    TableChartPage(ReportTableModel* model, ChartSource chartSource, bool offerLogScale, Qt::Orientation orientation,
        QWidget* parent = nullptr);

    void setResults(const AnalysisResults& results) override;
    QString csvName() const override;
    // The table's (its selection highlights the chart's bars).
    QJsonObject saveState() const override;
    void restoreState(const QJsonObject& state) override;
    TablePage* table() const { return m_table; }
    ChartPanel* chartPanel() const { return m_chartPanel; }
    void setEmptyChartText(const QString& text) { m_emptyChartText = text; }

signals:
    void exportCsvRequested(const QString& csvName);

private:
    void updateChart();

    ReportTableModel* m_model;
    TablePage* m_table;
    ChartPanel* m_chartPanel;
    ChartSource m_chartSource;
    std::shared_ptr<const FusionReport> m_report;
    QString m_emptyChartText;
};

} // namespace fusiondiff::ui
