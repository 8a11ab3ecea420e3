#include "timeline/timelineview.h"

#include "display/colors.h"
#include "display/formatting.h"
#include "display/idlecolors.h"
#include "display/kernelnames.h"

#include <QPainter>

#include <algorithm>
#include <cmath>
#include <limits>

// How the timeline draws itself: ruler, lanes, kernels, idle gaps, marks and connectors.

namespace fusiondiff::ui {

namespace {

// 1, 2 or 5 times a power of ten, at least `value`.
double niceStep(double value)
{
    const double power = std::pow(10.0, std::floor(std::log10(value)));
    for (const double factor : { 1.0, 2.0, 5.0, 10.0 }) {
        if (factor * power >= value)
            return factor * power;
    }
    return 10 * power;
}

} // namespace

const QString& TimelineView::shownName(int side, int name)
{
    QString& shown = m_shownNames[static_cast<size_t>(side)][static_cast<size_t>(name)];
    if (shown.isNull())
        shown = shownKernelName(m_data.lanes[static_cast<size_t>(side)].names.value(name));
    return shown;
}

QColor TimelineView::typeColor(CategoryId type) const
{
    return kernelTypeColor(static_cast<int>(type), isDarkPalette(palette()));
}

void TimelineView::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    paint(painter, size());
    if (hasFocus()) {
        // The keys go here: a frame in the highlight colour says so (not part of a saved image).
        painter.setPen(QPen(palette().color(QPalette::Highlight), 2));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(QRectF(rect()).adjusted(1, 1, -1, -1));
    }
}

void TimelineView::paint(QPainter& painter, const QSize& size)
{
    const QPalette palette = this->palette();
    painter.fillRect(QRect(QPoint(0, 0), size), palette.color(QPalette::Base));
    m_drawn = 0;
    m_merged = 0;
    m_drawnGaps = 0;
    if (m_data.isEmpty()) {
        painter.setPen(palette.color(QPalette::PlaceholderText));
        painter.drawText(QRect(QPoint(0, 0), size), Qt::AlignCenter, tr("No kernels to show"));
        return;
    }
    const Geometry geometry = geometryFor(size);
    paintRuler(painter, geometry.ruler, geometry.lanes[0]);
    paintConnectors(painter, geometry);
    for (int side = 0; side < 2; ++side)
        paintLane(painter, side, geometry.lanes[static_cast<size_t>(side)]);
}

void TimelineView::paintRuler(QPainter& painter, const QRectF& ruler, const QRectF& plot) const
{
    const QColor text = palette().color(QPalette::Text);
    painter.setPen(blend(palette().color(QPalette::Base), text, 0.5));
    painter.drawLine(QPointF(ruler.left(), ruler.bottom()), QPointF(ruler.right(), ruler.bottom()));
    const double step = niceStep(90 * m_usPerPixel);
    const double end = m_start + ruler.width() * m_usPerPixel;
    painter.setPen(text);
    for (double tick = std::ceil(m_start / step) * step; tick <= end; tick += step) {
        const double x = xOf(tick, plot);
        painter.drawLine(QPointF(x, ruler.bottom() - 4), QPointF(x, ruler.bottom()));
        painter.drawText(QRectF(x + 3, ruler.top(), 90, ruler.height() - 3), Qt::AlignLeft | Qt::AlignVCenter,
            std::abs(tick) < step / 2 ? QStringLiteral("0") : formatDuration(tick));
    }
}

