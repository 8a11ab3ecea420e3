#pragma once

#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>

#include <functional>
#include <vector>

class QAbstractScrollArea;
class QAction;

namespace fusiondiff::ui {

class ResultsTabs;
class TablePage;

// The links from the pages to the Timeline tab, and back. "Show on the timeline" (a table's
// context menu and Ctrl+T) on a finding, a group pair or a kernel marks its kernels there; a
// host, sync or launch entry of "where to look first" on the Summary, or a row of host_time,
// selects the idle gaps charged to it. Each such jump remembers where the user was (the tab, the
// table's selected rows, the scroll position); Back (the Timeline's button, Alt+Left) returns there.
class TimelineLinks : public QObject
{
    Q_OBJECT
public:
    explicit TimelineLinks(ResultsTabs* tabs);

    // The jumps the pages ask for, each from its page's table (the Summary's text for an entry),
    // remembered for Back; each returns what the timeline selected or marked.
    size_t showLookFirstEntry(int entry); // an index into report.whereToLookFirst
    size_t showHostTimeRow(int row); // into report.stepTime.hostTime
    size_t showFinding(int row); // into report.opFindings
    size_t showGroupPair(int row); // into report.groupPairs
    size_t showKernelName(int row); // into report.kernels
    size_t showMatchedKernels(int row); // into report.matchedKernels

    // Returns to where the last jump was made from; false when there is nowhere to go back to.
    bool back();
    QAction* backAction() const { return m_back; }
    int historySize() const { return static_cast<int>(m_history.size()); }

private:
    // Where a jump was made from.
    struct Place
    {
        QPointer<QWidget> tab;
        QPointer<TablePage> table; // the table whose rows were selected, if any
        QList<int> rows; // its selected source rows
        QPointer<QAbstractScrollArea> scrolled; // the table's view, or the Summary's text
        int vertical = 0;
        int horizontal = 0;
        QString name; // the tab's title
    };

    // Adds "Show on the timeline" (Ctrl+T) to a table's view; the row it acts on is the current
    // row's source row.
    void addShowAction(TablePage* table, std::function<size_t(int row)> show);
    void remember(TablePage* table, QAbstractScrollArea* scrolled);
    // Remembers where the user is (`from`'s selected rows, `scrolled`'s position) and shows the Timeline.
    void switchToTimeline(TablePage* from, QAbstractScrollArea* scrolled);
    void updateBack();

    ResultsTabs* m_tabs;
    QAction* m_back;
    std::vector<Place> m_history; // the last jump last
    static constexpr size_t kMaxHistory = 20;
};

} // namespace fusiondiff::ui
