#include "pages/groupspage.h"

#include "charts/barchart.h"
#include "charts/chartpanel.h"
#include "display/colors.h"
#include "display/formatting.h"
#include "display/sidenames.h"
#include "model/fusionreport.h"
#include "model/graphreport.h"
#include "models/groupdiffmodel.h"
#include "models/reportcolumnsmodel.h"
#include "models/tablefilterproxy.h"
#include "models/unmatchedgroupsmodel.h"
#include "pages/drilldownstate.h"
#include "pages/tablepage.h"
#include "report/reportnotes.h"
#include "timeline/timelinepanel.h"
#include "timeline/timelineview.h"
#include "util/textformat.h"
#include "widgets/adaptivesplitter.h"
#include "widgets/wraplabel.h"

#include <QHeaderView>
#include <QJsonArray>
#include <QLabel>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace fusiondiff::ui {

namespace {

// The list tabs as a session names them, in tab order (older sessions know the first two).
const QStringList kListNames { QStringLiteral("pairs"), QStringLiteral("unmatched"), QStringLiteral("graph_kinds"),
    QStringLiteral("graph_pairs") };

} // namespace

GroupsPage::GroupsPage(QWidget* parent)
    : QWidget(parent)
    , m_pairsModel(new ReportColumnsModel(ReportTableId::MatchedGroups, this))
    , m_unmatchedModel(new UnmatchedGroupsModel(this))
    , m_diffModel(new GroupDiffModel(this))
    , m_pairs(new TablePage(m_pairsModel, this))
    , m_unmatched(new TablePage(m_unmatchedModel, this))
    , m_graphKindsModel(new ReportColumnsModel(ReportTableId::GraphKinds, this))
    , m_graphPairsModel(new ReportColumnsModel(ReportTableId::GraphPairs, this))
    , m_graphKinds(new TablePage(m_graphKindsModel, this))
    , m_graphPairs(new TablePage(m_graphPairsModel, this))
    , m_sequence(new TablePage(m_diffModel, this))
    , m_composition(new ChartPanel(QStringLiteral("group_composition"), true, this))
    , m_detailTitle(new WrapLabel(this))
    , m_emptyText(new WrapLabel(this))
    , m_stack(new QStackedWidget(this))
    , m_timeline(new TimelinePanel(QStringLiteral("group_pair_timeline"), this))
{
    m_pairs->setMaximumColumnWidth(360);
    m_pairs->setStretchColumnKeys({ QStringLiteral("trace1_composition"), QStringLiteral("trace2_composition") }, 240);
    m_unmatched->setMaximumColumnWidth(360);
    m_unmatched->setStretchColumns({ UnmatchedGroupsModel::CompositionColumn }, 300);
    m_sequence->setTitle(tr("Kernels in time order"));
    m_sequence->setSortable(false);
    m_sequence->setMaximumColumnWidth(250);
    m_sequence->setStretchColumns({ GroupDiffModel::NameAColumn, GroupDiffModel::NameBColumn }, 200);
    m_sequence->setMiddleElidedColumns({ GroupDiffModel::NameAColumn, GroupDiffModel::NameBColumn });
    for (TablePage* table : { m_pairs, m_unmatched })
        table->view()->setSelectionMode(QAbstractItemView::SingleSelection);

    m_detailTitle->setTextFormat(Qt::RichText);
    m_detailTitle->setText(tr("Select a matched pair or an unmatched group to see its kernels."));

    m_groupTables = new QTabWidget(this);
    m_groupTables->setDocumentMode(true);
    m_groupTables->addTab(m_pairs, tr("Matched pairs"));
    m_groupTables->addTab(m_unmatched, tr("Unmatched groups"));
    // The graph comparison (CUDA/HIP graph kinds and their pairs, phase by phase) beside the groups
    // its launches are: the same tables as the CSV's graph_kinds and graph_pairs.
    m_graphKinds->setMaximumColumnWidth(360);
    m_graphPairs->setMaximumColumnWidth(360);
    m_groupTables->addTab(m_graphKinds, tr("Graph kinds"));
    m_groupTables->addTab(m_graphPairs, tr("Graph pairs"));

    auto* bottom = new AdaptiveSplitter(kSideBySideWidth, this);
    bottom->setObjectName(QStringLiteral("groups_detail_splitter"));
    // The pair's kernels in time above them in a table, both following a selected kernel.
    auto* kernels = new QSplitter(Qt::Vertical, this);
    kernels->setObjectName(QStringLiteral("groups_kernels_splitter"));
    kernels->addWidget(m_timeline);
    kernels->addWidget(m_sequence);
    kernels->setStretchFactor(0, 2);
    kernels->setStretchFactor(1, 3);
    kernels->setChildrenCollapsible(false);
    connect(m_timeline->view(), &TimelineView::kernelClicked, this, [this](int, int, int row) {
        if (row >= 0)
            m_sequence->selectSourceRows({ row });
    });
    connect(m_sequence, &TablePage::selectedSourceRowsChanged, this, [this](const QList<int>& rows) {
        if (!rows.isEmpty())
            m_timeline->view()->selectRow(rows.first());
    });
    bottom->addWidget(m_composition);
    bottom->addWidget(kernels);
    bottom->setStretchFactor(0, 1);
    bottom->setStretchFactor(1, 3);
    bottom->setChildrenCollapsible(false);

    auto* detail = new QWidget(this);
    auto* detailLayout = new QVBoxLayout(detail);
    detailLayout->setContentsMargins(0, 0, 0, 0);
    detailLayout->addWidget(m_detailTitle);
    detailLayout->addWidget(bottom, 1);

    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->setObjectName(QStringLiteral("groups_splitter"));
    splitter->addWidget(m_groupTables);
    splitter->addWidget(detail);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 3);
    splitter->setChildrenCollapsible(false);

    m_emptyText->setObjectName(QStringLiteral("groups_empty_text"));
    m_emptyText->setAlignment(Qt::AlignCenter);
    m_emptyText->setMargin(40);
    m_stack->addWidget(splitter);
    m_stack->addWidget(m_emptyText);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_stack);

    for (TablePage* table : { m_pairs, m_graphKinds, m_graphPairs })
        connect(table, &TablePage::exportCsvRequested, this, &GroupsPage::exportCsvRequested);
    connect(m_pairs, &TablePage::selectedSourceRowsChanged, this, [this](const QList<int>& rows) {
        if (!rows.isEmpty()) {
            m_unmatched->selectSourceRows({});
            showPair(rows.first());
        }
    });
    connect(m_unmatched, &TablePage::selectedSourceRowsChanged, this, [this](const QList<int>& rows) {
        if (!rows.isEmpty()) {
            m_pairs->selectSourceRows({});
            showUnmatched(rows.first());
        }
    });
    connect(m_composition, &ChartPanel::metricChanged, this, &GroupsPage::updateComposition);
    connect(m_composition->chart(), &BarChart::categoryClicked, this, &GroupsPage::selectKernelsOfType);
    connect(&m_watcher, &QFutureWatcher<GroupDiff>::finished, this, &GroupsPage::diffReady);
}