void TimelineView::paintLane(QPainter& painter, int side, const QRectF& laneRect)
{
    const TimelineLane& lane = m_data.lanes[static_cast<size_t>(side)];
    const QPalette palette = this->palette();
    // The idle time: the lane's own background, between the kernels.
    painter.fillRect(laneRect, blend(palette.color(QPalette::Base), palette.color(QPalette::Text), 0.05));
    painter.save();
    painter.setClipRect(laneRect);
    paintGaps(painter, side, laneRect);
    paintNotRecorded(painter, side, laneRect);
    const double visibleFrom = m_start;
    const double visibleTo = m_start + laneRect.width() * m_usPerPixel;
    const double body = laneRect.top() + kExtraMarkHeight + 1;
    const double height = laneRect.height() - kExtraMarkHeight - 1;
    const QColor extraColor = sideSelectedColor(side);
    const QColor outline = blend(palette.color(QPalette::Base), palette.color(QPalette::Text), 0.55);
    long lastColumn = std::numeric_limits<long>::min();
    std::vector<std::pair<QRectF, int>> labelled; // wide kernels, named after the rectangles
    for (size_t i = firstKernelFrom(side, visibleFrom); i < lane.kernels.size(); ++i) {
        const TimelineKernel& kernel = lane.kernels[i];
        if (kernel.start > visibleTo)
            break;
        if (kernel.start + kernel.duration < visibleFrom)
            continue;
        const double x0 = xOf(kernel.start, laneRect);
        const double x1 = xOf(kernel.start + kernel.duration, laneRect);
        if (x1 - x0 < 1) {
            // Sub-pixel kernels: one per pixel column (its colour stands for the column's).
            const long column = std::lround(std::floor(x0));
            if (column == lastColumn && !kernel.extra) {
                ++m_merged;
                continue;
            }
            lastColumn = column;
            painter.fillRect(QRectF(static_cast<double>(column), body, 1, height), typeColor(kernel.type));
            if (kernel.extra)
                painter.fillRect(QRectF(static_cast<double>(column), laneRect.top(), 1, kExtraMarkHeight), extraColor);
            ++m_drawn;
            continue;
        }
        const QRectF rect(x0, body, x1 - x0, height);
        painter.fillRect(rect, typeColor(kernel.type));
        if (rect.width() >= 4) {
            painter.setPen(outline);
            painter.drawRect(rect.adjusted(0, 0, -0.5, -0.5));
        }
        if (kernel.extra)
            painter.fillRect(QRectF(x0, laneRect.top(), x1 - x0, kExtraMarkHeight), extraColor);
        if (rect.width() >= 48)
            labelled.emplace_back(rect, static_cast<int>(i));
        lastColumn = std::lround(std::floor(x1));
        ++m_drawn;
    }
    // Names inside the kernels wide enough for some of it; dark text on the light type colours.
    painter.setPen(isDarkPalette(palette) ? QColor(Qt::white) : QColor(Qt::black));
    const QFontMetrics metrics(painter.font());
    for (const auto& [rect, index] : labelled) {
        const TimelineKernel& kernel = lane.kernels[static_cast<size_t>(index)];
        const QRectF inner = rect.adjusted(3, 0, -3, 0).intersected(laneRect);
        painter.drawText(inner, Qt::AlignLeft | Qt::AlignVCenter,
            metrics.elidedText(shownName(side, kernel.name), Qt::ElideMiddle, static_cast<int>(inner.width())));
    }
    paintSteps(painter, side, laneRect);
    paintMarks(painter, side, laneRect);
    if (m_selectedSide == side && m_selectedKernel >= 0
        && static_cast<size_t>(m_selectedKernel) < lane.kernels.size()) {
        const TimelineKernel& kernel = lane.kernels[static_cast<size_t>(m_selectedKernel)];
        const double x0 = xOf(kernel.start, laneRect);
        const double x1 = std::max(x0 + 2, xOf(kernel.start + kernel.duration, laneRect));
        painter.setPen(QPen(palette.color(QPalette::Highlight), 2));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(QRectF(x0 - 1, laneRect.top() + 1, x1 - x0 + 2, laneRect.height() - 2));
    }
    // The lane's name over its top left corner.
    const QString title = laneHeading(side);
    const QRectF titleRect(laneRect.left() + 4, laneRect.top() + kExtraMarkHeight + 1,
        std::min<double>(std::ceil(metrics.horizontalAdvance(title)) + 12, laneRect.width() - 8), metrics.height() + 2);
    QColor titleBackground = palette.color(QPalette::Base);
    titleBackground.setAlpha(210);
    painter.fillRect(titleRect, titleBackground);
    painter.setPen(palette.color(QPalette::Text));
    painter.drawText(titleRect.adjusted(4, 0, -4, 0), Qt::AlignLeft | Qt::AlignVCenter,
        metrics.elidedText(title, Qt::ElideMiddle, static_cast<int>(titleRect.width() - 8)));
    painter.restore();
}

