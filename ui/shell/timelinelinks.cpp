#include "shell/timelinelinks.h"

#include "display/formatting.h"
#include "display/idlecolors.h"
#include "model/fusionreport.h"
#include "pages/groupspage.h"
#include "pages/kernelspage.h"
#include "pages/operationspage.h"
#include "pages/stepspage.h"
#include "pages/summarypage.h"
#include "pages/tablepage.h"
#include "shell/resultstabs.h"
#include "timeline/tracetimelinepage.h"

#include <QAction>
#include <QScrollBar>
#include <QTableView>
#include <QTextBrowser>

namespace fusiondiff::ui {

namespace {

IdleCause causeOf(LookFirstKind kind)
{
    return kind == LookFirstKind::Sync  ? IdleCause::Sync
        : kind == LookFirstKind::Launch ? IdleCause::Launch
                                        : IdleCause::Host;
}

} // namespace

TimelineLinks::TimelineLinks(ResultsTabs* tabs)
    : QObject(tabs)
    , m_tabs(tabs)
    , m_back(new QAction(tr("Back to where the timeline was opened from"), tabs))
{
    m_back->setShortcut(QKeySequence(Qt::ALT | Qt::Key_Left));
    m_back->setShortcutContext(Qt::WindowShortcut);
    m_back->setEnabled(false);
    tabs->addAction(m_back);
    connect(m_back, &QAction::triggered, this, &TimelineLinks::back);
    TraceTimelinePage* timeline = tabs->timelinePage();
    connect(timeline, &TraceTimelinePage::backRequested, this, &TimelineLinks::back);

    SummaryPage* summary = tabs->summaryPage();
    connect(summary, &SummaryPage::idleGapsRequested, this, &TimelineLinks::showLookFirstEntry);
    TablePage* hostTime = tabs->stepsPage()->hostTime();
    addShowAction(hostTime, [this](int row) { return showHostTimeRow(row); });
    // Choosing a row (Enter, a double click) shows its gaps too: the table has no other use for it.
    connect(hostTime->view(), &QAbstractItemView::activated, this, [this, hostTime](const QModelIndex&) {
        const QList<int> rows = hostTime->selectedSourceRows();
        if (!rows.isEmpty())
            showHostTimeRow(rows.front());
    });
    addShowAction(tabs->operationsPage()->findingsTable(), [this](int row) { return showFinding(row); });
    addShowAction(tabs->groupsPage()->pairsTable(), [this](int row) { return showGroupPair(row); });
    addShowAction(tabs->kernelsPage(), [this](int row) { return showKernelName(row); });
    addShowAction(tabs->kernelsTab()->matchedTable(), [this](int row) { return showMatchedKernels(row); });
}

void TimelineLinks::addShowAction(TablePage* table, std::function<size_t(int row)> show)
{
    auto* action = new QAction(tr("Show on the &Timeline"), table->view());
    action->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_T));
    action->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    action->setToolTip(tr("Show this row's kernels or idle gaps on the Timeline tab (Alt+Left comes back)"));
    table->view()->addAction(action);
    connect(action, &QAction::triggered, this, [table, show = std::move(show)] {
        const QList<int> rows = table->selectedSourceRows();
        if (!rows.isEmpty())
            show(rows.front());
    });
}

void TimelineLinks::remember(TablePage* table, QAbstractScrollArea* scrolled)
{
    Place place;
    place.tab = m_tabs->currentWidget();
    place.name = m_tabs->tabText(m_tabs->currentIndex());
    place.table = table;
    if (table)
        place.rows = table->selectedSourceRows();
    place.scrolled = scrolled;
    if (scrolled) {
        place.vertical = scrolled->verticalScrollBar()->value();
        place.horizontal = scrolled->horizontalScrollBar()->value();
    }
    m_history.push_back(std::move(place));
    if (m_history.size() > kMaxHistory)
        m_history.erase(m_history.begin());
    updateBack();
}

void TimelineLinks::switchToTimeline(TablePage* from, QAbstractScrollArea* scrolled)
{
    remember(from, scrolled);
    m_tabs->setCurrentWidget(m_tabs->timelinePage());
}

bool TimelineLinks::back()
{
    while (!m_history.empty() && !m_history.back().tab)
        m_history.pop_back();
    if (m_history.empty()) {
        updateBack();
        return false;
    }
    const Place place = m_history.back();
    m_history.pop_back();
    m_tabs->setCurrentWidget(place.tab);
    if (place.table && !place.rows.isEmpty())
        place.table->selectSourceRows(place.rows);
    if (place.scrolled) {
        // After the selection, which scrolls to its row: the user's own position, exactly.
        place.scrolled->verticalScrollBar()->setValue(place.vertical);
        place.scrolled->horizontalScrollBar()->setValue(place.horizontal);
        place.scrolled->setFocus(Qt::OtherFocusReason);
    }
    updateBack();
    return true;
}

