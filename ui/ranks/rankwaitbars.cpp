#include "ranks/rankwaitbars.h"

#include "display/colors.h"
#include "display/formatting.h"
#include "ranks/ranklabels.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>

namespace fusiondiff::ui {

namespace {

constexpr int kRowMaximumHeight = 26;

QColor waitColor()
{
    return isDarkPalette() ? QColor(240, 110, 90) : QColor(205, 55, 40);
}

QColor transferColor()
{
    return isDarkPalette() ? QColor(120, 170, 240) : QColor(50, 110, 190);
}

} // namespace

RankWaitBars::RankWaitBars(QWidget* parent)
    : QWidget(parent)
{
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void RankWaitBars::setData(
    std::vector<int> ranks, std::vector<double> waitUs, std::vector<double> transferUs, int straggler)
{
    m_ranks = std::move(ranks);
    m_wait = std::move(waitUs);
    m_transfer = std::move(transferUs);
    m_straggler = straggler;
    m_scale = largestUs();
    updateGeometry();
    update();
}

void RankWaitBars::setStacked(bool stacked)
{
    m_stacked = stacked;
    update();
}

double RankWaitBars::largestUs() const
{
    double largest = 0;
    for (size_t row = 0; row < m_ranks.size(); ++row) {
        const double wait = row < m_wait.size() ? m_wait[row] : 0;
        const double transfer = row < m_transfer.size() ? m_transfer[row] : 0;
        largest = std::max(largest, m_stacked ? wait + transfer : std::max(wait, transfer));
    }
    return largest;
}

void RankWaitBars::setScale(double maximumUs)
{
    m_scale = maximumUs;
    update();
}

void RankWaitBars::setSelectedRow(int row)
{
    m_selected = row;
    update();
}

int RankWaitBars::labelWidth() const
{
    return rankLabelsWidth(font(), m_ranks, m_straggler);
}

int RankWaitBars::rowHeight() const
{
    const int rows = std::max<int>(1, int(m_ranks.size()));
    const int legend = fontMetrics().height() + 6;
    return std::max(4, std::min(kRowMaximumHeight, (height() - legend - fontMetrics().height() - 4) / rows));
}

QRect RankWaitBars::barsRect() const
{
    const int legend = fontMetrics().height() + 6;
    const int valueWidth
        = fontMetrics().horizontalAdvance(m_stacked ? QStringLiteral("000.0 ms") : QStringLiteral("000.0 ms + 000 us"))
        + 8;
    return QRect(labelWidth(), legend, std::max(1, width() - labelWidth() - valueWidth),
        rowHeight() * std::max<int>(1, int(m_ranks.size())));
}

int RankWaitBars::rowAt(const QPoint& point) const
{
    const QRect bars = barsRect();
    if (m_ranks.empty() || point.y() < bars.top() || point.y() >= bars.bottom())
        return -1;
    return std::min(int(m_ranks.size()) - 1, (point.y() - bars.top()) / rowHeight());
}

QSize RankWaitBars::sizeHint() const
{
    const int rows = std::max<int>(1, int(m_ranks.size()));
    return { labelWidth() + 360,
        2 * fontMetrics().height() + 10 + rows * std::max(kRowMaximumHeight, fontMetrics().height() + 4) };
}

QSize RankWaitBars::minimumSizeHint() const
{
    const int rows = std::max<int>(1, int(m_ranks.size()));
    return { labelWidth() + 160, 2 * fontMetrics().height() + 10 + rows * 8 };
}

void RankWaitBars::paintEvent(QPaintEvent* /*event*/)
{
    QPainter painter(this);
    const QPalette& colors = palette();
    if (m_ranks.empty()) {
        painter.setPen(secondaryTextColor());
        painter.drawText(rect(), Qt::AlignCenter, tr("No ranks to show"));
        return;
    }
    // The legend.
    const QFontMetrics metrics = fontMetrics();
    int x = labelWidth();
    const int legendTop = 2;
    const int swatch = metrics.height() - 4;
    for (const auto& [color, text] :
        { std::pair { waitColor(), tr("wait for the last rank") }, std::pair { transferColor(), tr("transfer") } }) {
        painter.fillRect(QRect(x, legendTop + 2, swatch, swatch), color);
        x += swatch + 4;
        painter.setPen(colors.color(QPalette::WindowText));
        painter.drawText(QRect(x, legendTop, metrics.horizontalAdvance(text) + 2, metrics.height()),
            Qt::AlignLeft | Qt::AlignVCenter, text);
        x += metrics.horizontalAdvance(text) + 16;
    }

    const QRect bars = barsRect();
    const int height = rowHeight();
    const double scale = m_scale > 0 ? m_scale : 1;
    const auto length = [&](double us) { return int(double(bars.width()) * std::clamp(us / scale, 0.0, 1.0)); };
    for (int row = 0; row < int(m_ranks.size()); ++row) {
        const int top = bars.top() + row * height;
        drawRankLabel(painter, QRect(0, top, labelWidth(), height), colors, m_ranks[size_t(row)], row == m_straggler,
            row == m_selected);
        const double wait = size_t(row) < m_wait.size() ? m_wait[size_t(row)] : 0;
        const double transfer = size_t(row) < m_transfer.size() ? m_transfer[size_t(row)] : 0;
        const int inner = std::max(2, height - 4);
        int end = bars.left();
        if (m_stacked) {
            painter.fillRect(QRect(bars.left(), top + 2, length(wait), inner), waitColor());
            painter.fillRect(QRect(bars.left() + length(wait), top + 2, length(transfer), inner), transferColor());
            end = bars.left() + length(wait) + length(transfer);
        } else {
            const int half = std::max(1, inner / 2);
            painter.fillRect(QRect(bars.left(), top + 2, length(wait), half), waitColor());
            painter.fillRect(QRect(bars.left(), top + 2 + half, length(transfer), inner - half), transferColor());
            end = bars.left() + std::max(length(wait), length(transfer));
        }
        // As the rank labels beside them: a row a little shorter than a line (eight ranks at
        // 1024x700) still shows its value; only rows packed under half a line drop them.
        if (2 * height >= metrics.height()) {
            painter.setPen(colors.color(QPalette::WindowText));
            painter.drawText(QRect(end + 4, top, width() - end - 4, height), Qt::AlignLeft | Qt::AlignVCenter,
                m_stacked ? formatDuration(wait + transfer)
                          : tr("%1 + %2").arg(formatDuration(wait), formatDuration(transfer)));
        }
        if (row == m_selected) {
            painter.setPen(QPen(colors.color(QPalette::Highlight), 2));
            painter.drawRect(QRect(bars.left(), top, bars.width(), height).adjusted(0, 0, -1, -1));
        }
    }
    painter.setPen(colors.color(QPalette::Mid));
    painter.drawLine(bars.left(), bars.top(), bars.left(), bars.top() + height * int(m_ranks.size()));
}

void RankWaitBars::mousePressEvent(QMouseEvent* event)
{
    const int row = rowAt(event->position().toPoint());
    if (row >= 0)
        emit rankClicked(row);
    QWidget::mousePressEvent(event);
}

bool RankWaitBars::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        const auto* help = static_cast<QHelpEvent*>(event);
        const int row = rowAt(help->pos());
        if (row < 0) {
            QToolTip::hideText();
            return true;
        }
        QString text = tr("Rank %1 over the compared steps\nwait for the last rank: %2\ntransfer: %3")
                           .arg(m_ranks[size_t(row)])
                           .arg(formatDuration(m_wait[size_t(row)]), formatDuration(m_transfer[size_t(row)]));
        if (row == m_straggler)
            text += QLatin1Char('\n') + tr("The straggler: the others wait for it.");
        text += QLatin1Char('\n') + tr("Click to compare this rank in every view.");
        QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(event);
}

} // namespace fusiondiff::ui