GroupsPage::~GroupsPage()
{
    // The drill-down holds only shared pointers; let a running one finish before the models go.
    m_watcher.waitForFinished();
}

QString GroupsPage::csvName() const
{
    return m_pairs->csvName();
}

void GroupsPage::setResults(const AnalysisResults& results)
{
    m_results = results;
    m_pairsModel->setReport(results.report);
    m_unmatchedModel->setReport(results.report);
    m_graphKindsModel->setReport(results.report);
    m_graphPairsModel->setReport(results.report);
    m_groupIndices = { -1, -1 };
    m_drillDownShown = false;
    m_pendingDrillDown = {};
    ++m_drillGeneration;
    m_diffModel->clear();
    m_timeline->setData({}, {});
    m_detailTitle->setText(tr("Select a matched pair or an unmatched group to see its kernels."));
    updateComposition();

    const FusionReport& report = *results.report;
    m_groupTables->setTabText(0, tr("Matched pairs (%1)").arg(report.groupPairs.size()));
    m_groupTables->setTabText(1, tr("Unmatched groups (%1)").arg(m_unmatchedModel->rowCount()));
    m_groupTables->setTabText(2, tr("Graph kinds (%1)").arg(m_graphKindsModel->rowCount()));
    m_groupTables->setTabText(3, tr("Graph pairs (%1)").arg(m_graphPairsModel->rowCount()));
    m_groupTables->setTabVisible(2, m_graphKindsModel->rowCount() > 0);
    m_groupTables->setTabVisible(3, m_graphKindsModel->rowCount() > 0);
    if (report.largeGroups[0].empty() && report.largeGroups[1].empty()) {
        // The core's note, as the CLI says it: eager traces, or graphs smaller than the group size.
        QString why
            = tr("No correlation group has %1 or more kernels on either side.").arg(report.options.minGroupSize);
        for (const std::string& note : reportNotes(report)) {
            if (note.starts_with("No correlation group has"))
                why = withSideAliases(report, QString::fromStdString(note));
        }
        m_emptyText->setText(tr("<p><b>%1</b></p><p>There are no groups to match or to drill into. The kernel "
                                "types and kernels pages compare the whole traces; a smaller <i>min_group_size</i> "
                                "in the analysis settings makes smaller groups count.</p>")
                                 .arg(why.toHtmlEscaped()));
        m_stack->setCurrentWidget(m_emptyText);
        if (m_graphKindsModel->rowCount() > 0) {
            // Graphs smaller than the group size: their kinds and pairs still are the graph comparison.
            m_detailTitle->setText(why.toHtmlEscaped());
            m_stack->setCurrentIndex(0);
            m_groupTables->setCurrentIndex(3);
        }
        return;
    }
    m_stack->setCurrentIndex(0);
    m_groupTables->setCurrentIndex(report.groupPairs.empty() ? 1 : 0);
    if (!report.groupPairs.empty())
        selectPair(0);
}