void TimelineView::paintGaps(QPainter& painter, int side, const QRectF& laneRect)
{
    const std::vector<TimelineGap>& gaps = m_data.lanes[static_cast<size_t>(side)].gaps;
    if (gaps.empty())
        return;
    // A tint of the cause's colour over the lane's body (kernels are drawn over it, and never
    // share time with a gap), and the full colour along the lane's foot, where it reads at a glance.
    const QColor base = palette().color(QPalette::Base);
    const double tint = isDarkPalette(palette()) ? 0.42 : 0.30;
    std::array<QColor, kIdleCauses> shade;
    for (size_t cause = 0; cause < kIdleCauses; ++cause)
        shade[cause] = blend(base, idleCauseColor(static_cast<IdleCause>(cause)), tint);
    const double body = laneRect.top() + kExtraMarkHeight + 1;
    const double foot = laneRect.bottom() - kGapFootHeight;
    const double visibleFrom = m_start;
    const double visibleTo = m_start + laneRect.width() * m_usPerPixel;
    auto it = std::lower_bound(gaps.begin(), gaps.end(), visibleFrom,
        [](const TimelineGap& gap, double value) { return gap.start + gap.duration < value; });
    long lastColumn = std::numeric_limits<long>::min();
    for (; it != gaps.end() && it->start <= visibleTo; ++it) {
        const double x0 = xOf(it->start, laneRect);
        const double x1 = xOf(it->start + it->duration, laneRect);
        const size_t cause = static_cast<size_t>(it->cause);
        if (x1 - x0 < 1) {
            // Sub-pixel gaps: one per pixel column, as for kernels.
            const long column = std::lround(std::floor(x0));
            if (column == lastColumn)
                continue;
            lastColumn = column;
            painter.fillRect(QRectF(static_cast<double>(column), foot, 1, kGapFootHeight), idleCauseColor(it->cause));
            ++m_drawnGaps;
            continue;
        }
        painter.fillRect(QRectF(x0, body, x1 - x0, foot - body), shade[cause]);
        painter.fillRect(QRectF(x0, foot, x1 - x0, kGapFootHeight), idleCauseColor(it->cause));
        lastColumn = std::lround(std::floor(x1));
        ++m_drawnGaps;
    }
}

void TimelineView::paintNotRecorded(QPainter& painter, int side, const QRectF& laneRect) const
{
    // Busy GPU time without kernel records: hatched, and named where it is wide enough, so that a
    // lane that stops early is not read as a GPU that finished early.
    const TimelineLane& lane = m_data.lanes[static_cast<size_t>(side)];
    if (lane.notRecorded.empty())
        return;
    const QPalette palette = this->palette();
    const QColor text = palette.color(QPalette::Text);
    const double body = laneRect.top() + kExtraMarkHeight + 1;
    const QFontMetrics metrics(font());
    painter.save();
    for (const TimelineGap& span : lane.notRecorded) {
        const double x0 = std::max(xOf(span.start, laneRect), laneRect.left());
        const double x1 = std::min(xOf(span.start + span.duration, laneRect), laneRect.right());
        if (x1 <= x0)
            continue;
        const QRectF area(x0, body, std::max(x1 - x0, 1.0), laneRect.bottom() - body);
        painter.fillRect(area, blend(palette.color(QPalette::Base), text, 0.10));
        painter.fillRect(area, QBrush(blend(palette.color(QPalette::Base), text, 0.45), Qt::BDiagPattern));
        const QString label
            = tr("not recorded: %1 of GPU time without kernel records").arg(formatDuration(span.duration));
        const QString shortLabel = tr("not recorded %1").arg(formatDuration(span.duration));
        const int room = static_cast<int>(area.width()) - 8;
        const QString shown = metrics.horizontalAdvance(label) <= room ? label
            : metrics.horizontalAdvance(shortLabel) <= room            ? shortLabel
                                                                       : QString();
        if (shown.isEmpty())
            continue;
        const QRectF textRect(area.center().x() - metrics.horizontalAdvance(shown) / 2.0 - 4,
            area.center().y() - metrics.height() / 2.0 - 2, metrics.horizontalAdvance(shown) + 8, metrics.height() + 4);
        painter.fillRect(textRect, palette.color(QPalette::Base));
        painter.setPen(text);
        painter.drawText(textRect, Qt::AlignCenter, shown);
    }
    painter.restore();
}

