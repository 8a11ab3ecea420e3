#pragma once

#include "pages/resultspage.h"

#include <QWidget>

#include <memory>

namespace fusiondiff {
struct FusionReport;
}

namespace fusiondiff::ui {

class StepChart;
class TablePage;
class WrapLabel;

// The step time (report.stepTime): every step of A and B side by side (StepChart), with the
// `step_times` table below and the `host_time` table beside it (both through ReportColumnsModel,
// in a splitter). Where the report has no steps, or the trace says too little, its notes say why.
class StepsPage : public QWidget, public ResultsPage
{
    Q_OBJECT
public:
    explicit StepsPage(QWidget* parent = nullptr);

    void setResults(const AnalysisResults& results) override;
    QString csvName() const override;
    // The step_times and host_time tables'.
    QJsonObject saveState() const override;
    void restoreState(const QJsonObject& state) override;
    StepChart* chart() const { return m_chart; }
    TablePage* stepTimes() const { return m_stepTimes; }
    TablePage* hostTime() const { return m_hostTime; }
    QString notesText() const;

signals:
    void exportCsvRequested(const QString& csvName);

private:
    WrapLabel* m_notes;
    StepChart* m_chart;
    TablePage* m_stepTimes;
    TablePage* m_hostTime;
};

} // namespace fusiondiff::ui