QString GroupsPage::detailText() const
{
    return m_detailTitle->text();
}

QJsonObject GroupsPage::saveState() const
{
    // The drill-down of the groups shown (session version 2): its kernels' table, the composition
    // chart's measure, the time its lanes show and the dividers the user placed. While a drill-down
    // is still computed, what is waiting for it.
    QJsonObject drillDown = m_pendingDrillDown;
    if (m_drillDownShown)
        drillDown = { { QStringLiteral("kernels"), m_sequence->saveState() },
            { QStringLiteral("composition"),
                m_composition->metric() == ChartPanel::GpuTime ? QStringLiteral("gpu_time")
                                                               : QStringLiteral("kernels") },
            { QStringLiteral("lanes"), lanesState(m_timeline->view()) } };
    drillDown.insert(QStringLiteral("splitters"), splittersState(this));
    return { { QStringLiteral("pairs"), m_pairs->saveState() },
        { QStringLiteral("unmatched"), m_unmatched->saveState() },
        { QStringLiteral("graph_kinds"), m_graphKinds->saveState() },
        { QStringLiteral("graph_pairs"), m_graphPairs->saveState() },
        { QStringLiteral("list"), kListNames.value(m_groupTables->currentIndex(), kListNames.first()) },
        { QStringLiteral("drill_down"), drillDown } };
}

void GroupsPage::restoreState(const QJsonObject& state)
{
    // Selecting in one table clears the other's selection: the one that had it goes last.
    const QJsonObject pairs = state.value(QStringLiteral("pairs")).toObject();
    const QJsonObject unmatched = state.value(QStringLiteral("unmatched")).toObject();
    const bool unmatchedSelected = !unmatched.value(QStringLiteral("selected")).toArray().isEmpty();
    if (unmatchedSelected) {
        m_pairs->restoreState(pairs);
        m_unmatched->restoreState(unmatched);
    } else {
        m_unmatched->restoreState(unmatched);
        m_pairs->restoreState(pairs);
    }
    m_graphKinds->restoreState(state.value(QStringLiteral("graph_kinds")).toObject());
    m_graphPairs->restoreState(state.value(QStringLiteral("graph_pairs")).toObject());
    if (state.contains(QStringLiteral("list"))) {
        const int list = static_cast<int>(kListNames.indexOf(state.value(QStringLiteral("list")).toString()));
        m_groupTables->setCurrentIndex(list >= 0 && m_groupTables->isTabVisible(list) ? list : 0);
    }
    QJsonObject drillDown = state.value(QStringLiteral("drill_down")).toObject();
    restoreSplittersState(this, drillDown.take(QStringLiteral("splitters")).toObject());
    // The selected groups' kernels are computed on a worker: their state waits for them.
    m_pendingDrillDown = drillDown;
    if (m_drillDownShown)
        applyPendingDrillDown();
}

void GroupsPage::applyPendingDrillDown()
{
    const QJsonObject state = std::exchange(m_pendingDrillDown, {});
    if (state.isEmpty())
        return;
    const QString composition = state.value(QStringLiteral("composition")).toString();
    if (!composition.isEmpty())
        m_composition->setMetric(composition == QLatin1String("gpu_time") ? ChartPanel::GpuTime : ChartPanel::Launches);
    m_sequence->restoreState(state.value(QStringLiteral("kernels")).toObject());
    restoreLanesState(m_timeline->view(), state.value(QStringLiteral("lanes")).toObject());
}

void GroupsPage::selectPair(int row)
{
    m_pairs->selectSourceRows({ row });
    showPair(row);
}

