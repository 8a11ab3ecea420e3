#include "charts/chartpanel.h"

#include "charts/barchart.h"
#include "export/imageexport.h"
#include "widgets/wraplabel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QStackedWidget>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace fusiondiff::ui {

ChartPanel::ChartPanel(const QString& saveName, bool offerLogScale, QWidget* parent)
    : QWidget(parent)
    , m_chart(new BarChart(this))
    , m_metric(new QComboBox(this))
    , m_empty(new WrapLabel(this))
    , m_stack(new QStackedWidget(this))
    , m_saveName(saveName)
{
    m_metric->addItem(tr("Kernel launches"), Launches);
    m_metric->addItem(tr("GPU time (ms)"), GpuTime);
    connect(m_metric, &QComboBox::currentIndexChanged, this, [this] { emit metricChanged(metric()); });

    auto* controls = new QHBoxLayout;
    m_controls = controls;
    controls->setContentsMargins(0, 0, 0, 0);
    m_showLabel = new QLabel(tr("Show:"), this);
    controls->addWidget(m_showLabel);
    controls->addWidget(m_metric);
    if (offerLogScale) {
        m_logScale = new QCheckBox(tr("Log scale"), this);
        m_logScale->setToolTip(tr("Counts span orders of magnitude: a logarithmic axis shows the small ones too"));
        connect(m_logScale, &QCheckBox::toggled, m_chart, &BarChart::setLogarithmic);
        controls->addWidget(m_logScale);
    }
    controls->addStretch(1);
    auto* save = new QToolButton(this);
    m_save = save;
    save->setText(tr("Save chart..."));
    save->setToolTip(tr("Save the chart as a PNG or SVG image"));
    connect(save, &QToolButton::clicked, this, &ChartPanel::saveChart);
    controls->addWidget(save);

    m_empty->setAlignment(Qt::AlignCenter);
    m_stack->addWidget(m_chart);
    m_stack->addWidget(m_empty);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(controls);
    // Only where the panel is narrow (arrangeControls): hidden, it takes no room.
    m_secondRowWidget = new QWidget(this);
    m_secondRow = new QHBoxLayout(m_secondRowWidget);
    m_secondRow->setContentsMargins(0, 0, 0, 0);
    m_secondRow->addStretch(1);
    m_secondRowWidget->hide();
    layout->addWidget(m_secondRowWidget);
    layout->addWidget(m_stack, 1);
}

void ChartPanel::setControlsWrap(bool wrap)
{
    m_wrapControls = wrap;
    arrangeControls();
    updateGeometry();
}

QSize ChartPanel::minimumSizeHint() const
{
    if (!m_wrapControls)
        return QWidget::minimumSizeHint();
    const int spacing = m_controls->spacing();
    int first = m_metric->minimumSizeHint().width();
    if (m_logScale)
        first += spacing + m_logScale->sizeHint().width();
    const int width = std::max({ first, m_save->sizeHint().width(), m_stack->minimumSizeHint().width() });
    return { width, QWidget::minimumSizeHint().height() };
}

void ChartPanel::resizeEvent(QResizeEvent* event)
{
    arrangeControls();
    QWidget::resizeEvent(event);
}

void ChartPanel::arrangeControls()
{
    const int spacing = m_controls->spacing();
    int oneRow = m_showLabel->sizeHint().width() + spacing + m_metric->sizeHint().width() + spacing
        + m_save->sizeHint().width() + 2 * spacing;
    if (m_logScale)
        oneRow += spacing + m_logScale->sizeHint().width();
    const bool wide = !m_wrapControls || width() >= oneRow;
    m_showLabel->setVisible(wide);
    m_secondRowWidget->setVisible(!wide);
    if (wide && m_secondRow->indexOf(m_save) >= 0) {
        m_secondRow->removeWidget(m_save);
        m_controls->addWidget(m_save);
    } else if (!wide && m_controls->indexOf(m_save) >= 0) {
        m_controls->removeWidget(m_save);
        m_secondRow->addWidget(m_save);
    }
}

ChartPanel::Metric ChartPanel::metric() const
{
    return static_cast<Metric>(m_metric->currentData().toInt());
}

void ChartPanel::setMetric(Metric metric)
{
    m_metric->setCurrentIndex(m_metric->findData(metric));
}

void ChartPanel::setLogarithmic(bool logarithmic)
{
    if (m_logScale)
        m_logScale->setChecked(logarithmic);
}

void ChartPanel::setEmptyText(const QString& text)
{
    m_emptyText = text;
    updateEmpty();
}

void ChartPanel::updateEmpty()
{
    const bool empty = !m_emptyText.isEmpty();
    m_empty->setText(m_emptyText);
    m_stack->setCurrentWidget(empty ? static_cast<QWidget*>(m_empty) : m_chart);
}

void ChartPanel::saveChart()
{
    askAndSaveImage(
        this, tr("Save Chart"), m_saveName, [this](const QString& path) { return m_chart->saveImage(path); });
}

} // namespace fusiondiff::ui
