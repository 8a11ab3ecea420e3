#include "timeline/timelinesteps.h"

#include "display/formatting.h"
#include "timeline/timelineview.h"

#include <QPainter>

#include <algorithm>
#include <cmath>

namespace fusiondiff::ui {

void addSteps(TimelineLane& lane, const StepTimeSide& side, double first)
{
    for (size_t i = 0; i < side.steps.size(); ++i) {
        const StepRecord& step = side.steps[i];
        if (step.begin - first >= lane.end)
            break;
        lane.steps.push_back({ step.begin - first, step.end - first, static_cast<int>(i + 1), step.phase });
    }
}

int commonStepCount(const TimelineData& data)
{
    return static_cast<int>(std::min(data.lanes[0].steps.size(), data.lanes[1].steps.size()));
}

const TimelineStep* laneStep(const TimelineData& data, int side, int number)
{
    const std::vector<TimelineStep>& steps = data.lanes[static_cast<size_t>(side)].steps;
    if (number < 1 || static_cast<size_t>(number) > steps.size())
        return nullptr;
    return &steps[static_cast<size_t>(number - 1)];
}

std::array<double, 2> stepAlignmentShifts(const TimelineData& data, int number)
{
    const TimelineStep* a = laneStep(data, 0, number);
    const TimelineStep* b = laneStep(data, 1, number);
    if (!a || !b)
        return { 0, 0 };
    // In each lane's own time (without its current shift).
    const double startA = a->start - data.lanes[0].shift;
    const double startB = b->start - data.lanes[1].shift;
    return startA >= startB ? std::array<double, 2> { 0, startA - startB }
                            : std::array<double, 2> { startB - startA, 0 };
}

void TimelineView::shiftLanes(const std::array<double, 2>& shifts)
{
    for (size_t side = 0; side < 2; ++side) {
        TimelineLane& lane = m_data.lanes[side];
        const double by = shifts[side] - lane.shift;
        if (by == 0)
            continue;
        for (TimelineKernel& kernel : lane.kernels)
            kernel.start += by;
        for (TimelineGap& gap : lane.gaps)
            gap.start += by;
        for (TimelineGap& span : lane.notRecorded)
            span.start += by;
        for (TimelineStep& step : lane.steps) {
            step.start += by;
            step.end += by;
        }
        lane.end += by;
        lane.shift = shifts[side];
    }
    if (m_fitted)
        fitAll();
    clampRange();
    update();
}

void TimelineView::paintSteps(QPainter& painter, int side, const QRectF& laneRect) const
{
    const std::vector<TimelineStep>& steps = m_data.lanes[static_cast<size_t>(side)].steps;
    if (steps.empty())
        return;
    const QPalette palette = this->palette();
    // In the text's colour over the kernels, so that it shows on a lane packed with them.
    const QColor line = palette.color(QPalette::Text);
    const QFontMetricsF metrics(painter.font());
    const double visibleTo = m_start + laneRect.width() * m_usPerPixel;
    // The label of a step sits at its lane's foot, right of its line, where the lane's heading is not;
    // one is left out where the previous label would overlap it.
    const double labelTop = laneRect.bottom() - metrics.height() - 5;
    double labelsEnd = -1e300;
    painter.save();
    for (const TimelineStep& step : steps) {
        if (step.start > visibleTo)
            break;
        if (step.end < m_start)
            continue;
        const double x = xOf(step.start, laneRect);
        if (step.start >= m_start) {
            painter.setPen(QPen(line, 1.5, Qt::DashLine));
            painter.drawLine(QPointF(x, laneRect.top()), QPointF(x, laneRect.bottom()));
        }
        const QString label = tr("step %1").arg(step.number);
        const double left = std::max(x, laneRect.left()) + 3;
        const double width = metrics.horizontalAdvance(label) + 4;
        if (left < labelsEnd || left + width > laneRect.right())
            continue;
        const QRectF box(left, labelTop, width, metrics.height() + 1);
        QColor background = palette.color(QPalette::Base);
        background.setAlpha(200);
        painter.fillRect(box, background);
        painter.setPen(palette.color(QPalette::Text));
        painter.drawText(box, Qt::AlignCenter, label);
        labelsEnd = box.right() + 6;
    }
    painter.restore();
}

} // namespace fusiondiff::ui
