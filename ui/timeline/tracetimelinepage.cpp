#include "timeline/tracetimelinepage.h"

#include "classify/classifier.h"
#include "display/formatting.h"
#include "model/fusionreport.h"
#include "model/tracestore.h"
#include "ops/comparison/collectivecalls.h"
#include "timeline/idlegapruns.h"
#include "timeline/timelinedata.h"
#include "timeline/timelinepanel.h"
#include "timeline/timelinesteps.h"
#include "timeline/timelineview.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <unordered_map>
#include <utility>

namespace fusiondiff::ui {

TraceTimelinePage::TraceTimelinePage(QWidget* parent)
    : QWidget(parent)
    , m_timeline(new TimelinePanel(QStringLiteral("trace_timeline"), this))
    , m_back(new QToolButton(this))
    , m_align(new QComboBox(this))
{
    m_align->setObjectName(QStringLiteral("timeline_align_steps"));
    m_align->setToolTip(tr("Draw a step of A and the same step of B from one time, so that their kernels "
                           "and idle gaps compare side by side"));
    m_align->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    connect(m_align, &QComboBox::activated, this, [this] { alignSteps(m_align->currentData().toInt()); });
    auto* alignLabel = new QLabel(tr("Align:"), this);
    alignLabel->setBuddy(m_align);
    m_back->setText(tr("\u2190 Back"));
    m_back->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_back->hide();
    connect(m_back, &QToolButton::clicked, this, &TraceTimelinePage::backRequested);
    auto* top = new QHBoxLayout;
    top->setContentsMargins(0, 0, 0, 0);
    top->addWidget(m_back);
    top->addStretch(1);
    m_timeline->addControl(alignLabel);
    m_timeline->addControl(m_align);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->addLayout(top);
    layout->addWidget(m_timeline, 1);
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
    buildIfPending();
}

void TraceTimelinePage::buildIfPending()
{
    if (m_pending)
        build();
}

void TraceTimelinePage::build()
{
    m_pending = false;
    if (!m_results.stores[0] || !m_results.stores[1] || !m_results.classifier)
        return;
    m_timeline->setData(
        timelineOfTraces({ m_results.stores[0].get(), m_results.stores[1].get() }, *m_results.classifier, kMaxKernels,
            m_results.report ? &m_results.report->stepTime : nullptr),
        tr("Every kernel of each trace"));
    // Step N of A with step N of B, for the steps both lanes have.
    m_align->clear();
    m_align->addItem(tr("each lane from its first kernel"), 0);
    const int steps = commonStepCount(m_timeline->view()->timeline());
    for (int step = 1; step <= steps; ++step)
        m_align->addItem(tr("step %1 of A with step %1 of B").arg(step), step);
    m_align->setEnabled(steps > 0);
    applyState(std::exchange(m_pendingState, {}));
}

QJsonObject TraceTimelinePage::saveState() const
{
    if (m_pending)
        return m_pendingState;
    const TimelineView* view = m_timeline->view();
    QJsonObject state { { QStringLiteral("start_us"), view->visibleStart() },
        { QStringLiteral("end_us"), view->visibleEnd() } };
    // Step N of A drawn with step N of B: the range above is in that drawing's time. (A key older
    // builds ignore, so the session's version stays.)
    if (const int aligned = m_align->currentData().toInt(); aligned > 0)
        state.insert(QStringLiteral("aligned_step"), aligned);
    const int side = view->selectedSide();
    const int kernel = view->selectedKernel();
    if (side >= 0 && side < 2 && kernel >= 0) {
        const TimelineLane& lane = view->timeline().lanes[static_cast<size_t>(side)];
        const TimelineKernel& selected = lane.kernels.at(static_cast<size_t>(kernel));
        // In the lane's own time, whatever the alignment.
        state.insert(QStringLiteral("selected"),
            QJsonObject { { QStringLiteral("side"), side }, { QStringLiteral("start_us"), selected.start - lane.shift },
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
    // The alignment first (it shifts the lanes), then the range saved in its time. A step the
    // traces no longer both have, or none saved: each lane from its first kernel.
    const int aligned = state.value(QStringLiteral("aligned_step")).toInt(0);
    if (aligned > 0 || m_align->currentData().toInt() != 0)
        alignSteps(m_align->findData(aligned) >= 0 ? aligned : 0);
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
    const double start = selected.value(QStringLiteral("start_us")).toDouble() + lane.shift;
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

size_t TraceTimelinePage::showIdleGaps(IdleCause cause, const std::string& key, HostCodeKind kind, const QString& what)
{
    buildIfPending();
    TimelineView* view = m_timeline->view();
    if (!m_results.report)
        return 0;
    std::array<std::vector<int>, 2> gaps;
    for (int side = 0; side < 2; ++side)
        gaps[static_cast<size_t>(side)] = gapsCharged(
            view->timeline(), side, cause, key, kind, m_results.report->stepTime.sides[static_cast<size_t>(side)]);
    view->setMarkedKernels({});
    view->setSelectedGaps(std::move(gaps));
    // Counted as "where to look first" counts them: a GPU gap once, however many pieces of it
    // the core charges to the code; the largest opens in view.
    std::array<std::vector<IdleGapRun>, 2> runs;
    const IdleGapRun* largest = nullptr;
    for (size_t side = 0; side < 2; ++side) {
        runs[side] = idleGapRuns(view->timeline().lanes[side], view->selectedGaps()[side]);
        for (const IdleGapRun& run : runs[side]) {
            if (!largest || run.idleUs > largest->idleUs)
                largest = &run;
        }
    }
    const size_t count = runs[0].size() + runs[1].size();
    if (count == 0) {
        m_timeline->setNote(tr("No idle gap on the timeline is charged to %1 (the report lists gaps of at least %2).")
                                .arg(what, formatDuration(StepTimeReport::kShownIdleUs)));
        return 0;
    }
    // The largest with as much again on each side, so that the kernels around it show.
    const double around = std::max(largest->end - largest->start, 1.0);
    view->setVisibleRange(largest->start - around, largest->end + around);
    m_timeline->setNote(tr("%1 selected (A %2, B %3; the report lists gaps of %5 or more): %4; the largest (%6) is "
                           "in view.")
                            .arg(formatCountOf(count, tr("idle gap"), tr("idle gaps")), formatCount(runs[0].size()),
                                formatCount(runs[1].size()), what, formatDuration(StepTimeReport::kShownIdleUs),
                                formatDuration(largest->idleUs)));
    return count;
}

size_t TraceTimelinePage::markLaneKernels(std::array<std::vector<int>, 2> kernels, const QString& what)
{
    TimelineView* view = m_timeline->view();
    const size_t count = kernels[0].size() + kernels[1].size();
    view->setSelectedGaps({});
    view->setMarkedKernels(std::move(kernels));
    const std::array<std::vector<int>, 2>& marked = view->markedKernels();
    if (count == 0)
        m_timeline->setNote(tr("None of the kernels of %1 is on the timeline.").arg(what));
    else
        m_timeline->setNote(tr("%1 marked (A %2, B %3): %4.")
                                .arg(formatCountOf(count, tr("kernel"), tr("kernels")), formatCount(marked[0].size()),
                                    formatCount(marked[1].size()), what));
    return count;
}

size_t TraceTimelinePage::showKernels(const std::array<std::vector<uint32_t>, 2>& traceKernels, const QString& what)
{
    buildIfPending();
    const TimelineData& shown = m_timeline->view()->timeline();
    std::array<std::vector<int>, 2> kernels;
    for (size_t side = 0; side < 2; ++side) {
        std::unordered_map<int64_t, int> wanted;
        for (const uint32_t kernel : traceKernels[side])
            wanted.emplace(kernel, 0);
        const std::vector<TimelineKernel>& lane = shown.lanes[side].kernels;
        for (size_t i = 0; i < lane.size() && !wanted.empty(); ++i) {
            if (wanted.erase(lane[i].traceKernel) > 0)
                kernels[side].push_back(static_cast<int>(i));
        }
    }
    return markLaneKernels(std::move(kernels), what);
}

size_t TraceTimelinePage::showKernelsNamed(const std::array<QString, 2>& names, const QString& what)
{
    buildIfPending();
    const TimelineData& shown = m_timeline->view()->timeline();
    std::array<std::vector<int>, 2> kernels;
    for (size_t side = 0; side < 2; ++side) {
        const TimelineLane& lane = shown.lanes[side];
        const int name = names[side].isEmpty() ? -1 : static_cast<int>(lane.names.indexOf(names[side]));
        if (name < 0)
            continue;
        for (size_t i = 0; i < lane.kernels.size(); ++i) {
            if (lane.kernels[i].name == name)
                kernels[side].push_back(static_cast<int>(i));
        }
    }
    return markLaneKernels(std::move(kernels), what);
}

size_t TraceTimelinePage::showCollective(
    const std::string& collective, int communication, bool onlyCollective, const QString& what)
{
    buildIfPending();
    const TimelineData& shown = m_timeline->view()->timeline();
    std::array<std::vector<int>, 2> kernels;
    for (size_t side = 0; side < 2; ++side) {
        const TimelineLane& lane = shown.lanes[side];
        std::vector<char> ofCollective(static_cast<size_t>(lane.names.size()), 0);
        for (qsizetype name = 0; name < lane.names.size(); ++name) {
            const std::string said = collectiveOfName(lane.names[name].toStdString());
            ofCollective[static_cast<size_t>(name)] = said == collective ? 1 : (said.empty() ? 2 : 0);
        }
        for (size_t i = 0; i < lane.kernels.size(); ++i) {
            const TimelineKernel& kernel = lane.kernels[i];
            const char of = kernel.name >= 0 ? ofCollective[static_cast<size_t>(kernel.name)] : 0;
            if (of == 1 || (of == 2 && onlyCollective && communication >= 0 && kernel.type == communication))
                kernels[side].push_back(static_cast<int>(i));
        }
    }
    return markLaneKernels(std::move(kernels), what);
}

int TraceTimelinePage::alignSteps(int step)
{
    buildIfPending();
    TimelineView* view = m_timeline->view();
    const int index = m_align->findData(step);
    if (index < 0)
        return 0;
    m_align->setCurrentIndex(index);
    const std::array<double, 2> shifts = stepAlignmentShifts(view->timeline(), step);
    view->shiftLanes(shifts);
    if (step == 0) {
        m_timeline->setNote({});
        return 0;
    }
    // Both steps in view, from the earlier start to the later end.
    const TimelineStep* a = laneStep(view->timeline(), 0, step);
    const TimelineStep* b = laneStep(view->timeline(), 1, step);
    const double start = a->start;
    const double end = std::max(a->end, b->end);
    const double margin = (end - start) * 0.05;
    view->setVisibleRange(start - margin, end + margin);
    const int later = shifts[0] > 0 ? 0 : 1;
    m_timeline->setNote(tr("Step %1 of A and step %1 of B start together (A's step takes %2, B's %3); %4 is drawn %5 "
                           "later than its own start.")
                            .arg(step)
                            .arg(formatDuration(a->end - a->start), formatDuration(b->end - b->start),
                                later == 0 ? QStringLiteral("A") : QStringLiteral("B"),
                                formatDuration(shifts[static_cast<size_t>(later)])));
    return step;
}

void TraceTimelinePage::setBackTarget(const QString& tip)
{
    m_back->setToolTip(tip.isEmpty() ? QString() : tr("%1 (Alt+Left)").arg(tip));
    m_back->setVisible(!tip.isEmpty());
}

} // namespace fusiondiff::ui
