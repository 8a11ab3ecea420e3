#include "charts/stepchart.h"

#include "display/colors.h"
#include "display/formatting.h"
#include "display/idlecolors.h"

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace fusiondiff::ui {

namespace {

constexpr double kPhaseHeight = 18;
constexpr double kAxisHeight = 18;
constexpr double kLegendHeight = 18;
constexpr double kStepChartMargin = 8;
constexpr double kSwatch = 10;
constexpr int kTargetTicks = 4;

// Where the steps' parts are drawn in their stack (stackUs).
constexpr size_t kRecordedPart = 0;
constexpr size_t kNotRecordedPart = 1;
constexpr size_t kFirstIdlePart = 2;

const IdleCause kShownCauses[] = { IdleCause::Host, IdleCause::Sync, IdleCause::Launch, IdleCause::Other };

// Busy time without kernel records, drawn as the Timeline draws it: hatched in a neutral colour.
void fillNotRecorded(QPainter& painter, const QRectF& area, const QPalette& palette)
{
    const QColor base = palette.color(QPalette::Base);
    const QColor text = palette.color(QPalette::Text);
    painter.fillRect(area, blend(base, text, 0.10));
    painter.fillRect(area, QBrush(blend(base, text, 0.45), Qt::BDiagPattern));
}

// 1, 2 or 5 times a power of ten: about kTargetTicks steps up to `top`.
double tickStep(double top)
{
    const double raw = top / kTargetTicks;
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    const double normalised = raw / magnitude;
    const double factor = normalised <= 1 ? 1 : normalised <= 2 ? 2 : normalised <= 5 ? 5 : 10;
    return factor * magnitude;
}

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
    const double notRecorded = std::min(record.notRecordedUs, record.busyUs);
    std::vector<double> stack { record.busyUs - notRecorded, notRecorded };
    stack.insert(stack.end(), record.idleUs.begin(), record.idleUs.end());
    return stack;
}

bool StepChart::hasNotRecorded() const
{
    for (const std::vector<StepRecord>& steps : m_steps) {
        if (std::any_of(steps.begin(), steps.end(), [](const StepRecord& step) { return step.notRecordedUs > 0; }))
            return true;
    }
    return false;
}

QStringList StepChart::legendNames() const
{
    QStringList names { tr("A busy"), tr("B busy") };
    if (hasNotRecorded())
        names.append(tr("busy, not recorded"));
    for (const IdleCause cause : kShownCauses)
        names.append(tr("idle: %1").arg(idleCauseName(cause)));
    return names;
}

int StepChart::legendRows() const
{
    const QFontMetrics metrics(font());
    const double right = width() - kStepChartMargin;
    double x = kStepChartMargin;
    int rows = 1;
    for (const QString& name : legendNames()) {
        const double entry = kSwatch + 4 + metrics.horizontalAdvance(name) + 14;
        if (x > kStepChartMargin && x + entry > right) {
            ++rows;
            x = kStepChartMargin;
        }
        x += entry;
    }
    return rows;
}

std::vector<double> StepChart::axisTicksUs() const
{
    const double top = maxTimeUs();
    if (top <= 0)
        return { 0 };
    const double step = tickStep(top);
    std::vector<double> ticks;
    for (int i = 0; static_cast<double>(i) * step < top + step * 0.999; ++i)
        ticks.push_back(static_cast<double>(i) * step);
    return ticks;
}

QString StepChart::axisLabel(double us) const
{
    const double top = axisTicksUs().back();
    if (us == 0)
        return QStringLiteral("0");
    if (top >= 1e6)
        return tr("%1 s").arg(QString::number(us / 1e6, 'g', 6));
    if (top >= 1e3)
        return tr("%1 ms").arg(QString::number(us / 1e3, 'g', 6));
    return tr("%1 us").arg(QString::number(us, 'g', 6));
}

double StepChart::axisWidth() const
{
    const QFontMetrics metrics(font());
    int widest = 0;
    for (const double tick : axisTicksUs())
        widest = std::max(widest, metrics.horizontalAdvance(axisLabel(tick)));
    // The rotated title ("step time"), the labels and a tick mark.
    return metrics.height() + 4 + widest + 6;
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
    const double legend = kLegendHeight * legendRows();
    const double left = kStepChartMargin + axisWidth();
    return QRectF(left, kStepChartMargin + legend + kPhaseHeight, width() - kStepChartMargin - left,
        height() - 2 * kStepChartMargin - legend - kPhaseHeight - kAxisHeight);
}

QRectF StepChart::barRect(int side, size_t step) const
{
    if (side < 0 || side > 1 || step >= stepCount(side))
        return {};
    const QRectF plot = plotRect();
    const double slot = plot.width() / static_cast<double>(slotCount());
    const double top = axisTicksUs().back();
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
    // The legend, wrapped into rows where the chart is narrow: the sides' busy time, the busy time
    // without kernel records, then the idle causes.
    const QStringList names = legendNames();
    const qsizetype firstCause = hasNotRecorded() ? 3 : 2;
    double x = kStepChartMargin;
    double y = kStepChartMargin;
    for (qsizetype i = 0; i < names.size(); ++i) {
        const double width = painter.fontMetrics().horizontalAdvance(names[i]);
        if (x > kStepChartMargin && x + kSwatch + 4 + width + 14 > this->width() - kStepChartMargin) {
            x = kStepChartMargin;
            y += kLegendHeight;
        }
        const QRectF swatch(x, y + (kLegendHeight - kSwatch) / 2, kSwatch, kSwatch);
        if (i < 2)
            painter.fillRect(swatch, sideColor(static_cast<int>(i)));
        else if (i < firstCause)
            fillNotRecorded(painter, swatch, palette);
        else
            painter.fillRect(swatch, idleCauseColor(kShownCauses[i - firstCause]));
        painter.setPen(text);
        painter.drawText(
            QRectF(x + kSwatch + 4, y, width + 2, kLegendHeight), Qt::AlignLeft | Qt::AlignVCenter, names[i]);
        x += kSwatch + 4 + width + 14;
    }

    // The time axis: a labelled line per tick, across the plot.
    const std::vector<double> ticks = axisTicksUs();
    const double top = ticks.back();
    const QColor grid = blend(palette.color(QPalette::Base), text, 0.15);
    const double labelRight = plot.left() - 6;
    for (const double tick : ticks) {
        const double tickY = plot.bottom() - (top > 0 ? tick / top * plot.height() : 0);
        painter.setPen(grid);
        painter.drawLine(QPointF(plot.left(), tickY), QPointF(plot.right(), tickY));
        painter.setPen(text);
        painter.drawLine(QPointF(plot.left() - 3, tickY), QPointF(plot.left(), tickY));
        painter.drawText(
            QRectF(kStepChartMargin, tickY - kLegendHeight / 2, labelRight - kStepChartMargin, kLegendHeight),
            Qt::AlignRight | Qt::AlignVCenter, axisLabel(tick));
    }
    painter.drawLine(plot.bottomLeft(), plot.topLeft());
    painter.save();
    painter.translate(kStepChartMargin, plot.center().y());
    painter.rotate(-90);
    const QString title = tr("step time");
    painter.drawText(QRectF(-plot.height() / 2, 0, plot.height(), painter.fontMetrics().height()), Qt::AlignCenter,
        painter.fontMetrics().elidedText(title, Qt::ElideRight, static_cast<int>(plot.height())));
    painter.restore();

    const double slot = plot.width() / static_cast<double>(slotCount());
    for (int side = 0; side < 2; ++side) {
        for (size_t step = 0; step < stepCount(side); ++step) {
            const QRectF bar = barRect(side, step);
            double partBottom = plot.bottom();
            const std::vector<double> stack = stackUs(side, step);
            for (size_t i = 0; i < stack.size(); ++i) {
                const double height = top > 0 ? stack[i] / top * plot.height() : 0;
                const QRectF part(bar.left(), partBottom - height, bar.width(), height);
                if (i == kNotRecordedPart)
                    fillNotRecorded(painter, part, palette);
                else
                    painter.fillRect(part,
                        i == kRecordedPart ? sideColor(side)
                                           : idleCauseColor(static_cast<IdleCause>(i - kFirstIdlePart)));
                partBottom -= height;
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
        painter.fontMetrics().elidedText(tr("steps 1 to %1, A left and B right of each; the tallest %2")
                                             .arg(slotCount())
                                             .arg(formatDuration(maxTimeUs())),
            Qt::ElideRight, static_cast<int>(plot.width())));
}

} // namespace fusiondiff::ui
