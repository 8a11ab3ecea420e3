#include "ranks/rankheatmap.h"

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

constexpr int kCellMinimumHeight = 12;
constexpr int kCellMaximumHeight = 28;
constexpr int kHeaderLines = 1;

} // namespace

RankHeatmap::RankHeatmap(QWidget* parent)
    : QWidget(parent)
{
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void RankHeatmap::setData(
    std::vector<int> ranks, std::vector<std::vector<double>> valuesUs, std::vector<int> stepStraggler, int straggler)
{
    m_ranks = std::move(ranks);
    m_values = std::move(valuesUs);
    m_stepStraggler = std::move(stepStraggler);
    m_straggler = straggler;
    m_scale = 0;
    for (const std::vector<double>& row : m_values) {
        for (const double value : row)
            m_scale = std::max(m_scale, value);
    }
    updateGeometry();
    update();
}

void RankHeatmap::setScale(double maximumUs)
{
    m_scale = maximumUs;
    update();
}

void RankHeatmap::setSelectedRow(int row)
{
    m_selected = row;
    update();
}

double RankHeatmap::valueAt(int row, int step) const
{
    if (row < 0 || size_t(row) >= m_values.size() || step < 0 || size_t(step) >= m_values[size_t(row)].size())
        return 0;
    return m_values[size_t(row)][size_t(step)];
}

int RankHeatmap::labelWidth() const
{
    return rankLabelsWidth(font(), m_ranks, m_straggler, fontMetrics().horizontalAdvance(tr("step")));
}

QRect RankHeatmap::cellsRect() const
{
    const int header = fontMetrics().height() * kHeaderLines + 4;
    const int rows = std::max<int>(1, int(m_ranks.size()));
    const int rowHeight = std::max(1, std::min(kCellMaximumHeight, (height() - header - 1) / rows));
    return QRect(labelWidth(), header, std::max(1, width() - labelWidth() - 1), rowHeight * rows);
}

QPoint RankHeatmap::cellCenter(int row, int step) const
{
    const QRect cells = cellsRect();
    const int rows = std::max(1, this->rows());
    const int columns = std::max(1, steps());
    return { cells.left() + (2 * step + 1) * cells.width() / (2 * columns),
        cells.top() + (2 * row + 1) * cells.height() / (2 * rows) };
}

std::pair<int, int> RankHeatmap::cellAt(const QPoint& point) const
{
    const QRect cells = cellsRect();
    if (m_ranks.empty() || m_values.empty() || m_values[0].empty() || !cells.contains(point))
        return { -1, -1 };
    const int rows = int(m_ranks.size());
    const int steps = int(m_values[0].size());
    const int row = std::min(rows - 1, (point.y() - cells.top()) * rows / cells.height());
    const int step = std::min(steps - 1, (point.x() - cells.left()) * steps / cells.width());
    return { row, step };
}

QSize RankHeatmap::sizeHint() const
{
    const int rows = std::max<int>(1, int(m_ranks.size()));
    return { labelWidth() + 320,
        fontMetrics().height() + 5 + rows * std::max(kCellMaximumHeight, fontMetrics().height() + 4) };
}

QSize RankHeatmap::minimumSizeHint() const
{
    const int rows = std::max<int>(1, int(m_ranks.size()));
    return { labelWidth() + 80, fontMetrics().height() + 4 + rows * kCellMinimumHeight };
}

void RankHeatmap::paintEvent(QPaintEvent* /*event*/)
{
    QPainter painter(this);
    const QPalette& colors = palette();
    if (m_ranks.empty() || m_values.empty() || m_values[0].empty()) {
        painter.setPen(secondaryTextColor());
        painter.drawText(rect(), Qt::AlignCenter, tr("No steps to show"));
        return;
    }
    const int rows = int(m_ranks.size());
    const int steps = int(m_values[0].size());
    const QRect cells = cellsRect();
    const int rowHeight = cells.height() / rows;
    const auto columnLeft = [&](int step) { return cells.left() + step * cells.width() / steps; };
    const auto rowTop = [&](int row) { return cells.top() + row * rowHeight; };

    // The step numbers over the columns, as many as fit, counted from 1 as in `job_steps`.
    painter.setPen(colors.color(QPalette::WindowText));
    const int numberWidth = fontMetrics().horizontalAdvance(QString::number(steps)) + 6;
    const int every = std::max(1, (numberWidth * steps + cells.width() - 1) / std::max(1, cells.width()));
    painter.drawText(QRect(0, 0, labelWidth() - 6, cells.top()), Qt::AlignRight | Qt::AlignVCenter, tr("step"));
    for (int step = 0; step < steps; step += every) {
        const QRect column(columnLeft(step), 0, columnLeft(step + 1) - columnLeft(step), cells.top());
        painter.drawText(column.adjusted(-numberWidth, 0, numberWidth, 0), Qt::AlignCenter, QString::number(step + 1));
    }

    const QColor low = colors.color(QPalette::Base);
    const QColor high = isDarkPalette(colors) ? QColor(255, 170, 60) : QColor(200, 60, 20);
    for (int row = 0; row < rows; ++row) {
        drawRankLabel(painter, QRect(0, rowTop(row), labelWidth(), rowHeight), colors, m_ranks[size_t(row)],
            row == m_straggler, row == m_selected);
        for (int step = 0; step < steps; ++step) {
            const double value = valueAt(row, step);
            const QRect cell(columnLeft(step), rowTop(row), columnLeft(step + 1) - columnLeft(step), rowHeight);
            painter.fillRect(cell, blend(low, high, m_scale > 0 ? std::clamp(value / m_scale, 0.0, 1.0) : 0.0));
        }
    }
    painter.setFont(font());
    painter.setBrush(Qt::NoBrush);
    // The rank each step waits for, outlined in the text colour (it reads on either end of the ramp).
    QPen outline(colors.color(QPalette::Text), 2);
    painter.setPen(outline);
    for (int step = 0; step < steps && size_t(step) < m_stepStraggler.size(); ++step) {
        const int row = m_stepStraggler[size_t(step)];
        if (row < 0 || row >= rows)
            continue;
        painter.drawRect(QRect(columnLeft(step), rowTop(row), columnLeft(step + 1) - columnLeft(step), rowHeight)
                             .adjusted(1, 1, -1, -1));
    }
    if (m_selected >= 0 && m_selected < rows) {
        painter.setPen(QPen(colors.color(QPalette::Highlight), 2));
        painter.drawRect(QRect(cells.left(), rowTop(m_selected), cells.width(), rowHeight).adjusted(0, 0, -1, -1));
    }
    painter.setPen(colors.color(QPalette::Mid));
    painter.drawRect(cells.adjusted(0, 0, -1, -1));
}

void RankHeatmap::mousePressEvent(QMouseEvent* event)
{
    const std::pair<int, int> cell = cellAt(event->position().toPoint());
    if (cell.first >= 0)
        emit rankClicked(cell.first);
    else if (event->position().x() < labelWidth() && !m_ranks.empty()) {
        const QRect cells = cellsRect();
        const int row = (int(event->position().y()) - cells.top()) * int(m_ranks.size()) / cells.height();
        if (row >= 0 && row < int(m_ranks.size()))
            emit rankClicked(row);
    }
    QWidget::mousePressEvent(event);
}

bool RankHeatmap::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        const auto* help = static_cast<QHelpEvent*>(event);
        const std::pair<int, int> cell = cellAt(help->pos());
        if (cell.first < 0) {
            QToolTip::hideText();
            return true;
        }
        QString text = tr("Rank %1, step %2: %3")
                           .arg(m_ranks[size_t(cell.first)])
                           .arg(cell.second)
                           .arg(formatDuration(valueAt(cell.first, cell.second)));
        if (size_t(cell.second) < m_stepStraggler.size() && m_stepStraggler[size_t(cell.second)] == cell.first)
            text += QLatin1Char('\n') + tr("The job waits for this rank longest in this step.");
        text += QLatin1Char('\n') + tr("Click to compare this rank in every view.");
        QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(event);
}

} // namespace fusiondiff::ui
