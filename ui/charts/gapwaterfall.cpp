#include "charts/gapwaterfall.h"

#include "display/colors.h"
#include "display/formatting.h"

#include <QFontMetrics>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QResizeEvent>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace fusiondiff::ui {

namespace {

constexpr int kMargin = 8;

QString signedDuration(double us)
{
    return (us > 0 ? QStringLiteral("+") : QString()) + formatDuration(us);
}

} // namespace

GapWaterfall::GapWaterfall(QWidget* parent)
    : QWidget(parent)
{
    setMouseTracking(true);
}

void GapWaterfall::setData(GapWaterfallData waterfall)
{
    m_data = std::move(waterfall);
    m_parts = m_data.parts;
    double explained = 0;
    for (const GapPart& part : m_parts)
        explained += part.deltaUs;
    const int first = m_data.fromB ? 1 : 0;
    const double rest = (m_data.totalUs[1 - first] - m_data.totalUs[first]) - explained;
    // Rounding aside (a thousandth of the larger total), the rest is a part of its own.
    if (std::abs(rest) > 1e-3 * std::max({ m_data.totalUs[0], m_data.totalUs[1], 1.0 }))
        m_parts.push_back(
            { tr("Not attributed"), rest, tr("The parts above do not explain this much of the gap."), false });
    updateGeometry();
    update();
}

std::pair<double, double> GapWaterfall::barSpan(int bar) const
{
    if (bar == 0 || bar == barCount() - 1)
        return { 0, m_data.totalUs[sideOfBar(bar)] };
    double running = m_data.totalUs[sideOfBar(0)];
    for (int i = 0; i < bar - 1; ++i)
        running += m_parts[static_cast<size_t>(i)].deltaUs;
    return { running, running + m_parts[static_cast<size_t>(bar - 1)].deltaUs };
}

double GapWaterfall::axisFloor() const
{
    double low = std::min(m_data.totalUs[0], m_data.totalUs[1]);
    double high = std::max(m_data.totalUs[0], m_data.totalUs[1]);
    double running = m_data.totalUs[sideOfBar(0)];
    for (const GapPart& part : m_parts) {
        running += part.deltaUs;
        low = std::min(low, running);
        high = std::max(high, running);
    }
    high = std::max(high, m_data.totalUs[sideOfBar(0)] + m_data.noiseUs);
    const double range = high - low;
    if (low <= 0 || range >= 0.5 * high)
        return 0;
    return std::max(0.0, low - 1.5 * range);
}

double GapWaterfall::slotWidth() const
{
    return (width() - 2.0 * kMargin) / barCount();
}

QString GapWaterfall::valueText(int bar) const
{
    if (bar == 0 || bar == barCount() - 1)
        return formatDuration(barSpan(bar).second);
    return signedDuration(m_parts[static_cast<size_t>(bar - 1)].deltaUs);
}

bool GapWaterfall::valuesStaggered() const
{
    const QFontMetrics metrics(font());
    const double slot = slotWidth();
    for (int bar = 0; bar < barCount(); ++bar) {
        // A character's room between neighbours: values that touch read as one.
        if (metrics.horizontalAdvance(valueText(bar)) + metrics.averageCharWidth() > slot)
            return true;
    }
    return false;
}

int GapWaterfall::valueRowsHeight() const
{
    return QFontMetrics(font()).height() * (valuesStaggered() ? 2 : 1) + 2;
}

int GapWaterfall::labelHeight() const
{
    const QFontMetrics metrics(font());
    const int slot = std::max(1, static_cast<int>(slotWidth()));
    int height = metrics.height();
    for (int bar = 0; bar < barCount(); ++bar) {
        const QRect needed = metrics.boundingRect(
            QRect(0, 0, slot, 100000), Qt::AlignHCenter | Qt::AlignTop | Qt::TextWordWrap, barLabel(bar));
        height = std::max(height, needed.height());
    }
    return height + 2;
}

QSize GapWaterfall::minimumSizeHint() const
{
    // Wide enough for the staggered values (each at most two slots wide).
    const QFontMetrics metrics(font());
    int widest = 0;
    for (int bar = 0; bar < barCount(); ++bar)
        widest = std::max(widest, metrics.horizontalAdvance(valueText(bar)) + metrics.averageCharWidth());
    const int width = std::max(240, 2 * kMargin + (barCount() * widest + 1) / 2);
    return { width, 2 * kMargin + valueRowsHeight() + kMinimumPlotHeight + labelHeight() };
}

QSize GapWaterfall::sizeHint() const
{
    return QSize(640, 260).expandedTo(minimumSizeHint());
}

void GapWaterfall::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::FontChange)
        updateGeometry();
    QWidget::changeEvent(event);
}

void GapWaterfall::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    // The labels wrap, and the values stagger, by the slots' width: a new width is a new minimum.
    if (event->size().width() != event->oldSize().width())
        updateGeometry();
}

