#include "timeline/timelineview.h"

#include "export/imageexport.h"

#include <algorithm>
#include <cmath>
#include <limits>

// The view's time range, its layout, and the kernels and gaps it marks or selects (painting:
// timelinepainting.cpp; hovering: timelinetooltips.cpp; the pointer and keys: timelineinput.cpp).

namespace fusiondiff::ui {

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
    m_setRange = std::pair(start, end);
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
    m_setRange.reset();
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
    m_setRange.reset();
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

void TimelineView::setSelectedKernel(int side, int kernel)
{
    m_selectedSide = side;
    m_selectedKernel = kernel;
    update();
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
                m_setRange.reset();
                clampRange();
            }
            update();
            return;
        }
    }
}

QString TimelineView::saveImage(const QString& path)
{
    return writeImage(path,
        { size(), devicePixelRatioF(), m_data.lanes[0].title + QStringLiteral(" vs ") + m_data.lanes[1].title,
            [this](QPainter& painter) { paint(painter, size()); } });
}

} // namespace fusiondiff::ui
