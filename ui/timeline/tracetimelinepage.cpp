#include "timeline/tracetimelinepage.h"

#include "classify/classifier.h"
#include "model/tracestore.h"
#include "timeline/timelinedata.h"
#include "timeline/timelinepanel.h"
#include "timeline/timelineview.h"

#include <QVBoxLayout>

#include <algorithm>
#include <utility>

namespace fusiondiff::ui {

TraceTimelinePage::TraceTimelinePage(QWidget* parent)
    : QWidget(parent)
    , m_timeline(new TimelinePanel(QStringLiteral("trace_timeline"), this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->addWidget(m_timeline);
}

void TraceTimelinePage::setResults(const AnalysisResults& results)
{
    m_results = results;
    m_pendingState = {};
    m_timeline->setData({}, {});
    m_pending = true;
    if (isVisible())
        build();
}

void TraceTimelinePage::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (m_pending)
        build();
}

void TraceTimelinePage::build()
{
    m_pending = false;
    if (!m_results.stores[0] || !m_results.stores[1] || !m_results.classifier)
        return;
    m_timeline->setData(
        timelineOfTraces({ m_results.stores[0].get(), m_results.stores[1].get() }, *m_results.classifier, kMaxKernels),
        tr("Every kernel of each trace"));
    applyState(std::exchange(m_pendingState, {}));
}

QJsonObject TraceTimelinePage::saveState() const
{
    if (m_pending)
        return m_pendingState;
    const TimelineView* view = m_timeline->view();
    QJsonObject state { { QStringLiteral("start_us"), view->visibleStart() },
        { QStringLiteral("end_us"), view->visibleEnd() } };
    const int side = view->selectedSide();
    const int kernel = view->selectedKernel();
    if (side >= 0 && side < 2 && kernel >= 0) {
        const TimelineLane& lane = view->timeline().lanes[static_cast<size_t>(side)];
        const TimelineKernel& selected = lane.kernels.at(static_cast<size_t>(kernel));
        state.insert(QStringLiteral("selected"),
            QJsonObject { { QStringLiteral("side"), side }, { QStringLiteral("start_us"), selected.start },
                { QStringLiteral("name"), lane.names.value(selected.name) } });
    }
    return state;
}

void TraceTimelinePage::restoreState(const QJsonObject& state)
{
    if (m_pending)
        m_pendingState = state;
    else
        applyState(state);
}

void TraceTimelinePage::applyState(const QJsonObject& state)
{
    TimelineView* view = m_timeline->view();
    const TimelineData& shown = view->timeline();
    if (state.contains(QStringLiteral("start_us")) && state.contains(QStringLiteral("end_us"))) {
        const double start = state.value(QStringLiteral("start_us")).toDouble();
        const double end = state.value(QStringLiteral("end_us")).toDouble();
        // Everything in view stays so at any width (a resize keeps a fitted view fitted).
        if (start <= 0 && end >= shown.end() * (1 - 1e-9))
            view->fitAll();
        else
            view->setVisibleRange(start, end);
    }
    // The kernel that starts at the same time with the same name: indices change with the cap.
    const QJsonObject selected = state.value(QStringLiteral("selected")).toObject();
    const int side = selected.value(QStringLiteral("side")).toInt(-1);
    if (side != 0 && side != 1)
        return;
    const TimelineLane& lane = shown.lanes[static_cast<size_t>(side)];
    const double start = selected.value(QStringLiteral("start_us")).toDouble();
    const QString name = selected.value(QStringLiteral("name")).toString();
    auto it = std::lower_bound(lane.kernels.begin(), lane.kernels.end(), start,
        [](const TimelineKernel& kernel, double time) { return kernel.start < time; });
    for (; it != lane.kernels.end() && it->start == start; ++it) {
        if (lane.names.value(it->name) == name) {
            view->setSelectedKernel(side, static_cast<int>(it - lane.kernels.begin()));
            return;
        }
    }
}

} // namespace fusiondiff::ui
