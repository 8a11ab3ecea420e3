#include "charts/layerchart.h"

#include "charts/chartrendering.h"
#include "display/colors.h"
#include "display/durationsapart.h"
#include "display/formatting.h"
#include "export/imageexport.h"

#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QCursor>
#include <QEvent>
#include <QFontMetrics>
#include <QGraphicsLayout>
#include <QLegend>
#include <QPainter>
#include <QStackedBarSeries>
#include <QToolTip>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <limits>

namespace fusiondiff::ui {

namespace {

constexpr qreal kBarWidth = 0.8;
constexpr int kLegendBesideWidth = 900;

QList<qreal> scaled(const QList<qreal>& values, qreal divisor, qreal low, qreal high)
{
    QList<qreal> result;
    result.reserve(values.size());
    for (const qreal value : values)
        result.append(std::clamp(value / divisor, low, high));
    return result;
}

} // namespace

LayerChart::LayerChart(QWidget* parent)
    : QChartView(new QChart, parent)
    , m_sideSeries(new QBarSeries)
    , m_differenceSeries(new QStackedBarSeries)
    , m_layerAxis(new QValueAxis)
    , m_valueAxis(new QValueAxis)
{
    QChart* chart = this->chart();
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setMargins(QMargins(4, 4, 4, 4));
    chart->layout()->setContentsMargins(0, 0, 0, 0);
    chart->setBackgroundRoundness(0);
    setRenderHint(QPainter::Antialiasing);
    setMinimumHeight(160);

    for (int side = 0; side < 2; ++side) {
        m_sideSets[static_cast<size_t>(side)] = newSet(side == 0 ? QStringLiteral("A") : QStringLiteral("B"), side);
        m_sideSeries->append(m_sideSets[static_cast<size_t>(side)]);
        m_differenceSets[static_cast<size_t>(side)]
            = newSet(side == 0 ? tr("A takes longer") : tr("B takes longer"), side);
        m_differenceSeries->append(m_differenceSets[static_cast<size_t>(side)]);
    }
    m_sideSeries->setBarWidth(kBarWidth);
    m_differenceSeries->setBarWidth(kBarWidth);

    // Bars sit at the layer's index: a value axis, not a category axis, so that its labels can be
    // thinned out (a category axis labels every layer, 180 labels on top of each other).
    m_layerAxis->setTickType(QValueAxis::TicksDynamic);
    m_layerAxis->setTickAnchor(0);
    m_layerAxis->setLabelFormat(QStringLiteral("%.0f"));
    m_layerAxis->setGridLineVisible(false);
    m_layerAxis->setMinorGridLineVisible(false);
    m_layerAxis->setTitleText(tr("Layer"));
    m_valueAxis->setLabelFormat(QStringLiteral("%g"));
    chart->addAxis(m_layerAxis, Qt::AlignBottom);
    chart->addAxis(m_valueAxis, Qt::AlignLeft);
    // One series in the chart at a time (showSeries): Qt Charts gives each bar series in a chart a
    // share of a category's width, hidden ones too.
    m_sideSeries->setParent(this);
    m_differenceSeries->setParent(this);
    applyPalette();
    rebuild();
}

LayerChart::~LayerChart()
{
    // The series not in the chart, while the chart and its axes still exist (the chart deletes the
    // other one).
    for (QAbstractBarSeries* series : std::initializer_list<QAbstractBarSeries*> { m_sideSeries, m_differenceSeries }) {
        if (!chart()->series().contains(series))
            delete series;
    }
}

QBarSet* LayerChart::newSet(const QString& label, int side)
{
    auto* set = new QBarSet(label);
    set->setColor(sideColor(side));
    set->setBorderColor(sideColor(side).darker(115));
    set->setSelectedColor(sideSelectedColor(side));
    connect(set, &QBarSet::hovered, this, [this](bool status, int index) {
        if (!status || index < 0 || index >= layerCount()) {
            QToolTip::hideText();
            return;
        }
        QToolTip::showText(QCursor::pos(), hoverText(index), this);
    });
    connect(set, &QBarSet::clicked, this, [this](int index) {
        if (index >= 0 && index < layerCount())
            emit layerClicked(index);
    });
    return set;
}

void LayerChart::changeEvent(QEvent* event)
{
    QChartView::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        applyPalette();
}

void LayerChart::resizeEvent(QResizeEvent* event)
{
    QChartView::resizeEvent(event);
    fitToSize();
}

void LayerChart::fitToSize()
{
    // A wide chart is short in a small window: its legend takes width rather than height there.
    // A narrow one (a small window at twice the scale) needs its width for the layers.
    const Qt::Alignment legend = width() >= kLegendBesideWidth ? Qt::AlignRight : Qt::AlignTop;
    if (chart()->legend()->alignment() != legend)
        chart()->legend()->setAlignment(legend);
    setNiceRange(m_valueRange.first, m_valueRange.second);
    updateLayerTicks();
}

void LayerChart::applyPalette()
{
    applyChartPalette(*this, { m_layerAxis, m_valueAxis });
}

QSize LayerChart::sizeHint() const
{
    return { 600, 300 };
}

QSize LayerChart::minimumSizeHint() const
{
    return { 240, 160 };
}

void LayerChart::setData(const std::array<QString, 2>& names, const QList<qreal>& timeUsA, const QList<qreal>& timeUsB)
{
    m_names = names;
    m_timeUs = { timeUsA, timeUsB };
    m_selected.clear();
    rebuildWhenShown();
}

void LayerChart::setMode(Mode mode)
{
    if (mode == m_mode)
        return;
    m_mode = mode;
    rebuildWhenShown();
}

void LayerChart::rebuildWhenShown()
{
    // Qt Charts lays a chart out whether or not it can be seen: a chart on a hidden page of a shown
    // window (new results while another tab is open) is built when it is shown. In a window that is
    // not shown (tests), at once.
    if (!isVisible() && window()->isVisible()) {
        m_rebuildPending = true;
        return;
    }
    rebuild();
}

void LayerChart::showEvent(QShowEvent* event)
{
    if (m_rebuildPending)
        rebuild();
    QChartView::showEvent(event);
}

QString LayerChart::valueTitle() const
{
    const QString unit = m_milliseconds ? QStringLiteral("ms") : QStringLiteral("us");
    switch (m_mode) {
    case Difference:
        return tr("B \u2212 A (%1)").arg(unit);
    case Relative:
        return tr("B \u2212 A (% of A)");
    case PerSide:
        break;
    }
    return tr("GPU time (%1)").arg(unit);
}

QList<qreal> LayerChart::barValues(int side)
{
    if (m_rebuildPending)
        rebuild();
    const std::array<QBarSet*, 2>& sets = m_mode == PerSide ? m_sideSets : m_differenceSets;
    QBarSet* set = sets[static_cast<size_t>(side)];
    QList<qreal> values;
    for (int i = 0; i < set->count(); ++i)
        values.append(set->at(i));
    return values;
}

void LayerChart::rebuild()
{
    m_rebuildPending = false;
    const int layers = layerCount();
    qreal largest = 0; // of the two sides' times
    QList<qreal> difference; // B − A, in µs or in % of A's time
    difference.reserve(layers);
    for (int i = 0; i < layers; ++i) {
        const qreal a = m_timeUs[0].value(i);
        const qreal b = m_timeUs[1].value(i);
        largest = std::max({ largest, a, b });
        if (m_mode == Relative)
            difference.append(a > 0 ? (b - a) / a * 100 : 0);
        else
            difference.append(b - a);
    }
    const auto [lowest, highest] = difference.isEmpty()
        ? std::pair<qreal, qreal>(0, 0)
        : std::pair<qreal, qreal>(std::min(0.0, *std::min_element(difference.begin(), difference.end())),
            std::max(0.0, *std::max_element(difference.begin(), difference.end())));
    m_milliseconds = (m_mode == PerSide ? largest : std::max(-lowest, highest)) >= 1000;
    const qreal divisor = m_milliseconds && m_mode != Relative ? 1000 : 1;

    for (int side = 0; side < 2; ++side) {
        const auto s = static_cast<size_t>(side);
        m_sideSets[s]->setLabel(m_names[s]);
        for (QBarSet* set : { m_sideSets[s], m_differenceSets[s] }) {
            set->deselectAllBars(); // QBarSet::remove forgets the selection without repainting
            set->remove(0, set->count());
        }
        m_sideSets[s]->append(scaled(m_timeUs[s], divisor, 0, std::numeric_limits<qreal>::max()));
    }
    // Each layer's difference on the set of the side that takes longer, the other set's bar empty.
    m_differenceSets[0]->append(scaled(difference, divisor, std::numeric_limits<qreal>::lowest(), 0));
    m_differenceSets[1]->append(scaled(difference, divisor, 0, std::numeric_limits<qreal>::max()));

    const bool showDifference = m_mode != PerSide;
    showSeries(showDifference ? static_cast<QAbstractBarSeries*>(m_differenceSeries) : m_sideSeries);

    m_layerAxis->setRange(-0.5, std::max(layers, 1) - 0.5);
    m_valueRange = showDifference ? std::pair(lowest / divisor, highest / divisor) : std::pair(0.0, largest / divisor);
    m_valueAxis->setTitleText(valueTitle());
    fitToSize();
    applySelection();
}

void LayerChart::showSeries(QAbstractBarSeries* shown)
{
    QChart* chart = this->chart();
    for (QAbstractBarSeries* series : std::initializer_list<QAbstractBarSeries*> { m_sideSeries, m_differenceSeries }) {
        if (series != shown && chart->series().contains(series)) {
            chart->removeSeries(series);
            series->setParent(this); // the chart let go of it
        }
    }
    if (!chart->series().contains(shown)) {
        chart->addSeries(shown);
        shown->attachAxis(m_layerAxis);
        shown->attachAxis(m_valueAxis);
    }
}

void LayerChart::setNiceRange(qreal low, qreal high)
{
    // Ticks every 1, 2 or 5 times a power of ten, at most five or six (fewer where the chart is
    // short: a label's height and more apart), the range a whole number of ticks around the values:
    // a small negative part gets one tick, not a fifth of the chart (QValueAxis::applyNiceNumbers
    // rounds each end to the tick of the whole span).
    const int labelHeight = QFontMetrics(m_valueAxis->labelsFont()).height();
    const int intervals = std::clamp((height() - 4 * labelHeight) / (2 * labelHeight), 1, 6);
    const qreal span = high - low > 0 ? high - low : 1;
    const qreal magnitude = std::pow(10.0, std::floor(std::log10(span / intervals)));
    qreal step = magnitude;
    for (const qreal factor : { 1.0, 2.0, 5.0, 10.0, 20.0 }) {
        step = factor * magnitude;
        if (span / step <= intervals)
            break;
    }
    const qreal bottom = std::floor(low / step) * step;
    const qreal top = std::max(std::ceil(high / step), std::floor(low / step) + 1) * step;
    m_valueAxis->setRange(bottom, top);
    m_valueAxis->setTickCount(static_cast<int>(std::lround((top - bottom) / step)) + 1);
}

void LayerChart::updateLayerTicks()
{
    const int layers = std::max(layerCount(), 1);
    const QFontMetrics metrics(m_layerAxis->labelsFont());
    const int labelWidth = metrics.horizontalAdvance(QString::number(layers - 1)) + metrics.averageCharWidth() * 3;
    // The plot area: less the value axis's labels and the legend.
    const int legend = chart()->legend()->alignment() == Qt::AlignRight ? 160 : 0;
    const int room = std::max(width() - 80 - legend, labelWidth);
    const int labels = std::max(room / labelWidth, 1);
    qreal step = 1;
    for (int decade = 1;; decade *= 10) {
        const auto fits = [&](int candidate) { return (layers + candidate - 1) / candidate <= labels; };
        if (fits(decade)) {
            step = decade;
            break;
        }
        if (fits(2 * decade)) {
            step = 2 * decade;
            break;
        }
        if (fits(5 * decade)) {
            step = 5 * decade;
            break;
        }
    }
    if (m_layerAxis->tickInterval() != step)
        m_layerAxis->setTickInterval(step);
}

QString LayerChart::hoverText(int layer) const
{
    const qreal a = m_timeUs[0].value(layer);
    const qreal b = m_timeUs[1].value(layer);
    const QString relative = a > 0 ? QStringLiteral(" (%1%2%)")
                                         .arg(b >= a ? QStringLiteral("+") : QString())
                                         .arg(QString::number((b - a) / a * 100, 'f', 0))
                                   : QString();
    const std::array<QString, 2> times = formatDurationsApart(a, b);
    return tr("<b>Layer %1</b><br>%2: %3<br>%4: %5<br>B \u2212 A: %6%7")
        .arg(layer)
        .arg(m_names[0].toHtmlEscaped(), times[0], m_names[1].toHtmlEscaped(), times[1], formatSignedDuration(b - a),
            relative);
}

void LayerChart::setSelectedLayers(const QList<int>& layers)
{
    m_selected.clear();
    for (const int layer : layers) {
        if (layer >= 0 && layer < layerCount() && !m_selected.contains(layer))
            m_selected.append(layer);
    }
    std::sort(m_selected.begin(), m_selected.end());
    applySelection();
}

void LayerChart::applySelection()
{
    if (m_rebuildPending)
        return; // the rebuild applies it
    for (const std::array<QBarSet*, 2>& sets : { m_sideSets, m_differenceSets }) {
        for (QBarSet* set : sets) {
            set->deselectAllBars();
            set->selectBars(m_selected);
        }
    }
}

QString LayerChart::savedImageTitle() const
{
    // On screen the page says what the chart shows; a saved chart says it in its title, with the
    // traces' names.
    return tr("GPU time of each layer, %1<br>%2 vs %3")
        .arg(m_mode == PerSide ? tr("A beside B") : valueTitle(), m_names[0], m_names[1]);
}

QString LayerChart::saveImage(const QString& path)
{
    if (m_rebuildPending)
        rebuild();
    const QString title = savedImageTitle();
    chart()->setTitle(title);
    QString error
        = writeImage(path, { size(), devicePixelRatioF(), title, [this](QPainter& painter) { render(&painter); } });
    chart()->setTitle({});
    return error;
}

QImage LayerChart::image(const QSize& size)
{
    if (m_rebuildPending)
        rebuild();
    // A report shows every layer alike: the selection is the user's, on screen.
    const QList<int> selected = m_selected;
    setSelectedLayers({});
    QImage image = renderChartImage(*this, size, savedImageTitle());
    setSelectedLayers(selected);
    return image;
}

} // namespace fusiondiff::ui
