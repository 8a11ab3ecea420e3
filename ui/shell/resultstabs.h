#pragma once

#include "analysis/analysisresults.h"
#include "widgets/fittedtabwidget.h"

#include <functional>
#include <vector>

namespace fusiondiff {
struct FusionReport;
}

namespace fusiondiff::ui {

class EfficiencyPage;
class GlobalSearch;
class GroupsPage;
class KernelsPage;
class LayersPage;
class OperationSummaryPage;
class OperationsPage;
class RanksPage;
class ResultsPage;
class StepsPage;
class SummaryPage;
class TableChartPage;
class TablePage;
class TimelineLinks;
class TraceTimelinePage;

// The results: one tab per report table, each a page given every new set of results and titled
// from the report ("Operations (3)"), then the timeline. Where the whole titles do not fit the row
// they are shortened, and then the tabs least needed (those with nothing to show first) move into
// the row's overflow menu (FittedTabWidget). The links between pages (a finding named on the
// summary, a search hit) go to their tab and row.
class ResultsTabs : public FittedTabWidget
{
    Q_OBJECT
public:
    explicit ResultsTabs(QWidget* parent = nullptr);

    // Gives every page the results and retitles the tabs.
    void setResults(const AnalysisResults& results);
    const AnalysisResults& results() const { return m_results; }
    // The CSV table of the current tab's main table: what Export Current Table writes.
    QString currentTableCsvName() const;

    SummaryPage* summaryPage() const { return m_summary; }
    OperationsPage* operationsPage() const { return m_operations; }
    LayersPage* layersPage() const { return m_layers; }
    OperationSummaryPage* operationSummaryPage() const { return m_operationSummary; }
    TableChartPage* opportunitiesPage() const { return m_opportunities; }
    TablePage* mappingsPage() const { return m_mappings; }
    TableChartPage* kernelTypesPage() const { return m_kernelTypes; }
    KernelsPage* kernelsTab() const { return m_kernelsTab; }
    TablePage* kernelsPage() const { return m_kernels; } // every kernel of each trace, in kernelsTab()
    GroupsPage* groupsPage() const { return m_groups; }
    StepsPage* stepsPage() const { return m_steps; }
    EfficiencyPage* efficiencyPage() const { return m_efficiency; }
    TraceTimelinePage* timelinePage() const { return m_timeline; }
    GlobalSearch* search() const { return m_search; }
    // Its tab is there only while the results compare multi-rank runs (FusionReport::job).
    RanksPage* ranksPage() const { return m_ranks; }
    // "Show on the timeline" from the pages, and Back.
    TimelineLinks* timelineLinks() const { return m_timelineLinks; }

    // Shows what the search found: its tab, its row selected (the table's filter cleared if it
    // hid the row).
    void showSearchHit(int kind, int row);

signals:
    // A page's Export CSV button.
    void exportCsvRequested(const QString& csvName);

private:
    // The tab's title for a report ("Operations (3)"), and whether its page has nothing to show
    // for it (no findings, no layers): such tabs are the first to go into the overflow menu.
    struct TabTitle
    {
        QString text;
        bool empty = false;
    };
    using TitleOf = std::function<TabTitle(const FusionReport& report)>;
    struct ResultsTab
    {
        QWidget* widget;
        ResultsPage* page;
        TitleOf title;
        QString description; // the tooltip's text besides the title
    };

    // The forms of a title, longest first: whole, with the words a narrow window can spare
    // ("Opportunities (3)"), without the count ("Opportunities").
    static QStringList titleForms(const QString& title);
    // The tabs that go into the overflow menu first: those with nothing to show, then the
    // reference analysis's, then the rest, the Summary last.
    void setOverflowOrderFor(const QList<QWidget*>& empty);
    // The Ranks tab, after the Summary, for results that compare runs; none otherwise.
    void showRanksTab(const AnalysisResults& results);

    void createPages();
    template<typename Page>
    void addResultsTab(Page* page, const QString& name, TitleOf title, const QString& description = {});
    void connectPageLinks();

    SummaryPage* m_summary = nullptr;
    OperationsPage* m_operations = nullptr;
    LayersPage* m_layers = nullptr;
    OperationSummaryPage* m_operationSummary = nullptr;
    TableChartPage* m_opportunities = nullptr;
    TablePage* m_mappings = nullptr;
    TableChartPage* m_kernelTypes = nullptr;
    KernelsPage* m_kernelsTab = nullptr;
    TablePage* m_kernels = nullptr; // in m_kernelsTab
    GroupsPage* m_groups = nullptr;
    StepsPage* m_steps = nullptr;
    EfficiencyPage* m_efficiency = nullptr;
    TraceTimelinePage* m_timeline = nullptr;
    GlobalSearch* m_search = nullptr;
    TimelineLinks* m_timelineLinks = nullptr;
    RanksPage* m_ranks = nullptr;
    std::vector<ResultsTab> m_resultsTabs; // in tab order
    AnalysisResults m_results;
};

// A widget that becomes visible posts itself an UpdateLater event (QWidgetPrivate::show_sys), to
// be painted. When the window already waits for a paint, it is painted with the newly shown page,
// and then a second time when those events arrive: deliver them at once, so that one paint shows
// the page (a page of tables takes 5-15 ms to paint).
void deliverShowUpdates();

} // namespace fusiondiff::ui
