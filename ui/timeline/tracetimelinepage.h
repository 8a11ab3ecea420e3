#pragma once

#include "analysis/analysisresults.h"

#include <QJsonObject>
#include <QWidget>

namespace fusiondiff::ui {

class TimelinePanel;

// The Timeline tab: every kernel of each trace on its lane, from the trace's first kernel (a
// whole iteration and more), up to kMaxKernels a side. Built when the tab is first shown after
// new results: a trace of a million kernels takes a moment to sort.
class TraceTimelinePage : public QWidget
{
    Q_OBJECT
public:
    static constexpr size_t kMaxKernels = 500000;

    explicit TraceTimelinePage(QWidget* parent = nullptr);

    void setResults(const AnalysisResults& results);
    TimelinePanel* timeline() const { return m_timeline; }
    // What a saved session keeps (as ResultsPage::saveState): the visible range ("start_us",
    // "end_us", from the lanes' starts) and the selected kernel by its side, start and name. Until
    // the timeline is built for the results, a restored state waits for it (and is what is saved).
    QJsonObject saveState() const;
    void restoreState(const QJsonObject& state);

protected:
    void showEvent(QShowEvent* event) override;

private:
    void build();
    void applyState(const QJsonObject& state);

    AnalysisResults m_results;
    TimelinePanel* m_timeline;
    bool m_pending = false;
    QJsonObject m_pendingState; // restored before the build
};

} // namespace fusiondiff::ui
