#include "efficiency/rooflinechart.h"

#include "charts/chartrendering.h"
#include "display/colors.h"
#include "display/formatting.h"
#include "display/sidenames.h"
#include "model/fusionreport.h"

#include <QChart>
#include <QEvent>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace fusiondiff::ui {

namespace {

constexpr qreal kMarkerSize = 9;
constexpr qreal kSelectedMarkerSize = 15;

QString sideLetter(size_t side)
{
    return side == 0 ? QStringLiteral("A") : QStringLiteral("B");
}

// The row's place on the x axis: FLOPs per byte, where it has both.
double intensityOf(const EfficiencyRow& row)
{
    return row.flops > 0 && row.bytes > 0 ? row.flops / row.bytes : -1;
}

// A log axis's range around [low, high]: whole decades, so that its labels are round numbers.
std::pair<double, double> decadesAround(double low, double high)
{
    return { std::pow(10.0, std::floor(std::log10(low))), std::pow(10.0, std::ceil(std::log10(high))) };
}

} // namespace

RooflineChart::RooflineChart(QWidget* parent)
    : QChartView(new QChart, parent)
    , m_x(new QLogValueAxis)
    , m_y(new QLogValueAxis)
{
    setRenderHint(QPainter::Antialiasing);
    chart()->legend()->setAlignment(Qt::AlignBottom);
    chart()->setMargins(QMargins(4, 4, 4, 4));
    m_x->setTitleText(tr("Intensity (FLOP/byte)"));
    m_y->setTitleText(tr("Achieved TFLOPS"));
    for (QLogValueAxis* axis : { m_x, m_y }) {
        axis->setBase(10);
        axis->setLabelFormat(QStringLiteral("%g"));
        axis->setMinorTickCount(-1);
    }
    chart()->addAxis(m_x, Qt::AlignBottom);
    chart()->addAxis(m_y, Qt::AlignLeft);
    applyPalette();
    rebuild();
}

void RooflineChart::changeEvent(QEvent* event)
{
    QChartView::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        applyPalette();
}

void RooflineChart::applyPalette()
{
    applyChartPalette(*this, { m_x, m_y });
    updateSelection();
}

void RooflineChart::setRows(std::shared_ptr<const FusionReport> report, const QList<int>& rows)
{
    m_report = std::move(report);
    m_rows = rows;
    m_selected.clear();
    rebuild();
}

void RooflineChart::setSelectedRows(const QList<int>& rows)
{
    // Not QList's ==: Qt 6.4 compares two empty lists with memcmp on a null pointer (UBSan).
    if (std::ranges::equal(rows, m_selected))
        return;
    m_selected = rows;
    updateSelection();
}

QPointF RooflineChart::pointOf(int row, int side) const
{
    const QScatterSeries* points = m_points[static_cast<size_t>(side)];
    const std::vector<int>& rows = m_pointRows[static_cast<size_t>(side)];
    for (size_t i = 0; points && i < rows.size(); ++i) {
        if (rows[i] == row)
            return points->at(static_cast<int>(i));
    }
    return {};
}

int RooflineChart::rowAt(int side, const QPointF& value) const
{
    const QScatterSeries* points = m_points[static_cast<size_t>(side)];
    const std::vector<int>& rows = m_pointRows[static_cast<size_t>(side)];
    int best = -1;
    double bestDistance = std::numeric_limits<double>::infinity();
    for (size_t i = 0; points && i < rows.size(); ++i) {
        const QPointF point = points->at(static_cast<int>(i));
        // On log axes: the distance in decades.
        const double distance
            = std::hypot(std::log10(point.x() / value.x()), std::log10(point.y() / std::max(value.y(), 1e-12)));
        if (distance < bestDistance) {
            bestDistance = distance;
            best = rows[i];
        }
    }
    return best;
}

void RooflineChart::hideFromLegend(QLineSeries* series)
{
    for (QLegendMarker* marker : chart()->legend()->markers(series))
        marker->setVisible(false);
}

