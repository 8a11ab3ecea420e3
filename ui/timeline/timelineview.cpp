#include "timeline/timelineview.h"

#include "display/colors.h"
#include "display/formatting.h"
#include "display/idlecolors.h"
#include "display/kernelnames.h"
#include "export/imageexport.h"

#include <QAbstractItemView>
#include <QAction>
#include <QApplication>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QLineEdit>
#include <QMouseEvent>
#include <QPainter>
#include <QTimer>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <limits>

namespace fusiondiff::ui {

namespace {

constexpr double kRulerHeight = 20;
constexpr double kMargin = 6;
constexpr double kExtraMarkHeight = 4;
constexpr double kMinUsPerPixel = 1e-4; // 0.1 ns a pixel
constexpr double kHitTolerancePx = 2;
constexpr double kGapFootHeight = 3;

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

TimelineView::TimelineView(QWidget* parent)
    : QWidget(parent)
{
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    addKeyActions();
}

void TimelineView::setData(TimelineData timeline)
{
    m_data = std::move(timeline);
    for (size_t side = 0; side < 2; ++side)
        m_shownNames[side].assign(static_cast<size_t>(m_data.lanes[side].names.size()), QString());
    m_selectedSide = -1;
    m_selectedKernel = -1;
    m_selectedGaps = {};
    m_markedKernels = {};
    fitAll();
}

double TimelineView::plotWidth() const
{
    return std::max(1.0, width() - 2 * kMargin);
}

double TimelineView::visibleEnd() const
{
    return m_start + plotWidth() * m_usPerPixel;
}

void TimelineView::setVisibleRange(double start, double end)
{
    if (end <= start)
        return;
    m_start = start;
    m_usPerPixel = std::max(kMinUsPerPixel, (end - start) / plotWidth());
    m_fitted = false;
    clampRange();
    update();
}

void TimelineView::fitAll()
{
    const double end = m_data.end();
    m_start = 0;
    m_usPerPixel = end > 0 ? std::max(kMinUsPerPixel, end / plotWidth()) : 1.0;
    m_fitted = true;
    update();
}

void TimelineView::clampRange()
{
    const double end = std::max(m_data.end(), 1e-3);
    const double span = plotWidth() * m_usPerPixel;
    // Never zoomed out beyond everything, nor panned more than a tenth of the view past either end.
    if (span > end * 1.2) {
        m_usPerPixel = end * 1.2 / plotWidth();
        m_start = -end * 0.1;
        return;
    }
    m_start = std::clamp(m_start, -0.1 * span, end - 0.9 * span);
}

void TimelineView::zoomAt(double factor, double x)
{
    const double anchor = timeAt(x);
    m_usPerPixel = std::max(kMinUsPerPixel, m_usPerPixel / factor);
    m_start = anchor - (x - kMargin) * m_usPerPixel;
    m_fitted = false;
    clampRange();
    update();
}

double TimelineView::timeAt(double x) const
{
    return m_start + (x - kMargin) * m_usPerPixel;
}

double TimelineView::xOf(double time, const QRectF& lane) const
{
    return lane.left() + (time - m_start) / m_usPerPixel;
}

double TimelineView::rulerHeight() const
{
    return std::max(kRulerHeight, fontMetrics().height() + 6.0);
}

QSize TimelineView::minimumSizeHint() const
{
    // Each lane a line and a half of text tall (its title and the names drawn in its kernels),
    // whatever the font, with the ruler above and the band of connectors between them.
    const double line = fontMetrics().height();
    const double lanes = 2 * std::ceil(1.5 * line) + 16;
    return { 200, static_cast<int>(std::ceil(2 + rulerHeight() + 4 + lanes / (1 - 0.22) + kMargin)) };
}

TimelineView::Geometry TimelineView::geometryFor(const QSize& size) const
{
    Geometry geometry;
    const double width = size.width() - 2 * kMargin;
    geometry.ruler = QRectF(kMargin, 2, width, rulerHeight());
    const double top = geometry.ruler.bottom() + 4;
    const double available = std::max(40.0, size.height() - top - kMargin);
    const double band = std::clamp(available * 0.22, 16.0, 56.0);
    const double lane = std::max(12.0, (available - band) / 2);
    geometry.lanes[0] = QRectF(kMargin, top, width, lane);
    geometry.connectors = QRectF(kMargin, top + lane, width, band);
    geometry.lanes[1] = QRectF(kMargin, top + lane + band, width, lane);
    return geometry;
}

int TimelineView::laneAt(QPointF position) const
{
    const Geometry geometry = geometryFor(size());
    for (int side = 0; side < 2; ++side) {
        if (geometry.lanes[static_cast<size_t>(side)].contains(position))
            return side;
    }
    return -1;
}

size_t TimelineView::firstKernelFrom(int side, double time) const
{
    const TimelineLane& lane = m_data.lanes[static_cast<size_t>(side)];
    const double from = time - lane.maxDuration;
    return static_cast<size_t>(std::lower_bound(lane.kernels.begin(), lane.kernels.end(), from,
                                   [](const TimelineKernel& kernel, double value) { return kernel.start < value; })
        - lane.kernels.begin());
}

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

void TimelineView::setSelectedKernel(int side, int kernel)
{
    m_selectedSide = side;
    m_selectedKernel = kernel;
    update();
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

void TimelineView::setSelectedGaps(std::array<std::vector<int>, 2> gaps)
{
    double first = std::numeric_limits<double>::infinity();
    double end = 0;
    for (size_t side = 0; side < 2; ++side) {
        std::vector<int>& selected = gaps[side];
        const std::vector<TimelineGap>& lane = m_data.lanes[side].gaps;
        selected.erase(std::remove_if(selected.begin(), selected.end(),
                           [&](int gap) { return gap < 0 || static_cast<size_t>(gap) >= lane.size(); }),
            selected.end());
        std::sort(selected.begin(), selected.end());
        if (!selected.empty() && lane[static_cast<size_t>(selected.front())].start < first) {
            first = lane[static_cast<size_t>(selected.front())].start;
            end = first + lane[static_cast<size_t>(selected.front())].duration;
        }
    }
    m_selectedGaps = std::move(gaps);
    if (std::isfinite(first))
        bringIntoView(first, end);
    update();
}

void TimelineView::setMarkedKernels(std::array<std::vector<int>, 2> kernels)
{
    double first = std::numeric_limits<double>::infinity();
    double last = -std::numeric_limits<double>::infinity();
    for (size_t side = 0; side < 2; ++side) {
        std::vector<int>& marked = kernels[side];
        const std::vector<TimelineKernel>& lane = m_data.lanes[side].kernels;
        marked.erase(std::remove_if(marked.begin(), marked.end(),
                         [&](int kernel) { return kernel < 0 || static_cast<size_t>(kernel) >= lane.size(); }),
            marked.end());
        std::sort(marked.begin(), marked.end());
        marked.erase(std::unique(marked.begin(), marked.end()), marked.end());
        for (const int index : marked) {
            const TimelineKernel& kernel = lane[static_cast<size_t>(index)];
            first = std::min(first, kernel.start);
            last = std::max(last, kernel.start + kernel.duration);
        }
    }
    m_markedKernels = std::move(kernels);
    if (std::isfinite(first))
        bringIntoView(first, last);
    update();
}

void TimelineView::bringIntoView(double start, double end)
{
    // The marked time in the middle third, at least 20 us of view, never more than everything.
    const double span = std::max({ (end - start) * 3, 20.0, 3 * kMinUsPerPixel * plotWidth() });
    const double middle = (start + end) / 2;
    setVisibleRange(middle - span / 2, middle + span / 2);
}

void TimelineView::selectRow(int row)
{
    for (int side = 0; side < 2; ++side) {
        const std::vector<TimelineKernel>& kernels = m_data.lanes[static_cast<size_t>(side)].kernels;
        for (size_t i = 0; i < kernels.size(); ++i) {
            if (kernels[i].row != row)
                continue;
            setSelectedKernel(side, static_cast<int>(i));
            const TimelineKernel& kernel = kernels[i];
            if (kernel.start + kernel.duration < m_start || kernel.start > visibleEnd()) {
                const double span = visibleEnd() - m_start;
                m_start = kernel.start + kernel.duration / 2 - span / 2;
                clampRange();
            }
            update();
            return;
        }
    }
}

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

bool TimelineView::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const int side = laneAt(help->pos());
        const int kernel = kernelAt(side, help->pos());
        const int gap = kernel < 0 ? gapAt(side, help->pos()) : -1;
        const int notRecorded = kernel < 0 && gap < 0 ? notRecordedAt(side, help->pos()) : -1;
        if (kernel >= 0)
            QToolTip::showText(help->globalPos(), kernelToolTip(side, kernel), this);
        else if (gap >= 0)
            QToolTip::showText(help->globalPos(), gapToolTip(side, gap), this);
        else if (notRecorded >= 0)
            QToolTip::showText(help->globalPos(), notRecordedToolTip(side, notRecorded), this);
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
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

void TimelineView::wheelEvent(QWheelEvent* event)
{
    const QPoint delta = event->angleDelta();
    if (delta.x() != 0 && delta.y() == 0) {
        m_start -= delta.x() / 120.0 * 60 * m_usPerPixel;
        m_fitted = false;
        clampRange();
        update();
    } else if (delta.y() != 0) {
        zoomAt(std::pow(1.0015, delta.y()), event->position().x());
    }
    event->accept();
}

void TimelineView::mousePressEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton)
        return QWidget::mousePressEvent(event);
    m_dragging = false;
    m_pressPosition = event->position();
    m_pressStart = m_start;
    event->accept();
}

void TimelineView::mouseMoveEvent(QMouseEvent* event)
{
    if (!(event->buttons() & Qt::LeftButton))
        return;
    const double dx = event->position().x() - m_pressPosition.x();
    if (!m_dragging && std::abs(dx) < 3)
        return;
    m_dragging = true;
    setCursor(Qt::ClosedHandCursor);
    m_start = m_pressStart - dx * m_usPerPixel;
    m_fitted = false;
    clampRange();
    update();
}

void TimelineView::mouseReleaseEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton)
        return;
    unsetCursor();
    if (m_dragging) {
        m_dragging = false;
        return;
    }
    const int side = laneAt(event->position());
    const int kernel = kernelAt(side, event->position());
    if (kernel < 0)
        return;
    setSelectedKernel(side, kernel);
    emit kernelClicked(side, kernel, m_data.lanes[static_cast<size_t>(side)].kernels[static_cast<size_t>(kernel)].row);
}

