#include "charts/barchart.h"

#include "charts/chartrendering.h"
#include "display/colors.h"
#include "export/imageexport.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QCursor>
#include <QEvent>
#include <QGraphicsLayout>
#include <QHorizontalBarSeries>
#include <QLegend>
#include <QLocale>
#include <QLogValueAxis>
#include <QPainter>
#include <QScopeGuard>
#include <QToolTip>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace fusiondiff::ui {

BarChart::BarChart(QWidget* parent)
    // Hand the chart to the base: QChartView(QWidget*) would make its own default chart, and
    // setChart() releases a previous chart without deleting it.
    : QChartView(new QChart, parent)
    , m_series(new QHorizontalBarSeries)
    , m_categoryAxis(new QBarCategoryAxis(this))
    , m_linearAxis(new QValueAxis(this))
    , m_logAxis(new QLogValueAxis(this))
{
    QChart* chart = this->chart();
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->legend()->setAlignment(Qt::AlignTop);
    chart->setMargins(QMargins(4, 4, 12, 4));
    chart->setBackgroundRoundness(0);
    chart->addSeries(m_series);
    setRenderHint(QPainter::Antialiasing);
    setMinimumHeight(minimumSizeHint().height());

    // Qt stacks a category's bars from the bottom up: add B first so that A is above B, and list
    // the legend in reverse so that it still reads A, B.
    chart->legend()->setReverseMarkers(true);
    for (int side = 1; side >= 0; --side) {
        auto* set = new QBarSet(side == 0 ? QStringLiteral("A") : QStringLiteral("B"));
        set->setColor(sideColor(side));
        set->setBorderColor(sideColor(side).darker(115));
        set->setSelectedColor(sideSelectedColor(side));
        m_series->append(set);
        m_sets[static_cast<size_t>(side)] = set;
        connect(set, &QBarSet::hovered, this, [this, side](bool status, int index) {
            if (!status || index < 0 || index >= m_categories.size()) {
                QToolTip::hideText();
                return;
            }
            QToolTip::showText(QCursor::pos(), hoverText(barIndex(index), side), this);
        });
        connect(set, &QBarSet::clicked, this, [this](int index) {
            if (index >= 0 && index < m_categories.size())
                emit categoryClicked(barIndex(index));
        });
    }
    m_series->setBarWidth(0.8);

    m_logAxis->setBase(10);
    m_logAxis->setLabelFormat(QStringLiteral("%g"));
    m_logAxis->setMinorTickCount(8);
    m_linearAxis->setLabelFormat(QStringLiteral("%g"));
    chart->addAxis(m_categoryAxis, Qt::AlignLeft);
    m_series->attachAxis(m_categoryAxis);
    rebuildAxes();
    applyPalette();
}

void BarChart::changeEvent(QEvent* event)
{
    QChartView::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        applyPalette();
    if (event->type() == QEvent::FontChange)
        setMinimumHeight(minimumSizeHint().height());
}

void BarChart::applyPalette()
{
    applyChartPalette(*this, { m_categoryAxis, m_linearAxis, m_logAxis });
}

QSize BarChart::sizeHint() const
{
    return QSize(600, 360).expandedTo(minimumSizeHint());
}

QSize BarChart::minimumSizeHint() const
{
    // Below this height Qt Charts draws the axis labels, the axis title and then the chart's title
    // as "…": room for the title, the legend, the value axis with its title (ten lines of text
    // and the margins, measured at 96 and 144 dpi) and a line for each category after the first.
    const int line = fontMetrics().height();
    const int categories = std::max<int>(1, static_cast<int>(m_categories.size()));
    return { QChartView::minimumSizeHint().width(), 60 + 10 * line + (categories - 1) * line };
}

void BarChart::setTitle(const QString& title)
{
    if (title != chart()->title()) // a new title lays the chart out again
        chart()->setTitle(title);
}

void BarChart::setData(const QStringList& categories, const QString& nameA, const QList<qreal>& valuesA,
    const QString& nameB, const QList<qreal>& valuesB, const QString& valueTitle)
{
    m_categories = categories;
    setMinimumHeight(minimumSizeHint().height()); // a set minimum: the splitters around it honour it
    m_values = { valuesA, valuesB };
    m_valueTitle = valueTitle;
    m_names = { nameA, nameB };
    m_selected.clear();
    rebuildWhenShown();
}

void BarChart::rebuildWhenShown()
{
    // In a window that is not shown (tests), build at once: nothing waits for its paint.
    if (!isVisible() && window()->isVisible()) {
        m_rebuildPending = true;
        return;
    }
    rebuildAxes();
}

void BarChart::showEvent(QShowEvent* event)
{
    if (m_rebuildPending)
        rebuildAxes();
    QChartView::showEvent(event);
}

void BarChart::applyValues(qreal floor)
{
    for (int side = 0; side < 2; ++side) {
        QBarSet* set = m_sets[static_cast<size_t>(side)];
        // Qt draws the first category at the bottom: reverse so that the chart reads like the table.
        QList<qreal> values;
        const QList<qreal>& source = m_values[static_cast<size_t>(side)];
        values.reserve(source.size());
        for (qsizetype i = source.size() - 1; i >= 0; --i)
            values.append(std::max(source[i], floor));
        // Deselected while its bars still exist: QBarSet::remove forgets the selection without
        // repainting, so a bar selected before was drawn selected after a new report.
        set->deselectAllBars();
        set->remove(0, set->count());
        set->append(values);
    }
    applySelection();
}

