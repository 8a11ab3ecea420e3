#include "charts/stepchart.h"

#include "display/colors.h"
#include "display/formatting.h"
#include "display/idlecolors.h"

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>

namespace fusiondiff::ui {

namespace {

constexpr double kPhaseHeight = 18;
constexpr double kAxisHeight = 18;
constexpr double kLegendHeight = 18;

} // namespace

StepChart::StepChart(QWidget* parent)
    : QWidget(parent)
{
    setMouseTracking(true);
}

void StepChart::setSteps(const StepTimeReport* steps)
{
    for (size_t side = 0; side < 2; ++side)
        m_steps[side] = steps ? steps->sides[side].steps : std::vector<StepRecord> {};
    m_phases = steps ? steps->phases : std::vector<std::string> {};
    update();
}

size_t StepChart::stepCount(int side) const
{
    return m_steps[static_cast<size_t>(side)].size();
}

std::vector<double> StepChart::stackUs(int side, size_t step) const
{
    const StepRecord& record = m_steps[static_cast<size_t>(side)].at(step);
    std::vector<double> stack { record.busyUs };
    stack.insert(stack.end(), record.idleUs.begin(), record.idleUs.end());
    return stack;
}

size_t StepChart::slotCount() const
{
    return std::max(m_steps[0].size(), m_steps[1].size());
}

double StepChart::maxTimeUs() const
{
    double top = 0;
    for (int side = 0; side < 2; ++side) {
        for (size_t step = 0; step < stepCount(side); ++step) {
            const std::vector<double> stack = stackUs(side, step);
            double sum = 0;
            for (const double us : stack)
                sum += us;
            top = std::max(top, sum);
        }
    }
    return top;
}

QRectF StepChart::plotRect() const
{
    return QRectF(
        8, 8 + kLegendHeight + kPhaseHeight, width() - 16, height() - 16 - kLegendHeight - kPhaseHeight - kAxisHeight);
}

QRectF StepChart::barRect(int side, size_t step) const
{
    if (side < 0 || side > 1 || step >= stepCount(side))
        return {};
    const QRectF plot = plotRect();
    const double slot = plot.width() / static_cast<double>(slotCount());
    const double top = maxTimeUs();
    double sum = 0;
    for (const double us : stackUs(side, step))
        sum += us;
    const double height = top > 0 ? sum / top * plot.height() : 0;
    const double barWidth = std::max(1.0, slot * 0.42);
    const double left = plot.left() + static_cast<double>(step) * slot + slot * 0.08 + side * barWidth;
    return QRectF(left, plot.bottom() - height, barWidth, height);
}

QString StepChart::barToolTip(int side, size_t step) const
{
    if (side < 0 || side > 1 || step >= stepCount(side))
        return {};
    const StepRecord& record = m_steps[static_cast<size_t>(side)][step];
    QString text = tr("<b>%1, step %2</b>").arg(side == 0 ? QStringLiteral("A") : QStringLiteral("B")).arg(step + 1);
    if (record.phase >= 0 && static_cast<size_t>(record.phase) < m_phases.size())
        text += QStringLiteral(" (")
            + QString::fromStdString(m_phases[static_cast<size_t>(record.phase)]).toHtmlEscaped() + QStringLiteral(")");
    else
        text += tr(" (not compared)");
    text += QStringLiteral("<br>")
        + tr("step time %1, GPU busy %2").arg(formatDuration(record.timeUs()), formatDuration(record.busyUs));
    if (record.notRecordedUs > 0)
        text += tr(", of it %1 not recorded (a graph launch ran on after its last recorded kernel)")
                    .arg(formatDuration(record.notRecordedUs));
    for (size_t cause = 0; cause < kIdleCauses; ++cause) {
        if (record.idleUs[cause] > 0)
            text += QStringLiteral("<br>")
                + tr("idle, %1: %2")
                      .arg(idleCauseName(static_cast<IdleCause>(cause)), formatDuration(record.idleUs[cause]));
    }
    return text;
}

bool StepChart::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        for (int side = 0; side < 2; ++side) {
            for (size_t step = 0; step < stepCount(side); ++step) {
                if (barRect(side, step).adjusted(-1, -4, 1, 0).contains(help->pos())) {
                    QToolTip::showText(help->globalPos(), barToolTip(side, step), this);
                    return true;
                }
            }
        }
        QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

void StepChart::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    const QPalette palette = this->palette();
    painter.fillRect(rect(), palette.color(QPalette::Base));
    const QColor text = palette.color(QPalette::Text);
    const QRectF plot = plotRect();
    if (slotCount() == 0)
        return;
    // The legend: the sides' busy time, then the idle causes.
    double x = plot.left();
    const auto legend = [&](const QColor& color, const QString& name) {
        painter.fillRect(QRectF(x, 10, 10, 10), color);
        const double width = painter.fontMetrics().horizontalAdvance(name) + 8;
        painter.setPen(text);
        painter.drawText(QRectF(x + 14, 6, width, kLegendHeight), Qt::AlignLeft | Qt::AlignVCenter, name);
        x += 14 + width + 6;
    };
    legend(sideColor(0), tr("A busy"));
    legend(sideColor(1), tr("B busy"));
    for (const IdleCause cause : { IdleCause::Host, IdleCause::Sync, IdleCause::Launch, IdleCause::Other })
        legend(idleCauseColor(cause), tr("idle: %1").arg(idleCauseName(cause)));

