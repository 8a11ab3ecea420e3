#pragma once

#include "analysis/analysisresults.h"

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

protected:
    void showEvent(QShowEvent* event) override;

private:
    void build();

    AnalysisResults m_results;
    TimelinePanel* m_timeline;
    bool m_pending = false;
};

} // namespace fusiondiff::ui
