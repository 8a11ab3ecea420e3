#pragma once

#include "efficiency/efficiencymodel.h"
#include "pages/resultspage.h"

#include <QTimer>
#include <QWidget>

#include <memory>

class QComboBox;
class QLabel;
class QToolButton;

namespace fusiondiff {
struct FusionReport;
}

namespace fusiondiff::ui {

class ColumnChooser;
class RooflineChart;
class TablePage;
class WrapLabel;

// Each operator, shape and data type against each GPU's peaks (report.efficiency): which peaks
// and which GPU each side was taken to be above; the roofline of the rows the table shows beside
// the table itself, filtered by text and by the roof that binds. Selecting a row draws its points
// larger, clicking a point selects its row, and activating a row (double click, Enter) opens its
// operation: its finding on the Operations page, else its row of the Operation summary.
class EfficiencyPage : public QWidget, public ResultsPage
{
    Q_OBJECT
public:
    explicit EfficiencyPage(QWidget* parent = nullptr);

    void setResults(const AnalysisResults& results) override;
    QString csvName() const override;
    // The table's, and the bound filter's choice.
    QJsonObject saveState() const override;
    void restoreState(const QJsonObject& state) override;

    EfficiencyModel* model() const { return m_model; }
    TablePage* table() const { return m_table; }
    RooflineChart* chart() const { return m_chart; }
    QComboBox* boundFilter() const { return m_bound; }
    ColumnChooser* columns() const { return m_columns; }
    void setBoundFilter(BoundFilter filter);
    // The peaks and each side's GPU, as the page says them above the chart and the table.
    QString peaksText() const;
    // Opens row `row` (of report.efficiency.rows) as activating it does.
    void openRow(int row);

signals:
    void exportCsvRequested(const QString& csvName);
    void findingRequested(int row);
    void operationRequested(int row);

private:
    void applyBoundFilter();
    void updatePeaksText();
    void updateChart();
    void updateChartNote();

    EfficiencyModel* m_model;
    TablePage* m_table;
    RooflineChart* m_chart;
    QComboBox* m_bound;
    WrapLabel* m_peaks;
    QLabel* m_chartNote;
    QLabel* m_openNote;
    QToolButton* m_columnsButton;
    ColumnChooser* m_columns = nullptr;
    QTimer m_chartUpdate;
    std::shared_ptr<const FusionReport> m_report;
};

} // namespace fusiondiff::ui