    const double top = maxTimeUs();
    const double slot = plot.width() / static_cast<double>(slotCount());
    for (int side = 0; side < 2; ++side) {
        for (size_t step = 0; step < stepCount(side); ++step) {
            const QRectF bar = barRect(side, step);
            double y = plot.bottom();
            const std::vector<double> stack = stackUs(side, step);
            for (size_t i = 0; i < stack.size(); ++i) {
                const double height = top > 0 ? stack[i] / top * plot.height() : 0;
                const QColor color = i == 0 ? sideColor(side) : idleCauseColor(static_cast<IdleCause>(i - 1));
                painter.fillRect(QRectF(bar.left(), y - height, bar.width(), height), color);
                y -= height;
            }
        }
    }
    // The phases: a band over the steps of A in each, named.
    painter.setPen(text);
    size_t begin = 0;
    for (size_t step = 0; step <= m_steps[0].size(); ++step) {
        const bool end = step == m_steps[0].size() || m_steps[0][step].phase != m_steps[0][begin].phase;
        if (!end)
            continue;
        const int phase = m_steps[0][begin].phase;
        const QRectF band(plot.left() + static_cast<double>(begin) * slot, plot.top() - kPhaseHeight,
            static_cast<double>(step - begin) * slot, kPhaseHeight - 2);
        painter.setPen(blend(palette.color(QPalette::Base), text, 0.5));
        painter.drawLine(band.bottomLeft(), band.bottomRight());
        painter.drawLine(band.bottomLeft(), band.bottomLeft() - QPointF(0, 4));
        painter.drawLine(band.bottomRight(), band.bottomRight() - QPointF(0, 4));
        const QString name = phase >= 0 && static_cast<size_t>(phase) < m_phases.size()
            ? QString::fromStdString(m_phases[static_cast<size_t>(phase)])
            : tr("not compared");
        painter.setPen(text);
        painter.drawText(band, Qt::AlignHCenter | Qt::AlignTop,
            painter.fontMetrics().elidedText(name, Qt::ElideRight, static_cast<int>(band.width())));
        begin = step;
    }
    painter.setPen(blend(palette.color(QPalette::Base), text, 0.4));
    painter.drawLine(plot.bottomLeft(), plot.bottomRight());
    painter.setPen(text);
    painter.drawText(QRectF(plot.left(), plot.bottom() + 2, plot.width(), kAxisHeight), Qt::AlignLeft | Qt::AlignTop,
        tr("steps 1 to %1, A left and B right of each; the tallest %2").arg(slotCount()).arg(formatDuration(top)));
}

} // namespace fusiondiff::ui