void RooflineChart::rebuild()
{
    chart()->removeAllSeries();
    m_links.clear();
    m_plotted.clear();
    m_points = {};
    m_selectedPoints = {};
    for (std::vector<int>& rows : m_pointRows)
        rows.clear();
    if (!m_report)
        return;
    const std::vector<EfficiencyRow>& rows = m_report->efficiency.rows;

    double xMin = std::numeric_limits<double>::infinity();
    double xMax = 0;
    double yMin = std::numeric_limits<double>::infinity();
    double yMax = 0;
    for (size_t side = 0; side < 2; ++side) {
        auto* points = new QScatterSeries;
        const std::string& gpu = m_report->efficiency.gpus[side].gpu;
        points->setName(tr("%1 %2").arg(sideLetter(side), gpu.empty() ? tr("(GPU unknown)") : toQString(gpu)));
        points->setMarkerShape(side == 0 ? QScatterSeries::MarkerShapeCircle : QScatterSeries::MarkerShapeRectangle);
        points->setMarkerSize(kMarkerSize);
        points->setColor(sideColor(static_cast<int>(side)));
        points->setBorderColor(sideColor(static_cast<int>(side)).darker(130));
        m_points[side] = points;
    }
    for (const int row : m_rows) {
        if (row < 0 || static_cast<size_t>(row) >= rows.size())
            continue;
        const EfficiencyRow& entry = rows[static_cast<size_t>(row)];
        const double x = intensityOf(entry);
        if (x <= 0)
            continue;
        std::array<QPointF, 2> ends;
        int drawn = 0;
        for (size_t side = 0; side < 2; ++side) {
            const double y = entry.sides[side].tflops;
            if (y <= 0)
                continue;
            ends[static_cast<size_t>(drawn++)] = QPointF(x, y);
            m_points[side]->append(x, y);
            m_pointRows[side].push_back(row);
            yMin = std::min(yMin, y);
            yMax = std::max(yMax, y);
        }
        if (drawn == 0)
            continue;
        xMin = std::min(xMin, x);
        xMax = std::max(xMax, x);
        m_plotted.append(row);
        auto* link = new QLineSeries;
        link->append(ends[0]);
        link->append(drawn == 2 ? ends[1] : ends[0]);
        link->setProperty("row", row);
        m_links.push_back(link);
    }

    m_roofDtype = chooseRoofDataType();
    for (size_t side = 0; side < 2; ++side) {
        m_roofs[side] = {};
        if (m_roofDtype.isEmpty())
            continue;
        for (const EfficiencyRow& entry : rows) {
            const EfficiencySide& of = entry.sides[side];
            if (toQString(entry.dtype) == m_roofDtype && of.peakTflops > 0 && of.peakTbps > 0) {
                m_roofs[side] = QPointF(of.peakTbps, of.peakTflops);
                break;
            }
        }
        if (m_roofs[side].y() > 0) {
            const double ridge = m_roofs[side].y() / m_roofs[side].x();
            xMin = std::min(xMin, ridge);
            xMax = std::max(xMax, ridge);
            yMax = std::max(yMax, m_roofs[side].y());
        }
    }
    if (m_plotted.isEmpty()) {
        // Nothing to plot: the point series never join the chart, which would own them.
        for (QScatterSeries*& points : m_points) {
            delete points;
            points = nullptr;
        }
        chart()->setTitle({});
        return;
    }
    const auto [x0, x1] = decadesAround(xMin / 1.2, xMax * 1.2);
    const auto [y0, y1] = decadesAround(yMin / 1.6, yMax * 1.2);
    m_x->setRange(x0, x1);
    m_y->setRange(y0, y1);
    for (QLineSeries* link : m_links) {
        chart()->addSeries(link);
        link->attachAxis(m_x);
        link->attachAxis(m_y);
        hideFromLegend(link);
    }
    addRoofs(x0, x1);
    for (size_t side = 0; side < 2; ++side) {
        chart()->addSeries(m_points[side]);
        m_points[side]->attachAxis(m_x);
        m_points[side]->attachAxis(m_y);
        connect(m_points[side], &QScatterSeries::clicked, this,
            [this, side](const QPointF& value) { reportClick(static_cast<int>(side), value); });
    }
    for (size_t side = 0; side < 2; ++side) {
        auto* selected = new QScatterSeries;
        selected->setMarkerShape(m_points[side]->markerShape());
        selected->setMarkerSize(kSelectedMarkerSize);
        chart()->addSeries(selected);
        selected->attachAxis(m_x);
        selected->attachAxis(m_y);
        for (QLegendMarker* marker : chart()->legend()->markers(selected))
            marker->setVisible(false);
        connect(selected, &QScatterSeries::clicked, this,
            [this, side](const QPointF& value) { reportClick(static_cast<int>(side), value); });
        m_selectedPoints[side] = selected;
    }
    updateSelection();
    fitToSize();
}

void RooflineChart::resizeEvent(QResizeEvent* event)
{
    QChartView::resizeEvent(event);
    fitToSize();
}