void GroupsPage::showPair(int row)
{
    const FusionReport& report = *m_results.report;
    if (row < 0 || static_cast<size_t>(row) >= report.groupPairs.size())
        return;
    const GroupPair& pair = report.groupPairs[static_cast<size_t>(row)];
    drillInto({ static_cast<int>(pair.group1), static_cast<int>(pair.group2) });
}

void GroupsPage::showUnmatched(int row)
{
    const QModelIndex index = m_unmatchedModel->index(row, 0);
    const int side = index.data(UnmatchedGroupsModel::SideRole).toInt();
    const int group = index.data(UnmatchedGroupsModel::GroupIndexRole).toInt();
    drillInto(side == 0 ? std::array<int, 2> { group, -1 } : std::array<int, 2> { -1, group });
}

void GroupsPage::drillInto(const std::array<int, 2>& groupIndices)
{
    if (groupIndices == m_groupIndices)
        return;
    m_groupIndices = groupIndices;
    m_drillDownShown = false;
    updateComposition();

    const FusionReport& report = *m_results.report;
    std::array<const LargeGroup*, 2> groups {};
    QStringList parts;
    for (size_t side = 0; side < 2; ++side) {
        if (groupIndices[side] < 0)
            continue;
        const LargeGroup& group = report.largeGroups[side][static_cast<size_t>(groupIndices[side])];
        groups[side] = &group;
        parts.append(tr("%1: correlation %2, %3, %4")
                         .arg(side == 0 ? QStringLiteral("A") : QStringLiteral("B"))
                         .arg(group.correlation)
                         .arg(formatCountOf(group.size, tr("kernel"), tr("kernels")), formatDuration(group.timeUs)));
    }
    m_detailTitle->setText(
        parts.join(QStringLiteral(" &nbsp;|&nbsp; ")) + QStringLiteral("<br>") + tr("Loading kernels..."));

    // The seed pairs graph launches whole; where one of them covers the other among other launches
    // of its trace (the graph comparison), only the covered launch's part of it does the same work.
    std::array<GroupKernelRange, 2> ranges {};
    m_coverageNote.clear();
    if (groups[0] && groups[1]) {
        if (const auto covering
            = coverageOfGroupPair(report.graphComparison, { groups[0]->correlation, groups[1]->correlation })) {
            const size_t s = covering->coveringSide;
            const GraphCoverage& coverage = *covering->coverage;
            const GraphCoveragePart& part = *covering->part;
            ranges[s] = { part.firstKernel - 1, part.lastKernel };
            std::vector<uint32_t> covered;
            for (const GraphCoveragePart& each : coverage.parts)
                covered.push_back(each.otherLaunch);
            covered.insert(covered.end(), coverage.unrecordedParts.begin(), coverage.unrecordedParts.end());
            const QString own = s == 0 ? QStringLiteral("A") : QStringLiteral("B");
            const QString other = s == 0 ? QStringLiteral("B") : QStringLiteral("A");
            m_coverageNote
                = tr("%1's group is its graph launch %2, which does the work of %3's graph launches %4 "
                     "(see the graph findings on Operations). %3's group is its launch %5: its work is "
                     "%1's kernels %6\xE2\x80\x93%7 (%8, %9), and only those are aligned here.")
                      .arg(own)
                      .arg(coverage.launch)
                      .arg(other, toQString(numberRanges(covered)))
                      .arg(part.otherLaunch)
                      .arg(part.firstKernel)
                      .arg(part.lastKernel)
                      .arg(formatCountOf(part.kernels[s], tr("kernel"), tr("kernels")), formatDuration(part.timeUs[s]));
        }
    }

    const uint64_t generation = ++m_drillGeneration;
    m_watchedGeneration = generation;
    // The results (and the groups in their report) stay alive while the drill-down runs.
    m_watcher.setFuture(QtConcurrent::run([results = m_results, groups, ranges] {
        return computeGroupDiff(
            { results.stores[0].get(), results.stores[1].get() }, groups, *results.classifier, ranges);
    }));
}