void TimelineView::mouseDoubleClickEvent(QMouseEvent*)
{
    fitAll();
}

void TimelineView::panBy(double fraction)
{
    m_start += fraction * plotWidth() * m_usPerPixel;
    m_fitted = false;
    clampRange();
    update();
}

void TimelineView::addKeyActions()
{
    // Actions, not a keyPressEvent: Help > Keyboard Shortcuts lists them from here.
    const auto add = [this](const QString& text, const QList<QKeySequence>& keys, auto slot) {
        auto* action = new QAction(text, this);
        action->setShortcuts(keys);
        action->setShortcutContext(Qt::WidgetShortcut);
        connect(action, &QAction::triggered, this, slot);
        addAction(action);
    };
    add(tr("Timeline: zoom in"), { QKeySequence(Qt::Key_Plus), QKeySequence(Qt::Key_Equal) },
        [this] { zoomAt(1.5, width() / 2.0); });
    add(tr("Timeline: zoom out"), { QKeySequence(Qt::Key_Minus) }, [this] { zoomAt(1 / 1.5, width() / 2.0); });
    add(tr("Timeline: show every kernel"), { QKeySequence(Qt::Key_0), QKeySequence(Qt::Key_Home) },
        [this] { fitAll(); });
    add(tr("Timeline: pan left"), { QKeySequence(Qt::Key_Left) }, [this] { panBy(-0.2); });
    add(tr("Timeline: pan right"), { QKeySequence(Qt::Key_Right) }, [this] { panBy(0.2); });
}

