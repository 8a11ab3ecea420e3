#pragma once

#include "pages/resultspage.h"

#include <QWidget>

class QLabel;
class QSplitter;
class QStackedWidget;

namespace fusiondiff::ui {

class ReportColumnsModel;
class TablePage;

// The Kernels tab: on top the kernels the core lined up across the traces (which kernel of A does
// the work of which kernel of B, report.matchedKernels), below every distinct kernel of each trace
// (report.kernels).
class KernelsPage : public QWidget, public ResultsPage
{
    Q_OBJECT
public:
    explicit KernelsPage(QWidget* parent = nullptr);

    void setResults(const AnalysisResults& results) override;
    QString csvName() const override;
    // The matched kernels' table's and every kernel's.
    QJsonObject saveState() const override;
    void restoreState(const QJsonObject& state) override;

    TablePage* matchedTable() const { return m_matched; }
    TablePage* allKernelsTable() const { return m_all; }
    // False while the page says that the comparison lined up no kernels.
    bool matchedShown() const;

signals:
    void exportCsvRequested(const QString& csvName);

private:
    ReportColumnsModel* m_matchedModel;
    TablePage* m_matched;
    TablePage* m_all;
    QLabel* m_noMatches;
    QStackedWidget* m_matchedStack;
};

} // namespace fusiondiff::ui
