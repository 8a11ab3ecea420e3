#pragma once

#include <QWidget>

class QCheckBox;
class QHBoxLayout;
class QToolButton;
class QComboBox;
class QLabel;
class QStackedWidget;

namespace fusiondiff::ui {

class BarChart;

// A BarChart with its controls: launch counts or GPU time, optionally a log scale, and "Save
// chart" (PNG or SVG).
class ChartPanel : public QWidget
{
    Q_OBJECT
public:
    enum Metric
    {
        Launches,
        GpuTime,
    };

    explicit ChartPanel(const QString& saveName, bool offerLogScale, QWidget* parent = nullptr);

    BarChart* chart() const { return m_chart; }
    Metric metric() const;
    void setMetric(Metric metric);
    void setLogarithmic(bool logarithmic);
    // Shown instead of the chart when there is nothing to draw.
    void setEmptyText(const QString& text);

    // With `wrap`, the panel can be as narrow as the chart and its controls on two rows (the save
    // button below the others, the "Show:" label left out), and is where it must: beside a table
    // that wants its columns, the chart gives way. Off by default: a panel that is narrow anyway
    // (a drill-down's) would make its page, and so the window, a row taller.
    void setControlsWrap(bool wrap);
    QSize minimumSizeHint() const override;

public slots:
    void saveChart();

signals:
    void metricChanged(Metric metric);

protected:
    // metric() above is the chart's; QPaintDevice's metric(PaintDeviceMetric) stays as it was.
    using QWidget::metric;
    void resizeEvent(QResizeEvent* event) override;

private:
    void updateEmpty();
    // One row of controls where the panel is wide enough for it, else two.
    void arrangeControls();

    BarChart* m_chart;
    QComboBox* m_metric;
    QCheckBox* m_logScale = nullptr;
    QLabel* m_empty;
    // The chart or, in its place, the empty text: one size hint for both, so that a splitter
    // first laid out around the text gives the chart its share when it returns.
    QStackedWidget* m_stack;
    QString m_saveName;
    QString m_emptyText;
    QLabel* m_showLabel = nullptr;
    QToolButton* m_save = nullptr;
    QHBoxLayout* m_controls = nullptr;
    QHBoxLayout* m_secondRow = nullptr;
    QWidget* m_secondRowWidget = nullptr;
    bool m_wrapControls = false;
};

} // namespace fusiondiff::ui