void TimelineView::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    // Its keys work as soon as it is shown (its tab switched to), not after a click; after the
    // event, since a tab widget moves the focus into the page it shows once the page is shown.
    // It leaves the focus where the user types (a search box) or moves through a table.
    if (event->spontaneous())
        return;
    QTimer::singleShot(0, this, [this] {
        const QWidget* focus = QApplication::focusWidget();
        const bool userIsThere = focus && focus->isVisible() && focus != this
            && (qobject_cast<const QLineEdit*>(focus) || qobject_cast<const QAbstractItemView*>(focus->parentWidget())
                || qobject_cast<const QAbstractItemView*>(focus));
        if (isVisible() && !userIsThere)
            setFocus(Qt::OtherFocusReason);
    });
}

void TimelineView::focusInEvent(QFocusEvent* event)
{
    QWidget::focusInEvent(event);
    update();
}

void TimelineView::focusOutEvent(QFocusEvent* event)
{
    QWidget::focusOutEvent(event);
    update();
}

void TimelineView::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    if (m_fitted)
        fitAll();
}

QString TimelineView::saveImage(const QString& path)
{
    return writeImage(path,
        { size(), devicePixelRatioF(), m_data.lanes[0].title + QStringLiteral(" vs ") + m_data.lanes[1].title,
            [this](QPainter& painter) { paint(painter, size()); } });
}

} // namespace fusiondiff::ui