QRectF GapWaterfall::valueRect(int bar) const
{
    if (bar < 0 || bar >= barCount())
        return {};
    // A value that fits its slot stands on its bar. Where one does not, they all go in the two
    // rows above the plot, every other bar's in the upper one: a value may then be two slots wide
    // without reaching its neighbours in its row.
    const double line = QFontMetrics(font()).height();
    const double slot = slotWidth();
    const QRectF rect = barRect(bar);
    if (valuesStaggered())
        return QRectF(rect.center().x() - slot, kMargin + (bar % 2 == 1 ? 0 : line), 2 * slot, line);
    return QRectF(rect.center().x() - slot / 2, rect.top() - line - 1, slot, line);
}

QRectF GapWaterfall::labelRect(int bar) const
{
    if (bar < 0 || bar >= barCount())
        return {};
    const QRectF plot = plotRect();
    const double slot = slotWidth();
    return QRectF(plot.left() + bar * slot, plot.bottom() + 2, slot, labelHeight());
}

QRectF GapWaterfall::plotRect() const
{
    const double top = kMargin + valueRowsHeight();
    return QRectF(kMargin, top, width() - 2.0 * kMargin, height() - kMargin - top - labelHeight());
}

QRectF GapWaterfall::barRect(int bar) const
{
    if (bar < 0 || bar >= barCount())
        return {};
    const QRectF plot = plotRect();
    const double slot = plot.width() / barCount();
    const auto [from, to] = barSpan(bar);
    const double y0 = yOf(std::max(from, to));
    const double y1 = yOf(std::min(from, to));
    return QRectF(plot.left() + bar * slot + slot * 0.15, y0, slot * 0.7, std::max(1.0, y1 - y0));
}

double GapWaterfall::axisTop() const
{
    double top = m_data.totalUs[sideOfBar(0)] + m_data.noiseUs;
    for (int i = 0; i < barCount(); ++i) {
        const auto [from, to] = barSpan(i);
        top = std::max({ top, from, to });
    }
    return top;
}

double GapWaterfall::yOf(double us) const
{
    const QRectF plot = plotRect();
    const double top = axisTop();
    const double floor = axisFloor();
    return plot.bottom() - (top > floor ? (std::max(us, floor) - floor) / (top - floor) : 0) * plot.height();
}

QRectF GapWaterfall::noiseBandRect() const
{
    if (m_data.noiseUs <= 0)
        return {};
    const QRectF plot = plotRect();
    const double start = m_data.totalUs[sideOfBar(0)];
    const double top = yOf(start + m_data.noiseUs);
    return QRectF(plot.left(), top, plot.width(), std::max(1.0, yOf(start) - top));
}

QRectF GapWaterfall::noiseLabelRect() const
{
    const QRectF band = noiseBandRect();
    if (band.isEmpty())
        return {};
    // Under the band, between the two totals' bars, where the parts (which run from the faster
    // total up) leave room; above it, the last bar's value label was drawn over it.
    const QFontMetrics metrics(font());
    if (barCount() > 2 && band.bottom() + metrics.height() + 2 <= plotRect().bottom()) {
        const double left = barRect(1).left();
        const double right = barRect(barCount() - 1).left() - 4;
        return QRectF(left, band.bottom() + 2, right - left, metrics.height());
    }
    return QRectF(band.left(), band.top() - metrics.height() - 1, band.width() - 2, metrics.height());
}

QString GapWaterfall::noiseBandLabel() const
{
    return m_data.noiseUs > 0 ? tr("run-to-run noise: up to %1").arg(formatDuration(m_data.noiseUs)) : QString();
}

int GapWaterfall::barAt(QPointF position) const
{
    const QRectF plot = plotRect();
    if (position.x() < plot.left() || position.x() >= plot.right())
        return -1;
    const int bar = static_cast<int>((position.x() - plot.left()) / (plot.width() / barCount()));
    const QRectF rect = barRect(bar).adjusted(0, -4, 0, 4);
    return rect.contains(position) ? bar : -1;
}

QString GapWaterfall::timeName() const
{
    return m_data.timeName.isEmpty() ? tr("GPU time") : m_data.timeName.toHtmlEscaped();
}

QString GapWaterfall::barLabel(int bar) const
{
    if (bar < 0 || bar >= barCount())
        return {};
    const bool total = bar == 0 || bar == barCount() - 1;
    const QString label = total ? sideLabel(sideOfBar(bar)) : m_parts[static_cast<size_t>(bar - 1)].title;
    const int slot = static_cast<int>(slotWidth());
    const QFontMetrics metrics(font());
    QStringList words = label.split(QLatin1Char(' '));
    for (QString& word : words)
        word = metrics.elidedText(word, Qt::ElideRight, slot);
    return words.join(QLatin1Char(' '));
}

QString GapWaterfall::sideLabel(int side) const
{
    // A name that already says its side ("A: x", for alike labels) is not prefixed again.
    const QString& name = side == 0 ? m_data.nameA : m_data.nameB;
    const QString prefix = side == 0 ? QStringLiteral("A: ") : QStringLiteral("B: ");
    return name.startsWith(prefix) ? name : prefix + name;
}

