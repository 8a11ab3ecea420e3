#pragma once

#include "pages/resultspage.h"

#include <QWidget>

#include <memory>

class QLabel;
class QStackedWidget;

namespace fusiondiff {
struct FusionReport;
}

namespace fusiondiff::ui {

class AdaptiveSplitter;
class ReportColumnsModel;
class TableChartPage;
class TablePage;

// Every operation compared (report.opSummary) above; below it the kernels each side runs in
// addition, by type (report.extraKernels, with a chart A beside B), and communication compared by
// collective (report.collectives).
class OperationSummaryPage : public QWidget, public ResultsPage
{
    Q_OBJECT
public:
    explicit OperationSummaryPage(QWidget* parent = nullptr);

    void setResults(const AnalysisResults& results) override;
    QString csvName() const override;
    // Its three tables'.
    QJsonObject saveState() const override;
    void restoreState(const QJsonObject& state) override;

    TablePage* summaryTable() const { return m_summary; }
    TableChartPage* extraKernelsPage() const { return m_extraKernels; }
    TablePage* collectivesTable() const { return m_collectives; }
    // False while the page says that neither trace has communication kernels.
    bool collectivesShown() const;

signals:
    void exportCsvRequested(const QString& csvName);

private:
    void updateNoteWidth();

    ReportColumnsModel* m_summaryModel;
    ReportColumnsModel* m_collectivesModel;
    TablePage* m_summary;
    TableChartPage* m_extraKernels;
    TablePage* m_collectives;
    QLabel* m_noCollectives;
    QStackedWidget* m_collectivesStack;
    AdaptiveSplitter* m_bottom = nullptr;
};

} // namespace fusiondiff::ui