void TimelineView::paintMarks(QPainter& painter, int side, const QRectF& laneRect) const
{
    // Selected gaps and marked kernels: a frame in the highlight colour (at least 3 px wide, so
    // that a short one shows zoomed out), over the kernels but not filling them.
    const std::vector<int>& gaps = m_selectedGaps[static_cast<size_t>(side)];
    const std::vector<int>& kernels = m_markedKernels[static_cast<size_t>(side)];
    if (gaps.empty() && kernels.empty())
        return;
    const TimelineLane& lane = m_data.lanes[static_cast<size_t>(side)];
    const double visibleFrom = m_start;
    const double visibleTo = m_start + laneRect.width() * m_usPerPixel;
    painter.setPen(QPen(palette().color(QPalette::Highlight), 2));
    painter.setBrush(Qt::NoBrush);
    double lastRight = -1e18;
    const auto frame = [&](double start, double duration) {
        if (start + duration < visibleFrom || start > visibleTo)
            return;
        const double x0 = xOf(start, laneRect);
        const double x1 = std::max(x0 + 3, xOf(start + duration, laneRect));
        if (x1 <= lastRight)
            return; // one frame per few pixels, however many marks fall there
        lastRight = x1;
        painter.drawRect(QRectF(x0 - 1, laneRect.top() + 1, x1 - x0 + 2, laneRect.height() - 2));
    };
    // Both lists ascend in time: start at the first that can be in view.
    auto gap = std::lower_bound(gaps.begin(), gaps.end(), visibleFrom, [&](int index, double value) {
        const TimelineGap& g = lane.gaps[static_cast<size_t>(index)];
        return g.start + g.duration < value;
    });
    for (; gap != gaps.end() && lane.gaps[static_cast<size_t>(*gap)].start <= visibleTo; ++gap)
        frame(lane.gaps[static_cast<size_t>(*gap)].start, lane.gaps[static_cast<size_t>(*gap)].duration);
    lastRight = -1e18;
    const size_t from = firstKernelFrom(side, visibleFrom);
    for (auto kernel = std::lower_bound(kernels.begin(), kernels.end(), static_cast<int>(from));
         kernel != kernels.end() && lane.kernels[static_cast<size_t>(*kernel)].start <= visibleTo; ++kernel)
        frame(lane.kernels[static_cast<size_t>(*kernel)].start, lane.kernels[static_cast<size_t>(*kernel)].duration);
}

void TimelineView::paintConnectors(QPainter& painter, const Geometry& geometry) const
{
    if (m_data.connectors.empty())
        return;
    const TimelineLane& a = m_data.lanes[0];
    const TimelineLane& b = m_data.lanes[1];
    const QRectF band = geometry.connectors;
    const double left = band.left();
    const double right = band.right();
    QList<QLineF> lines;
    double lastA = -1e18;
    double lastB = -1e18;
    for (const TimelineConnector& connector : m_data.connectors) {
        const TimelineKernel& ka = a.kernels[static_cast<size_t>(connector.a)];
        const TimelineKernel& kb = b.kernels[static_cast<size_t>(connector.b)];
        const double xa = xOf(ka.start + ka.duration / 2, band);
        const double xb = xOf(kb.start + kb.duration / 2, band);
        if ((xa < left && xb < left) || (xa > right && xb > right))
            continue;
        // One line per pair of pixel columns: thousands of pairs in a few pixels draw as one.
        if (std::abs(xa - lastA) < 1 && std::abs(xb - lastB) < 1)
            continue;
        lastA = xa;
        lastB = xb;
        lines.append(QLineF(xa, band.top(), xb, band.bottom()));
    }
    painter.save();
    painter.setClipRect(band.adjusted(0, -1, 0, 1));
    painter.setPen(QPen(blend(palette().color(QPalette::Base), palette().color(QPalette::Text), 0.35), 1));
    painter.drawLines(lines);
    painter.restore();
}

} // namespace fusiondiff::ui
