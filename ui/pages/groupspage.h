#pragma once

#include "analysis/analysisresults.h"
#include "pages/resultspage.h"

#include <QFutureWatcher>
#include <QJsonObject>
#include <QWidget>

#include "ops/comparison/groupdiff.h"

class QLabel;
class QStackedWidget;
class QTabWidget;

namespace fusiondiff::ui {

class ChartPanel;
class GroupDiffModel;
class ReportColumnsModel;
class TablePage;
class TimelinePanel;
class UnmatchedGroupsModel;

// The correlation groups: matched pairs and unmatched groups above; for the selected pair (or
// group) a composition chart and the two kernel sequences side by side, differences highlighted.
class GroupsPage : public QWidget, public ResultsPage
{
    Q_OBJECT
public:
    explicit GroupsPage(QWidget* parent = nullptr);
    ~GroupsPage() override;

    void setResults(const AnalysisResults& results) override;
    QString csvName() const override;
    // The matched pairs' and unmatched groups' tables' (the selected one drilled into), which of
    // the two is shown, and the drill-down's: its kernels' table, the composition's measure, its
    // lanes' time range, the dividers the user placed.
    QJsonObject saveState() const override;
    void restoreState(const QJsonObject& state) override;

    TablePage* pairsTable() const { return m_pairs; }
    TablePage* unmatchedTable() const { return m_unmatched; }
    // The graph comparison's tables, as the CSV's graph_kinds and graph_pairs (a row per pair and phase).
    TablePage* graphKindsTable() const { return m_graphKinds; }
    TablePage* graphPairsTable() const { return m_graphPairs; }
    QTabWidget* listTabs() const { return m_groupTables; }
    TablePage* sequenceTable() const { return m_sequence; }
    ChartPanel* compositionPanel() const { return m_composition; }
    TimelinePanel* timeline() const { return m_timeline; }
    GroupDiffModel* diffModel() const { return m_diffModel; }
    QString detailText() const; // the drill-down's title: the groups, the rows, which kernels are aligned
    // Selects the matched pair at `row` of the pairs model (source order) and drills into it.
    void selectPair(int row);

signals:
    void exportCsvRequested(const QString& csvName);
    // A drill-down finished and the sequence table shows it.
    void drillDownReady();

private:
    void showPair(int row);
    void showUnmatched(int row);
    void drillInto(const std::array<int, 2>& groupIndices);
    void updateComposition();
    // A click on a bar of the composition chart: selects the kernels of its type in the drill-down.
    void selectKernelsOfType(int category);
    void diffReady();
    // The drill-down's saved state, once the kernels it is about are shown.
    void applyPendingDrillDown();

    AnalysisResults m_results;
    ReportColumnsModel* m_pairsModel;
    UnmatchedGroupsModel* m_unmatchedModel;
    GroupDiffModel* m_diffModel;
    TablePage* m_pairs;
    TablePage* m_unmatched;
    ReportColumnsModel* m_graphKindsModel;
    ReportColumnsModel* m_graphPairsModel;
    TablePage* m_graphKinds;
    TablePage* m_graphPairs;
    TablePage* m_sequence;
    ChartPanel* m_composition;
    QLabel* m_detailTitle;
    QLabel* m_emptyText;
    QStackedWidget* m_stack;
    TimelinePanel* m_timeline;
    QTabWidget* m_groupTables = nullptr;
    std::array<int, 2> m_groupIndices { -1, -1 }; // into report.largeGroups[side], -1: none
    QString m_coverageNote; // the pair is a covering graph launch and one it covers: which part is drilled into
    QFutureWatcher<GroupDiff> m_watcher;
    uint64_t m_drillGeneration = 0;
    uint64_t m_watchedGeneration = 0;
    bool m_drillDownShown = false; // the sequence table shows the groups in m_groupIndices
    QJsonObject m_pendingDrillDown; // restored, waiting for its drill-down
};

} // namespace fusiondiff::ui
