#pragma once

#include "pages/resultspage.h"

#include <QWidget>

#include <memory>

class QLabel;
class QSplitter;
class QStackedWidget;

namespace fusiondiff {
struct FusionReport;
}

namespace fusiondiff::ui {

class DeferredTextBrowser;
class FindingAlignmentModel;
class ReportColumnsModel;
class TablePage;
class TimelinePanel;
class WrapLabel;

// The operation findings: the table of report.opFindings above; below it the selected finding in
// words (call stack, extra runs, time spreads) beside its kernels side by side, aligned as the
// core aligned them, the rows of the extra runs marked. The first finding is selected when results
// arrive, or, if the page is hidden then, when it is first shown: a graph finding's hundreds of
// rows are not laid out while the user looks at another tab.
class OperationsPage : public QWidget, public ResultsPage
{
    Q_OBJECT
public:
    explicit OperationsPage(QWidget* parent = nullptr);

    void setResults(const AnalysisResults& results) override;
    QString csvName() const override;
    // The findings table's (its selected finding shown below it) and the drill-down's: its kernels'
    // table, its lanes' time range, the dividers the user placed.
    QJsonObject saveState() const override;
    void restoreState(const QJsonObject& state) override;

    TablePage* findingsTable() const { return m_findings; }
    TablePage* alignmentTable() const { return m_alignment; }
    FindingAlignmentModel* alignmentModel() const { return m_alignmentModel; }
    TimelinePanel* timeline() const { return m_timeline; }
    // The finding in words as plain text (the details follow their finding a turn later).
    QString detailsText();
    // Selects the finding at `row` of the report (source order) and shows it.
    void selectFinding(int row);
    // Scrolls the side-by-side view to the first row of the finding's extra run `run` and, with
    // `select`, selects the run's rows (a click on the run in the details).
    void showRun(int run, bool select = false);

signals:
    void exportCsvRequested(const QString& csvName);
    // "show them on the Layers tab" in the details of the finding at this row of report.opFindings.
    void layersRequested(int finding);

protected:
    void showEvent(QShowEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void showFinding(int row);
    // Gives the findings the height their rows need, at most three fifths of the page, and the
    // drill-down the rest, unless the user has placed the divider.
    void fitFindingsTable();

    std::shared_ptr<const FusionReport> m_report;
    ReportColumnsModel* m_findingsModel;
    FindingAlignmentModel* m_alignmentModel;
    TablePage* m_findings;
    TablePage* m_alignment;
    DeferredTextBrowser* m_details;
    WrapLabel* m_alignmentTitle;
    QLabel* m_emptyText;
    QStackedWidget* m_stack;
    TimelinePanel* m_timeline;
    int m_shownFinding = -1;
    bool m_selectFirstOnShow = false; // new results arrived while the page was hidden
    QSplitter* m_splitter = nullptr; // the findings above, the drill-down below
    bool m_fitPending = false; // new findings, not yet fitted (the page was hidden)
};

} // namespace fusiondiff::ui
