#pragma once

#include "timeline/timelinedata.h"

#include <QWidget>

#include <optional>
#include <utility>

class QPainter;

namespace fusiondiff::ui {

// Two lanes of kernels to scale, A above B, each from its own start, coloured by kernel type;
// kernels only one side runs marked in that side's dark colour above them, the kernels the
// alignment pairs joined by lines, the GPU's idle gaps (where the lane has them) shaded in their
// cause's colour under the kernels, with a strip of the full colour along the lane's foot. The wheel zooms
// around the pointer, dragging pans, hovering shows a kernel's full name, type and duration, and a
// click selects it (kernelClicked). It takes the focus when shown and draws a focus frame, so
// that its keys (+, -, 0, arrows: actions of its own) work without a click first. Painting visits only the kernels in
// view and draws at most one sub-pixel kernel per pixel column, so that 20,000 kernels a lane redraw within a frame.
class TimelineView : public QWidget
{
    Q_OBJECT
public:
    explicit TimelineView(QWidget* parent = nullptr);

    void setData(TimelineData timeline);
    // The heading drawn over a lane: its side, its kernels, its wall span and its kernel time.
    QString laneHeading(int side) const;
    const TimelineData& timeline() const { return m_data; }

    // The time shown, in microseconds from the lanes' starts.
    double visibleStart() const { return m_start; }
    double visibleEnd() const;
    void setVisibleRange(double start, double end);
    // Shows every kernel.
    void fitAll();
    // Zooms by `factor` (> 1: in) keeping the time under `x` (widget pixels) where it is.
    void zoomAt(double factor, double x);

    // The kernel of `side` drawn at `position`, -1 if none.
    int kernelAt(int side, QPointF position) const;
    // The lane at `position`: 0, 1 or -1.
    int laneAt(QPointF position) const;
    // What hovering a kernel shows.
    QString kernelToolTip(int side, int kernel) const;
    void setSelectedKernel(int side, int kernel);
    int selectedSide() const { return m_selectedSide; } // -1: none
    int selectedKernel() const { return m_selectedKernel; }

    // The idle gap of `side` at `position` (where no kernel is), -1 if none.
    int gapAt(int side, QPointF position) const;
    // What hovering a gap shows: its cause, its duration and the host code the core names for it.
    QString gapToolTip(int side, int gap) const;
    // The not recorded span of `side` at `position` (TimelineLane::notRecorded), -1 if none, and
    // what hovering it shows.
    int notRecordedAt(int side, QPointF position) const;
    QString notRecordedToolTip(int side, int span) const;
    // Marks gaps (indices into each lane's gaps) and brings the first of them into view; the
    // previous marks go.
    void setSelectedGaps(std::array<std::vector<int>, 2> gaps);
    const std::array<std::vector<int>, 2>& selectedGaps() const { return m_selectedGaps; }
    // Marks kernels (indices into each lane's kernels, any order) and brings them into view, from
    // the earliest to the latest on either lane.
    void setMarkedKernels(std::array<std::vector<int>, 2> kernels);
    const std::array<std::vector<int>, 2>& markedKernels() const { return m_markedKernels; }
    // Draws each lane `shifts[side]` later than its own start (TimelineLane::shift; timelinesteps.h
    // finds the shifts that start a step of A and of B together); marks and selections stay.
    void shiftLanes(const std::array<double, 2>& shifts);
    // Selects the kernel of `side` shown in side-by-side row `row`, and brings it into view.
    void selectRow(int row);

    // Writes the view as PNG or, for a name ending in .svg, SVG; returns an error text or "".
    QString saveImage(const QString& path);
    // Paints the view into `painter` over `size` (the widget's paint, and the image exports).
    void paint(QPainter& painter, const QSize& size);

    // Of the last paint: kernels drawn as rectangles, and those merged into a drawn pixel column.
    int drawnKernels() const { return m_drawn; }
    int drawnGaps() const { return m_drawnGaps; }
    int mergedKernels() const { return m_merged; }

    QColor typeColor(CategoryId type) const;

    QSize sizeHint() const override { return { 800, 180 }; }
    QSize minimumSizeHint() const override;

signals:
    // A click on a kernel: its side, its index in the lane and its side-by-side row (or -1).
    void kernelClicked(int side, int kernel, int row);

protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void focusInEvent(QFocusEvent* event) override;
    void focusOutEvent(QFocusEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    // Shared by the view's files (timelineview, timelinepainting, timelinetooltips, timelineinput.cpp).
    static constexpr double kRulerHeight = 20;
    static constexpr double kMargin = 6;
    static constexpr double kExtraMarkHeight = 4;
    static constexpr double kMinUsPerPixel = 1e-4; // 0.1 ns a pixel
    static constexpr double kHitTolerancePx = 2;
    static constexpr double kGapFootHeight = 3;

    struct Geometry
    {
        QRectF ruler;
        std::array<QRectF, 2> lanes;
        QRectF connectors;
    };
    Geometry geometryFor(const QSize& size) const;
    double rulerHeight() const;
    double xOf(double time, const QRectF& lane) const;
    double timeAt(double x) const;
    double plotWidth() const;
    void clampRange();
    void addKeyActions();
    // Moves the view by `fraction` of its width (negative: to the left).
    void panBy(double fraction);
    void paintRuler(QPainter& painter, const QRectF& ruler, const QRectF& plot) const;
    void paintLane(QPainter& painter, int side, const QRectF& lane);
    void paintGaps(QPainter& painter, int side, const QRectF& laneRect);
    void paintNotRecorded(QPainter& painter, int side, const QRectF& laneRect) const;
    void paintMarks(QPainter& painter, int side, const QRectF& laneRect) const;
    // Where each step begins, dashed across the lane and named at its foot (timelinesteps.cpp).
    void paintSteps(QPainter& painter, int side, const QRectF& laneRect) const;
    // Shows [start, end) with some time either side, at least `minimumSpan` wide.
    void bringIntoView(double start, double end);
    void paintConnectors(QPainter& painter, const Geometry& geometry) const;
    // The first kernel of `side` that can reach into time `time`.
    size_t firstKernelFrom(int side, double time) const;

    // A lane's names as shown in a kernel (shownKernelName), made when first drawn.
    const QString& shownName(int side, int name);

    TimelineData m_data;
    std::array<std::vector<QString>, 2> m_shownNames;
    double m_start = 0; // microseconds at the left edge of the plot
    double m_usPerPixel = 1;
    int m_selectedSide = -1;
    int m_selectedKernel = -1;
    bool m_dragging = false;
    QPointF m_pressPosition;
    double m_pressStart = 0;
    bool m_fitted = true; // the view shows everything: a resize keeps it that way
    // The range last set (setVisibleRange), until the user zooms or pans: a resize keeps showing it.
    // Set before the view has its size (a session restored into a hidden tab), it was set against
    // another width.
    std::optional<std::pair<double, double>> m_setRange;
    int m_drawn = 0;
    int m_merged = 0;
    int m_drawnGaps = 0;
    std::array<std::vector<int>, 2> m_selectedGaps; // ascending
    std::array<std::vector<int>, 2> m_markedKernels; // ascending
};

} // namespace fusiondiff::ui