QString BarChart::hoverText(int category, int side) const
{
    const auto value
        = [&](int s) { return QLocale().toString(m_values[static_cast<size_t>(s)].value(category), 'g', 6); };
    return tr("<b>%1</b><br>%2: %3<br>%4: %5<br><i>%6</i>")
        .arg(m_categories.value(category).toHtmlEscaped(), m_names[static_cast<size_t>(side)].toHtmlEscaped(),
            value(side), m_names[static_cast<size_t>(1 - side)].toHtmlEscaped(), value(1 - side),
            m_valueTitle.toHtmlEscaped());
}

QString BarChart::savedImageTitle() const
{
    const QString traces = tr("%1 vs %2").arg(m_names[0], m_names[1]);
    return chart()->title().isEmpty() ? traces : chart()->title() + QStringLiteral("<br>") + traces;
}

QList<qreal> BarChart::values(int side) const
{
    return m_values[static_cast<size_t>(side)];
}

void BarChart::setLogarithmic(bool logarithmic)
{
    if (m_logarithmic == logarithmic)
        return;
    m_logarithmic = logarithmic;
    rebuildWhenShown();
}

void BarChart::rebuildAxes()
{
    m_rebuildPending = false;
    QChart* chart = this->chart();
    for (size_t side = 0; side < 2; ++side) {
        if (m_sets[side]->label() != m_names[side])
            m_sets[side]->setLabel(m_names[side]);
    }

    // The axes are kept and updated rather than replaced: a removed axis leaves its labels and
    // grid lines in the scene until their deferred deletion.
    m_categoryAxis->setCategories(QStringList(m_categories.rbegin(), m_categories.rend()));

    qreal maximum = 0;
    qreal minimumPositive = 0;
    for (const QList<qreal>& values : m_values) {
        for (const qreal value : values) {
            maximum = std::max(maximum, value);
            if (value > 0 && (minimumPositive == 0 || value < minimumPositive))
                minimumPositive = value;
        }
    }

    // A log axis lays the bars out again for every value removed, taking the logarithm of the
    // zeros left behind: the linear axis stands in while the values change.
    if (chart->axes().contains(m_logAxis)) {
        releaseAxis(m_logAxis);
        chart->addAxis(m_linearAxis, Qt::AlignBottom);
        m_series->attachAxis(m_linearAxis);
    }
    QAbstractAxis* valueAxis = nullptr;
    if (m_logarithmic) {
        // Zero cannot be shown on a log scale: start at the decade below the smallest value, so
        // that even the smallest bar has a length.
        const qreal low = minimumPositive > 0 ? std::pow(10.0, std::ceil(std::log10(minimumPositive)) - 1) : 1.0;
        const qreal high = maximum > 0 ? std::pow(10.0, std::ceil(std::log10(maximum * 1.01))) : 10.0;
        m_logAxis->setRange(low, std::max(high, low * 10));
        applyValues(low);
        valueAxis = m_logAxis;
    } else {
        applyValues(0);
        m_linearAxis->setRange(0, maximum > 0 ? maximum * 1.05 : 1.0);
        m_linearAxis->applyNiceNumbers();
        valueAxis = m_linearAxis;
    }
    valueAxis->setTitleText(m_logarithmic ? m_valueTitle + tr(" (log scale)") : m_valueTitle);
    QAbstractAxis* otherAxis = m_logarithmic ? static_cast<QAbstractAxis*>(m_linearAxis) : m_logAxis;
    if (chart->axes().contains(otherAxis))
        releaseAxis(otherAxis);
    if (!chart->axes().contains(valueAxis)) {
        chart->addAxis(valueAxis, Qt::AlignBottom);
        m_series->attachAxis(valueAxis);
    }
}

void BarChart::releaseAxis(QAbstractAxis* axis)
{
    chart()->removeAxis(axis);
    axis->setParent(this); // the chart let go of it
}

void BarChart::setSelectedCategories(const QList<int>& categories)
{
    m_selected.clear();
    for (const int category : categories) {
        if (category >= 0 && category < m_categories.size() && !m_selected.contains(category))
            m_selected.append(category);
    }
    std::sort(m_selected.begin(), m_selected.end());
    if (!m_rebuildPending)
        applySelection();
}

void BarChart::applySelection()
{
    QList<int> bars;
    for (const int category : m_selected)
        bars.append(barIndex(category));
    for (QBarSet* set : m_sets) {
        set->deselectAllBars();
        set->selectBars(bars);
    }
}

QList<int> BarChart::selectedCategories() const
{
    return m_selected;
}

QString BarChart::saveImage(const QString& path)
{
    if (m_rebuildPending)
        rebuildAxes();
    // A saved chart says which traces it compares; the one on screen has them in its legend.
    const QString shownTitle = chart()->title();
    const QString savedTitle = savedImageTitle();
    chart()->setTitle(savedTitle);
    chart()->layout()->activate();
    const auto restore = qScopeGuard([&] {
        chart()->setTitle(shownTitle);
        chart()->layout()->activate();
    });
    return writeImage(
        path, { size(), devicePixelRatioF(), savedTitle, [this](QPainter& painter) { render(&painter); } });
}

QImage BarChart::image(const QSize& size)
{
    if (m_rebuildPending)
        rebuildAxes();
    return renderChartImage(*this, size, savedImageTitle());
}

} // namespace fusiondiff::ui