void TimelineLinks::updateBack()
{
    TraceTimelinePage* timeline = m_tabs->timelinePage();
    if (m_history.empty()) {
        m_back->setEnabled(false);
        timeline->setBackTarget({});
        return;
    }
    const Place& last = m_history.back();
    QString tip = tr("Back to %1").arg(last.name);
    if (!last.rows.isEmpty())
        tip += tr(", the row you were on");
    m_back->setEnabled(true);
    timeline->setBackTarget(tip);
}

size_t TimelineLinks::showLookFirstEntry(int entry)
{
    const FusionReport* report = m_tabs->results().report.get();
    if (!report || entry < 0 || static_cast<size_t>(entry) >= report->whereToLookFirst.size())
        return 0;
    const LookFirstEntry& chosen = report->whereToLookFirst[static_cast<size_t>(entry)];
    if (chosen.kind == LookFirstKind::Collective) {
        switchToTimeline(nullptr, m_tabs->summaryPage()->findChild<QTextBrowser*>());
        return m_tabs->timelinePage()->showCollective(chosen.op, chosen.types.empty() ? -1 : int(chosen.types.front()),
            report->collectives.size() == 1,
            tr("the %1 kernels (entry %2 of where to look first)").arg(toQString(chosen.op)).arg(entry + 1));
    }
    if (chosen.kind != LookFirstKind::Host && chosen.kind != LookFirstKind::Sync
        && chosen.kind != LookFirstKind::Launch)
        return 0;
    switchToTimeline(nullptr, m_tabs->summaryPage()->findChild<QTextBrowser*>());
    return m_tabs->timelinePage()->showIdleGaps(causeOf(chosen.kind), chosen.op, HostCodeKind::None,
        tr("%1 (entry %2 of where to look first)").arg(toQString(chosen.title)).arg(entry + 1));
}

size_t TimelineLinks::showHostTimeRow(int row)
{
    const FusionReport* report = m_tabs->results().report.get();
    if (!report || row < 0 || static_cast<size_t>(row) >= report->stepTime.hostTime.size())
        return 0;
    const HostTimeRow& code = report->stepTime.hostTime[static_cast<size_t>(row)];
    TablePage* table = m_tabs->stepsPage()->hostTime();
    switchToTimeline(table, table->view());
    return m_tabs->timelinePage()->showIdleGaps(
        IdleCause::Host, code.code, code.kind, tr("the GPU idle while the host runs %1").arg(toQString(code.code)));
}

size_t TimelineLinks::showFinding(int row)
{
    const FusionReport* report = m_tabs->results().report.get();
    if (!report || row < 0 || static_cast<size_t>(row) >= report->opFindings.size())
        return 0;
    const OpFinding& finding = report->opFindings[static_cast<size_t>(row)];
    TablePage* table = m_tabs->operationsPage()->findingsTable();
    switchToTimeline(table, table->view());
    return m_tabs->timelinePage()->showKernels(
        finding.firstKernels, tr("the first call of %1 (finding %2)").arg(toQString(finding.op)).arg(row + 1));
}

size_t TimelineLinks::showGroupPair(int row)
{
    const FusionReport* report = m_tabs->results().report.get();
    if (!report || row < 0 || static_cast<size_t>(row) >= report->groupPairs.size())
        return 0;
    const GroupPair& pair = report->groupPairs[static_cast<size_t>(row)];
    const std::array<const LargeGroup*, 2> groups { &report->largeGroups[0][pair.group1],
        &report->largeGroups[1][pair.group2] };
    TablePage* table = m_tabs->groupsPage()->pairsTable();
    switchToTimeline(table, table->view());
    return m_tabs->timelinePage()->showKernels({ groups[0]->kernels, groups[1]->kernels },
        tr("correlation groups %1 (A) and %2 (B)").arg(groups[0]->correlation).arg(groups[1]->correlation));
}

size_t TimelineLinks::showKernelName(int row)
{
    const FusionReport* report = m_tabs->results().report.get();
    if (!report || row < 0 || static_cast<size_t>(row) >= report->kernels.size())
        return 0;
    const QString name = toQString(report->kernels[static_cast<size_t>(row)].name);
    switchToTimeline(m_tabs->kernelsPage(), m_tabs->kernelsPage()->view());
    return m_tabs->timelinePage()->showKernelsNamed({ name, name }, tr("every kernel named %1").arg(name));
}

size_t TimelineLinks::showMatchedKernels(int row)
{
    const FusionReport* report = m_tabs->results().report.get();
    if (!report || row < 0 || static_cast<size_t>(row) >= report->matchedKernels.size())
        return 0;
    const MatchedKernels& matched = report->matchedKernels[static_cast<size_t>(row)];
    TablePage* table = m_tabs->kernelsTab()->matchedTable();
    switchToTimeline(table, table->view());
    return m_tabs->timelinePage()->showKernelsNamed({ toQString(matched.names[0]), toQString(matched.names[1]) },
        tr("every kernel named %1 (A) or %2 (B)").arg(toQString(matched.names[0]), toQString(matched.names[1])));
}

} // namespace fusiondiff::ui
