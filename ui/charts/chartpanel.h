#pragma once

#include <QWidget>

class QCheckBox;
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

public slots:
    void saveChart();

signals:
    void metricChanged(Metric metric);

protected:
    // metric() above is the chart's; QPaintDevice's metric(PaintDeviceMetric) stays as it was.
    using QWidget::metric;

private:
    void updateEmpty();

    BarChart* m_chart;
    QComboBox* m_metric;
    QCheckBox* m_logScale = nullptr;
    QLabel* m_empty;
    // The chart or, in its place, the empty text: one size hint for both, so that a splitter
    // first laid out around the text gives the chart its share when it returns.
    QStackedWidget* m_stack;
    QString m_saveName;
    QString m_emptyText;
};

} // namespace fusiondiff::ui