void RooflineChart::fitToSize()
{
    // A label every decade where they have room, else every other one (a narrow or short chart).
    const QRectF plot = chart()->plotArea();
    const double room = 6 * fontMetrics().averageCharWidth();
    const auto fit = [room](QLogValueAxis* axis, double length) {
        const double decades = std::log10(axis->max() / axis->min());
        axis->setBase(decades > 0 && length > 0 && length / decades < room ? 100 : 10);
    };
    fit(m_x, plot.width());
    fit(m_y, plot.height() * 2.5); // labels are shorter than they are wide
    // The roofs' entries where the chart has room for four; the note under it describes them too.
    const bool roomy = width() >= 4 * fontMetrics().horizontalAdvance(QStringLiteral("A roof bf16 ....."));
    for (QAbstractSeries* series : chart()->series()) {
        if (series->property("roof").toBool()) {
            for (QLegendMarker* marker : chart()->legend()->markers(series))
                marker->setVisible(roomy);
        }
    }
}

void RooflineChart::reportClick(int side, const QPointF& value)
{
    const int row = rowAt(side, value);
    // Queued: the selection it leads to can redraw the chart, the clicked series with it.
    if (row >= 0)
        QMetaObject::invokeMethod(
            this, [this, row] { emit rowClicked(row); }, Qt::QueuedConnection);
}

QString RooflineChart::chooseRoofDataType() const
{
    const std::vector<EfficiencyRow>& rows = m_report->efficiency.rows;
    for (const int row : m_selected) {
        if (m_plotted.contains(row))
            return toQString(rows[static_cast<size_t>(row)].dtype);
    }
    // The data type of the plotted rows with the most time at stake.
    std::map<std::string, double> stake;
    for (const int row : m_plotted)
        stake[rows[static_cast<size_t>(row)].dtype] += std::fabs(rows[static_cast<size_t>(row)].stakeUs);
    const auto most = std::max_element(
        stake.begin(), stake.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
    return most == stake.end() ? QString() : toQString(most->first);
}

void RooflineChart::addRoofs(double xMin, double xMax)
{
    for (size_t side = 0; side < 2; ++side) {
        auto* roof = new QLineSeries;
        const QString gpu = toQString(m_report->efficiency.gpus[side].gpu);
        const QPointF peaks = m_roofs[side];
        if (peaks.y() <= 0) {
            roof->setName(gpu.isEmpty() ? tr("%1: no roof").arg(sideLetter(side))
                                        : tr("%1: no %2 peak").arg(sideLetter(side), m_roofDtype));
        } else {
            const double bandwidth = peaks.x();
            const double peak = peaks.y();
            const double ridge = peak / bandwidth;
            roof->append(xMin, std::min(bandwidth * xMin, peak));
            if (ridge > xMin && ridge < xMax)
                roof->append(ridge, peak);
            roof->append(xMax, std::min(bandwidth * xMax, peak));
            roof->setName(tr("%1 roof %2").arg(sideLetter(side), m_roofDtype));
        }
        QPen pen(sideColor(static_cast<int>(side)));
        pen.setStyle(Qt::DashLine);
        pen.setWidthF(2);
        roof->setPen(pen);
        chart()->addSeries(roof);
        roof->attachAxis(m_x);
        roof->attachAxis(m_y);
        // Named in the legend of a wide chart only: the points' entries must fit a narrow one.
        roof->setProperty("roof", true);
    }
}

void RooflineChart::updateSelection()
{
    if (!m_report || m_plotted.isEmpty())
        return;
    // The roofs follow the selected row's data type.
    if (chooseRoofDataType() != m_roofDtype) {
        rebuild();
        return;
    }
    const QColor text = palette().color(QPalette::Text);
    const QColor background = palette().color(QPalette::Base);
    for (QLineSeries* link : m_links) {
        const bool selected = m_selected.contains(link->property("row").toInt());
        QPen pen(selected ? text : blend(background, text, 0.45));
        pen.setWidthF(selected ? 2.5 : 1);
        link->setPen(pen);
    }
    for (size_t side = 0; side < 2; ++side) {
        QList<QPointF> points;
        for (size_t i = 0; i < m_pointRows[side].size(); ++i) {
            if (m_selected.contains(m_pointRows[side][i]))
                points.append(m_points[side]->at(static_cast<int>(i)));
        }
        QScatterSeries* selected = m_selectedPoints[side];
        selected->setColor(sideSelectedColor(static_cast<int>(side)));
        selected->setBorderColor(text);
        selected->replace(points);
    }
}

} // namespace fusiondiff::ui
