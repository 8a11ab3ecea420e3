#include "timeline/timelineview.h"

#include "display/formatting.h"
#include "display/idlecolors.h"
#include "display/kernelnames.h"

#include <algorithm>

// What is under the pointer (a kernel, an idle gap, a not recorded span) and what hovering it shows.

namespace fusiondiff::ui {

int TimelineView::kernelAt(int side, QPointF position) const
{
    if (side < 0 || side > 1)
        return -1;
    const TimelineLane& lane = m_data.lanes[static_cast<size_t>(side)];
    const double time = timeAt(position.x());
    const double tolerance = kHitTolerancePx * m_usPerPixel;
    int best = -1;
    double bestDistance = tolerance;
    for (size_t i = firstKernelFrom(side, time - tolerance); i < lane.kernels.size(); ++i) {
        const TimelineKernel& kernel = lane.kernels[i];
        if (kernel.start > time + tolerance)
            break;
        const double end = kernel.start + kernel.duration;
        const double distance = time < kernel.start ? kernel.start - time : (time > end ? time - end : 0.0);
        // Inside a kernel beats near one; of overlapping kernels (streams), the shortest.
        if (distance < bestDistance
            || (distance == 0 && bestDistance == 0 && best >= 0
                && kernel.duration < lane.kernels[static_cast<size_t>(best)].duration)) {
            best = static_cast<int>(i);
            bestDistance = distance;
        }
    }
    return best;
}

QString TimelineView::kernelToolTip(int side, int index) const
{
    const TimelineLane& lane = m_data.lanes[static_cast<size_t>(side)];
    const TimelineKernel& kernel = lane.kernels[static_cast<size_t>(index)];
    const QString name = lane.names.value(kernel.name);
    QString text = QStringLiteral("<p style=\"white-space:pre-wrap\"><b>%1</b></p>")
                       .arg(kernelNameToolTip(name).toHtmlEscaped());
    text += tr("%1 &middot; %2 &middot; at %3 from the lane's start")
                .arg(m_data.typeNames.value(kernel.type).toHtmlEscaped(), formatDuration(kernel.duration),
                    formatDuration(kernel.start - lane.shift));
    if (kernel.extra)
        text += QStringLiteral("<br>")
            + tr("Only %1 runs this kernel here").arg(side == 0 ? QStringLiteral("A") : QStringLiteral("B"));
    text += QStringLiteral("<br><i>%1</i>").arg(lane.title.toHtmlEscaped());
    return text;
}

int TimelineView::gapAt(int side, QPointF position) const
{
    if (side < 0 || side > 1)
        return -1;
    const std::vector<TimelineGap>& gaps = m_data.lanes[static_cast<size_t>(side)].gaps;
    const double time = timeAt(position.x());
    const double tolerance = kHitTolerancePx * m_usPerPixel;
    // Gaps do not overlap: the first that ends after the time, if it starts before it.
    const auto it = std::lower_bound(gaps.begin(), gaps.end(), time - tolerance,
        [](const TimelineGap& gap, double value) { return gap.start + gap.duration < value; });
    if (it == gaps.end() || it->start > time + tolerance)
        return -1;
    return static_cast<int>(it - gaps.begin());
}

QString TimelineView::gapToolTip(int side, int index) const
{
    const TimelineLane& lane = m_data.lanes[static_cast<size_t>(side)];
    const TimelineGap& gap = lane.gaps[static_cast<size_t>(index)];
    const HostCode* code = gap.code >= 0 && static_cast<size_t>(gap.code) < lane.gapCodes.size()
        ? &lane.gapCodes[static_cast<size_t>(gap.code)]
        : nullptr;
    const QString name = code ? QString::fromStdString(code->name).toHtmlEscaped() : QString();
    QString text = QStringLiteral("<p style=\"white-space:pre-wrap\"><b>%1</b></p>")
                       .arg(tr("GPU idle %1: %2").arg(formatDuration(gap.duration), idleCauseName(gap.cause)));
    QString kind;
    if (code && code->kind == HostCodeKind::Python)
        kind = tr("Python function");
    else if (code && code->kind == HostCodeKind::Operator)
        kind = tr("operator");
    else if (code && code->kind == HostCodeKind::Runtime)
        kind = tr("runtime call");
    switch (gap.cause) {
    case IdleCause::Host:
        text += name.isEmpty() ? tr("The host runs code no event of the trace names")
                               : tr("The host runs <b>%1</b> (%2)").arg(name, kind);
        break;
    case IdleCause::Sync:
        text += tr("The host waits for the GPU in <b>%1</b>").arg(name);
        break;
    case IdleCause::Launch:
        text += tr("The next work was launched by <b>%1</b> and started late").arg(name);
        break;
    case IdleCause::BetweenSteps:
        text += tr("Outside the compared steps");
        break;
    case IdleCause::Other:
        text += name.isEmpty() ? tr("Not explained") : tr("Not explained: %1").arg(name);
        break;
    }
    text += QStringLiteral("<br>");
    if (gap.step >= 0)
        text += tr("step %1 &middot; ").arg(gap.step + 1);
    text += tr("at %1 from the lane's start").arg(formatDuration(gap.start - lane.shift));
    text += QStringLiteral("<br><i>%1</i>").arg(lane.title.toHtmlEscaped());
    return text;
}

int TimelineView::notRecordedAt(int side, QPointF position) const
{
    if (side < 0 || side > 1)
        return -1;
    const std::vector<TimelineGap>& spans = m_data.lanes[static_cast<size_t>(side)].notRecorded;
    const double time = timeAt(position.x());
    for (size_t i = 0; i < spans.size(); ++i) {
        if (time >= spans[i].start && time < spans[i].start + spans[i].duration)
            return static_cast<int>(i);
    }
    return -1;
}

QString TimelineView::notRecordedToolTip(int side, int span) const
{
    const TimelineLane& lane = m_data.lanes[static_cast<size_t>(side)];
    const TimelineGap& shown = lane.notRecorded[static_cast<size_t>(span)];
    return QStringLiteral("<p style=\"white-space:pre-wrap\"><b>%1</b></p>%2<br>%3<br><i>%4</i>")
        .arg(tr("Not recorded: %1 of GPU time").arg(formatDuration(shown.duration)),
            tr("A graph launch ran on after its last recorded kernel until the host's wait for it "
               "returned, with no other GPU work between: the trace holds no kernels for this time. "
               "The step time and the GPU kernel time count it (part \"not recorded\")."),
            tr("at %1 from the lane's start").arg(formatDuration(shown.start - lane.shift)),
            lane.title.toHtmlEscaped());
}

QString TimelineView::laneHeading(int side) const
{
    // Two totals, each saying what it measures: the lane's wall span and its kernels' summed time
    // (what the tables add up), which differ by the time the GPU idles between kernels.
    const TimelineLane& lane = m_data.lanes[static_cast<size_t>(side)];
    QString heading = tr("%1 \u00B7 %2 \u00B7 span %3 \u00B7 kernel time %4")
                          .arg(lane.title, formatCountOf(lane.kernels.size(), tr("kernel"), tr("kernels")),
                              formatDuration(lane.end - lane.shift), formatDuration(lane.kernelTime));
    if (lane.notRecordedTime <= 0)
        return heading;
    return tr("%1 \u00B7 %2 not recorded").arg(heading, formatDuration(lane.notRecordedTime));
}

} // namespace fusiondiff::ui
