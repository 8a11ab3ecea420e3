#include "shell/resultstabs.h"

#include "charts/barchart.h"
#include "charts/chartpanel.h"
#include "display/formatting.h"
#include "efficiency/efficiencypage.h"
#include "model/fusionreport.h"
#include "model/jobreport.h"
#include "models/reportcolumnsmodel.h"
#include "pages/groupspage.h"
#include "pages/kernelspage.h"
#include "pages/layerspage.h"
#include "pages/operationspage.h"
#include "pages/operationsummarypage.h"
#include "pages/resultspage.h"
#include "pages/stepspage.h"
#include "pages/summarypage.h"
#include "pages/tablechartpage.h"
#include "pages/tablepage.h"
#include "ranks/rankspage.h"
#include "report/referencecaveat.h"
#include "shell/globalsearch.h"
#include "shell/timelinelinks.h"
#include "timeline/tracetimelinepage.h"
#include "widgets/filterlineedit.h"

#include <QCoreApplication>
#include <QHeaderView>
#include <QRegularExpression>
#include <QTableView>
#include <algorithm>

namespace fusiondiff::ui {

namespace {

ChartData opportunitiesChart(const FusionReport& report, ChartPanel::Metric metric)
{
    ChartData data;
    for (const FusionOpportunity& opportunity : report.opportunities) {
        data.categories.append(toQString(report.typeName(opportunity.kernelType)));
        for (size_t side = 0; side < 2; ++side) {
            data.values[side].append(metric == ChartPanel::Launches ? static_cast<qreal>(opportunity.total[side])
                                                                    : opportunity.timeMs[side]);
        }
    }
    data.valueTitle
        = metric == ChartPanel::Launches ? ResultsTabs::tr("Kernel launches") : ResultsTabs::tr("GPU time (ms)");
    return data;
}

ChartData kernelTypesChart(const FusionReport& report, ChartPanel::Metric metric)
{
    ChartData data;
    for (const TypeCount& counts : report.globalCounts) {
        data.categories.append(toQString(report.typeName(counts.type)));
        for (size_t side = 0; side < 2; ++side) {
            data.values[side].append(
                metric == ChartPanel::Launches ? static_cast<qreal>(counts.count[side]) : counts.timeUs[side] / 1000.0);
        }
    }
    data.valueTitle
        = metric == ChartPanel::Launches ? ResultsTabs::tr("Kernel launches") : ResultsTabs::tr("GPU time (ms)");
    return data;
}

} // namespace

void deliverShowUpdates()
{
    QCoreApplication::sendPostedEvents(nullptr, QEvent::UpdateLater);
}

ResultsTabs::ResultsTabs(QWidget* parent)
    : FittedTabWidget(parent)
{
    setDocumentMode(true);
    createPages();
    // Not beside the tabs: the window puts it in the menu bar's row (MainWindow), where it takes
    // no room from the titles.
    m_search = new GlobalSearch(this);
    connect(m_search, &GlobalSearch::hitActivated, this,
        [this](const GlobalSearch::Hit& hit) { showSearchHit(hit.kind, hit.row); });
    // Not a table: the timeline has no CSV of its own and is given the results on its own.
    addTab(m_timeline, tr("Timeline"));
    setTabTitles(indexOf(m_timeline), { tr("Timeline") }, tr("Every kernel of both traces on two lanes, to scale"));
    setOverflowOrderFor({});
    connect(this, &QTabWidget::currentChanged, this, [] { deliverShowUpdates(); });
    connectPageLinks();
    m_timelineLinks = new TimelineLinks(this);
    m_ranks = new RanksPage(this);
    m_ranks->hide(); // until results compare runs
    connect(m_ranks, &RanksPage::exportCsvRequested, this, &ResultsTabs::exportCsvRequested);
}

void ResultsTabs::createPages()
{
    m_summary = new SummaryPage(this);
    m_operations = new OperationsPage(this);
    m_layers = new LayersPage(this);
    m_steps = new StepsPage(this);
    m_operationSummary = new OperationSummaryPage(this);
    m_opportunities = new TableChartPage(
        new ReportColumnsModel(ReportTableId::FusionOpportunities), opportunitiesChart, false, Qt::Vertical, this);
    m_opportunities->setEmptyChartText(
        tr("No fusion opportunity passed the thresholds for these traces: both launch their kernel types in "
           "similar numbers. The Kernel types page compares the counts of every type."));
    m_opportunities->chartPanel()->chart()->setTitle(tr("Kernels of each opportunity's type"));
    auto* mappings = new ReportColumnsModel(ReportTableId::FusionMappings, this);
    m_mappings = new TablePage(mappings, this);
    m_mappings->setMaximumColumnWidth(480);
    const int evidence = mappings->column("evidence");
    m_mappings->setStretchColumnKeys({ QStringLiteral("evidence") }, 520);
    // The evidence says what was found: it comes first on screen (the CSV keeps the seed's order).
    m_mappings->view()->horizontalHeader()->moveSection(evidence, 0);
    m_kernelTypes = new TableChartPage(
        new ReportColumnsModel(ReportTableId::GlobalCounts), kernelTypesChart, true, Qt::Horizontal, this);
    m_kernelTypes->chartPanel()->chart()->setTitle(tr("Kernels per type, whole traces"));
    // Beside the table from 1024 pixels wide: its controls on two rows there, its title short.
    m_kernelTypes->chartPanel()->setControlsWrap(true);
    m_kernelsTab = new KernelsPage(this);
    m_kernels = m_kernelsTab->allKernelsTable();
    m_groups = new GroupsPage(this);
    m_efficiency = new EfficiencyPage(this);
    m_timeline = new TraceTimelinePage(this);

    const auto titled = [](const QString& text, size_t count) { return TabTitle { text, count == 0 }; };
    addResultsTab(m_summary, tr("Summary"), [](const FusionReport&) { return TabTitle { tr("Summary") }; });
    addResultsTab(m_operations, tr("Operations"), [titled](const FusionReport& report) {
        return titled(tr("Operations (%1)").arg(report.opFindings.size()), report.opFindings.size());
    });
    addResultsTab(
        m_layers, tr("Layers"),
        [](const FusionReport& report) {
            if (report.layerTimes.empty())
                return TabTitle { tr("Layers (none)"), true };
            return TabTitle { report.opAlignment.layers.graphPieces
                    ? tr("Graph pieces (%1)").arg(report.layerTimes.size())
                    : tr("Layers (%1)").arg(report.layerTimes.size()) };
        },
        tr("The GPU time of each layer (the model's repeating block) on both sides, and the findings in each"));
    addResultsTab(
        m_steps, tr("Steps"),
        [](const FusionReport& report) {
            const size_t steps = std::max(report.stepTime.sides[0].steps.size(), report.stepTime.sides[1].steps.size());
            return steps == 0 ? TabTitle { tr("Steps (none)"), true } : TabTitle { tr("Steps (%1)").arg(steps) };
        },
        tr("Every step of A and B: the GPU's busy time and its idle time by cause"));
    addResultsTab(m_operationSummary, tr("Operation summary"), [titled](const FusionReport& report) {
        return titled(tr("Operation summary (%1)").arg(report.opSummary.size()), report.opSummary.size());
    });
    addResultsTab(m_opportunities, tr("Fusion opportunities"), [titled](const FusionReport& report) {
        return titled(tr("Fusion opportunities (%1)").arg(report.opportunities.size()), report.opportunities.size());
    });
    addResultsTab(m_mappings, tr("Fusion mappings"), [titled](const FusionReport& report) {
        return titled(tr("Fusion mappings (%1)").arg(report.mappings.size()), report.mappings.size());
    });
    addResultsTab(m_kernelTypes, tr("Kernel types"), [titled](const FusionReport& report) {
        return titled(tr("Kernel types (%1)").arg(report.globalCounts.size()), report.globalCounts.size());
    });
    // Titles short enough that every tab fits a 1440-px-wide window: the counts' meanings are in
    // the tooltips and on the pages.
    addResultsTab(
        m_kernelsTab, tr("Kernels"),
        [titled](const FusionReport& report) {
            return titled(tr("Kernels (%1)").arg(report.kernels.size()), report.kernels.size());
        },
        tr("Every kernel name of both traces, and which kernel of one trace does the work of which of the other"));
    addResultsTab(
        m_groups, tr("Correlation groups"),
        [titled](const FusionReport& report) {
            return titled(tr("Groups (%1 matched)").arg(report.groupPairs.size()),
                report.largeGroups[0].size() + report.largeGroups[1].size());
        },
        tr("Correlation groups (graph launches) matched across the traces, drilled into"));
    addResultsTab(
        m_efficiency, tr("Efficiency"),
        [titled](const FusionReport& report) {
            return titled(tr("Efficiency (%1)").arg(report.efficiency.rows.size()), report.efficiency.rows.size());
        },
        tr("Each operator, shape and data type against its GPU's peaks: a roofline and the table"));
}

template<typename Page>
void ResultsTabs::addResultsTab(Page* page, const QString& name, TitleOf title, const QString& description)
{
    addTab(page, name);
    setTabTitles(indexOf(page), { name }, description);
    m_resultsTabs.push_back({ page, page, std::move(title), description });
    connect(page, &Page::exportCsvRequested, this, &ResultsTabs::exportCsvRequested);
}

void ResultsTabs::connectPageLinks()
{
    connect(m_summary, &SummaryPage::kernelTypeRequested, this,
        [this](int row) { showSearchHit(GlobalSearch::KernelType, row); });
    connect(m_summary, &SummaryPage::gapCauseRequested, this, [this](GapCause cause) {
        switch (cause) {
        case GapCause::Fusion: // the findings name the extra kernels
            setCurrentWidget(m_operations);
            if (m_results.report && !m_results.report->opFindings.empty())
                m_operations->selectFinding(0);
            break;
        case GapCause::Speed: // the operations, with each side's time
        case GapCause::Collectives: // with the collectives beside them
        case GapCause::OneSide:
        case GapCause::NotCompared:
            setCurrentWidget(m_operationSummary);
            break;
        case GapCause::Unattributed: // the Summary shows their own numbers under the waterfall
        case GapCause::NotRecorded: // ... and the graph launch that ran on
            break;
        case GapCause::Overlap:
        case GapCause::Idle:
        case GapCause::Copies:
            setCurrentWidget(m_kernelTypes);
            break;
        case GapCause::IdleHost: // the steps, with the host code behind the idle
        case GapCause::IdleSync:
        case GapCause::IdleLaunch:
        case GapCause::IdleOther:
            setCurrentWidget(m_steps);
            break;
        case GapCause::Residual:
            break;
        }
    });
    connect(m_summary, &SummaryPage::findingRequested, this, [this](int row) {
        setCurrentWidget(m_operations);
        m_operations->selectFinding(row);
    });
    // As a search hit: the findings' filter cleared if it hides the row, the table focused.
    connect(m_layers, &LayersPage::findingRequested, this,
        [this](int row) { showSearchHit(GlobalSearch::OperationFinding, row); });
    connect(m_summary, &SummaryPage::layersRequested, this, [this] { setCurrentWidget(m_layers); });
    connect(m_operations, &OperationsPage::layersRequested, this, [this](int finding) {
        setCurrentWidget(m_layers);
        m_layers->selectLayersOf(finding);
    });
    connect(m_summary, &SummaryPage::operationRequested, this,
        [this](int row) { showSearchHit(GlobalSearch::Operation, row); });
    connect(m_efficiency, &EfficiencyPage::findingRequested, this,
        [this](int row) { showSearchHit(GlobalSearch::OperationFinding, row); });
    connect(m_efficiency, &EfficiencyPage::operationRequested, this,
        [this](int row) { showSearchHit(GlobalSearch::Operation, row); });
    connect(m_summary, &SummaryPage::opportunityRequested, this, [this](int row) {
        setCurrentWidget(m_opportunities);
        m_opportunities->table()->selectSourceRows({ row });
    });
}

void ResultsTabs::setResults(const AnalysisResults& results)
{
    m_results = results;
    deliverShowUpdates();
    QList<QWidget*> empty;
    for (ResultsTab& tab : m_resultsTabs) {
        tab.page->setResults(results);
        const TabTitle title = tab.title(*results.report);
        setTabTitles(indexOf(tab.widget), titleForms(title.text), tab.description);
        if (title.empty)
            empty.append(tab.widget);
    }
    setOverflowOrderFor(empty);
    // The reference analysis' tables carry the CLI's caveat where it misleads on this pair.
    const QString caveat = toQString(referenceAnalysisCaveat(*results.report));
    const QString title = caveat.isEmpty() ? QString() : tr("The reference analysis is %1.").arg(caveat);
    m_opportunities->table()->setTitle(title);
    m_mappings->setTitle(title);
    m_timeline->setResults(results);
    m_search->setReport(results.report);
    showRanksTab(results);
}

void ResultsTabs::showRanksTab(const AnalysisResults& results)
{
    const std::shared_ptr<const JobReport>& job = results.report->job;
    const int index = indexOf(m_ranks);
    if (!job) {
        if (index >= 0)
            removeTab(index);
        return;
    }
    // After the Summary: with runs, who holds the job up comes first.
    if (index < 0)
        insertTab(1, m_ranks, tr("Ranks"));
    m_ranks->setResults(results);
    const QString title = tr("Ranks (%1 and %2)").arg(job->sides[0].ranks.size()).arg(job->sides[1].ranks.size());
    setTabTitles(indexOf(m_ranks), titleForms(title),
        tr("Every rank of both runs: step time and collective wait per step, wait against transfer, the straggler"));
}

QStringList ResultsTabs::titleForms(const QString& title)
{
    // The words a narrow window can spare, then the counts too: the page says them again, and
    // the tab's tooltip has the whole title.
    QString shorter = title;
    shorter.replace(tr("Operation summary"), tr("Op. summary"));
    shorter.replace(tr("Fusion opportunities"), tr("Opportunities"));
    shorter.replace(tr("Fusion mappings"), tr("Mappings"));
    shorter.replace(tr("Kernel types"), tr("Types"));
    shorter.replace(QRegularExpression(QStringLiteral(" matched\\)$")), QStringLiteral(")"));
    QString shortest = shorter;
    shortest.remove(QRegularExpression(QStringLiteral(" \\([^)]*\\)$")));
    return { title, shorter, shortest };
}

void ResultsTabs::setOverflowOrderFor(const QList<QWidget*>& empty)
{
    // The reference analysis's views (on eager traces they have nothing), then the views of one
    // aspect, the overviews last.
    QList<QWidget*> order = empty;
    for (QWidget* page : std::initializer_list<QWidget*> { m_mappings, m_opportunities, m_groups, m_kernelTypes,
             m_efficiency, m_steps, m_layers, m_kernelsTab, m_timeline, m_operationSummary, m_operations, m_summary }) {
        if (!order.contains(page))
            order.append(page);
    }
    setOverflowOrder(order);
}

QString ResultsTabs::currentTableCsvName() const
{
    for (const ResultsTab& tab : m_resultsTabs) {
        if (tab.widget == currentWidget())
            return tab.page->csvName();
    }
    if (currentWidget() == m_ranks)
        return m_ranks->csvName();
    return {};
}

void ResultsTabs::showSearchHit(int kind, int row)
{
    TablePage* table = nullptr;
    switch (kind) {
    case GlobalSearch::OperationFinding:
        setCurrentWidget(m_operations);
        table = m_operations->findingsTable();
        break;
    case GlobalSearch::Operation:
        setCurrentWidget(m_operationSummary);
        table = m_operationSummary->summaryTable();
        break;
    case GlobalSearch::KernelType:
        setCurrentWidget(m_kernelTypes);
        table = m_kernelTypes->table();
        break;
    default:
        setCurrentWidget(m_kernelsTab);
        table = m_kernels;
        break;
    }
    if (!table->filterEdit()->text().isEmpty()) {
        table->filterEdit()->clear();
        table->filterEdit()->applyNow();
    }
    table->selectSourceRows({ row });
    table->view()->setFocus(Qt::OtherFocusReason);
}

} // namespace fusiondiff::ui