void GroupsPage::diffReady()
{
    if (m_watchedGeneration != m_drillGeneration || m_watcher.isCanceled())
        return;
    GroupDiff diff = m_watcher.result();
    QStringList typeNames;
    for (const std::string& name : m_results.report->classifier.categories)
        typeNames.append(toQString(name));
    m_diffModel->setDiff(std::move(diff), typeNames);
    m_timeline->setData(timelineOfGroups(*m_results.report, m_diffModel->diff()), tr("The selected groups"));

    const FusionReport& report = *m_results.report;
    QStringList parts;
    for (size_t side = 0; side < 2; ++side) {
        if (m_groupIndices[side] < 0)
            continue;
        const LargeGroup& group = report.largeGroups[side][static_cast<size_t>(m_groupIndices[side])];
        parts.append(tr("<b>%1</b>: correlation %2, %3, %4")
                         .arg(side == 0 ? QStringLiteral("A") : QStringLiteral("B"))
                         .arg(group.correlation)
                         .arg(formatCountOf(group.size, tr("kernel"), tr("kernels")), formatDuration(group.timeUs)));
    }
    QString text = parts.join(QStringLiteral(" &nbsp;|&nbsp; "));
    if (m_groupIndices[0] >= 0 && m_groupIndices[1] >= 0) {
        const QString format = m_diffModel->diff().inChunks
            ? tr("Too long for one alignment: aligned by kernel type in proportional chunks, as the graph findings "
                 "are. Rows: %1 of the same type, %2 of different types, %3, %4")
            : tr("Aligned by kernel type, as the operation findings are. Rows: %1 of the same type, %2 of different "
                 "types, %3, %4");
        text += QStringLiteral("<br>")
            + format.arg(QString::number(m_diffModel->rowsWithStatus(SameType)),
                colorChip(differenceBackground(), QString::number(m_diffModel->rowsWithStatus(DifferentTypes))),
                colorChip(sideBackground(0), tr("%1 only in A").arg(m_diffModel->rowsWithStatus(OnlyA))),
                colorChip(sideBackground(1), tr("%1 only in B").arg(m_diffModel->rowsWithStatus(OnlyB))));
    }
    if (!m_coverageNote.isEmpty())
        text += QStringLiteral("<br>") + m_coverageNote.toHtmlEscaped();
    m_detailTitle->setText(text);
    m_sequence->adjustColumns();
    m_drillDownShown = true;
    applyPendingDrillDown();
    emit drillDownReady();
}

void GroupsPage::selectKernelsOfType(int category)
{
    BarChart* chart = m_composition->chart();
    const QString type = chart->categories().value(category);
    chart->setSelectedCategories({ category });
    QList<int> rows;
    for (int row = 0; row < m_diffModel->rowCount(); ++row) {
        if (m_diffModel->index(row, GroupDiffModel::TypeAColumn).data().toString() == type
            || m_diffModel->index(row, GroupDiffModel::TypeBColumn).data().toString() == type)
            rows.append(row);
    }
    m_sequence->selectSourceRows(rows);
}

void GroupsPage::updateComposition()
{
    BarChart* chart = m_composition->chart();
    const FusionReport* report = m_results.report.get();
    if (!report || (m_groupIndices[0] < 0 && m_groupIndices[1] < 0)) {
        chart->setData({}, {}, {}, {}, {}, {});
        m_composition->setEmptyText(tr("Select a group to see its kernels per type."));
        return;
    }
    const LargeGroup* groups[2] = { nullptr, nullptr };
    for (size_t side = 0; side < 2; ++side) {
        if (m_groupIndices[side] >= 0)
            groups[side] = &report->largeGroups[side][static_cast<size_t>(m_groupIndices[side])];
    }
    const bool time = m_composition->metric() == ChartPanel::GpuTime;
    QStringList categories;
    QList<qreal> values[2];
    for (size_t type = 0; type < report->classifier.categories.size(); ++type) {
        const bool present
            = (groups[0] && groups[0]->typeCounts[type] > 0) || (groups[1] && groups[1]->typeCounts[type] > 0);
        if (!present)
            continue;
        categories.append(toQString(report->classifier.categories[type]));
        for (size_t side = 0; side < 2; ++side) {
            if (!groups[side])
                values[side].append(0);
            else if (time)
                values[side].append(groups[side]->typeTimesUs[type] / 1000.0);
            else
                values[side].append(groups[side]->typeCounts[type]);
        }
    }
    const auto name = [&](size_t side) {
        return groups[side] ? tr("%1: correlation %2")
                                  .arg(side == 0 ? QStringLiteral("A") : QStringLiteral("B"))
                                  .arg(groups[side]->correlation)
                            : tr("%1: no group").arg(side == 0 ? QStringLiteral("A") : QStringLiteral("B"));
    };
    chart->setData(categories, name(0), values[0], name(1), values[1], time ? tr("GPU time (ms)") : tr("Kernels"));
    chart->setTitle(tr("Kernels per type in the selected group"));
    m_composition->setEmptyText({});
}

} // namespace fusiondiff::ui