QString GapWaterfall::barToolTip(int bar) const
{
    if (bar == 0 || bar == barCount() - 1) {
        const int side = sideOfBar(bar);
        return QStringLiteral("<b>%1</b><br>%2 %3")
            .arg(sideLabel(side).toHtmlEscaped(), timeName(), formatDuration(m_data.totalUs[side]));
    }
    if (bar < 0 || bar >= barCount())
        return {};
    const GapPart& part = m_parts[static_cast<size_t>(bar - 1)];
    QString text = QStringLiteral("<b>%1</b>: %2").arg(part.title.toHtmlEscaped(), signedDuration(part.deltaUs));
    if (!part.cause.isEmpty())
        text += QStringLiteral("<br>") + part.cause.toHtmlEscaped();
    if (part.fusion)
        text += QStringLiteral("<br><i>") + tr("kernel fusion") + QStringLiteral("</i>");
    return text;
}

bool GapWaterfall::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const int bar = barAt(help->pos());
        if (bar >= 0)
            QToolTip::showText(help->globalPos(), barToolTip(bar), this);
        else if (noiseBandRect().contains(help->pos()))
            QToolTip::showText(help->globalPos(),
                tr("Run-to-run noise: two runs of the same build can differ by up to %1, so a slower total that "
                   "ends inside this band is within noise")
                    .arg(formatDuration(m_data.noiseUs)),
                this);
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

void GapWaterfall::mouseReleaseEvent(QMouseEvent* event)
{
    const int bar = barAt(event->position());
    if (event->button() == Qt::LeftButton && bar >= 1 && bar <= static_cast<int>(m_parts.size()))
        emit partClicked(bar - 1);
}

void GapWaterfall::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    const QPalette palette = this->palette();
    painter.fillRect(rect(), palette.color(QPalette::Base));
    const QColor text = palette.color(QPalette::Text);
    const QRectF plot = plotRect();
    painter.setPen(blend(palette.color(QPalette::Base), text, 0.4));
    painter.drawLine(plot.bottomLeft(), plot.bottomRight());
    // The noise band under the bars: a slower total that ends inside it is within noise.
    if (const QRectF band = noiseBandRect(); !band.isEmpty()) {
        const QColor shade = blend(palette.color(QPalette::Base), text, 0.12);
        painter.fillRect(band, shade);
        painter.setPen(QPen(blend(palette.color(QPalette::Base), text, 0.45), 1, Qt::DashLine));
        painter.drawLine(band.topLeft(), band.topRight());
        painter.setPen(blend(palette.color(QPalette::Base), text, 0.7));
        const QRectF label = noiseLabelRect();
        painter.drawText(
            label, Qt::AlignRight | (label.top() > band.top() ? Qt::AlignTop : Qt::AlignBottom), noiseBandLabel());
    }
    for (int bar = 0; bar < barCount(); ++bar) {
        const QRectF rect = barRect(bar);
        const bool total = bar == 0 || bar == barCount() - 1;
        const GapPart* part = total ? nullptr : &m_parts[static_cast<size_t>(bar - 1)];
        // Totals in the sides' colours; a part in the colour of the side it makes slower.
        const int last = sideOfBar(barCount() - 1);
        const QColor color = total ? sideColor(sideOfBar(bar))
                                   : (part->deltaUs > 0 ? sideColor(last) : sideColor(1 - last)).lighter(115);
        painter.fillRect(rect, color);
        if (part && part->fusion) {
            painter.fillRect(rect, QBrush(blend(color, text, 0.6), Qt::BDiagPattern));
        }
        painter.setPen(color.darker(140));
        painter.drawRect(rect);
        // The connector from this bar's end to the next bar's start.
        if (bar + 1 < barCount()) {
            const QRectF next = barRect(bar + 1);
            // The running total: a bar's top, or the bottom of a part that takes time off.
            const double y = bar == 0 || part->deltaUs >= 0 ? rect.top() : rect.bottom();
            painter.setPen(QPen(blend(palette.color(QPalette::Base), text, 0.5), 1, Qt::DotLine));
            painter.drawLine(QPointF(rect.right(), y), QPointF(next.left(), y));
        }
        painter.setPen(text);
        painter.drawText(valueRect(bar), Qt::AlignHCenter | Qt::AlignBottom, valueText(bar));
        painter.drawText(labelRect(bar), Qt::AlignHCenter | Qt::AlignTop | Qt::TextWordWrap, barLabel(bar));
    }
    // An axis that starts above zero is broken on the totals' bars.
    if (const double floor = axisFloor(); floor > 0) {
        for (const int bar : { 0, barCount() - 1 }) {
            const QRectF rect = barRect(bar);
            const double y = rect.bottom() - std::min(12.0, rect.height() / 3);
            QPolygonF gap;
            gap << QPointF(rect.left() - 2, y + 3) << QPointF(rect.right() + 2, y - 3) << QPointF(rect.right() + 2, y)
                << QPointF(rect.left() - 2, y + 6);
            painter.setPen(Qt::NoPen);
            painter.setBrush(palette.color(QPalette::Base));
            painter.drawPolygon(gap);
        }
    }
}

} // namespace fusiondiff::ui
