#pragma once

#include <QChartView>
#include <QImage>
#include <QList>
#include <QString>

#include <array>
#include <utility>

class QAbstractBarSeries;
class QBarSeries;
class QBarSet;
class QStackedBarSeries;
class QValueAxis;

namespace fusiondiff::ui {

// The GPU time of each layer of a step (report.layerTimes), one column of bars per layer index
// from left to right: B − A per layer (above the axis where B takes longer, in B's colour; below
// where A does, in A's), the same in % of A's time (so that short layers show), or both sides'
// times side by side. A value axis numbers the layers, its
// labels thinned to the room there is, so that 180 layers read as well as 24. Selected layers are
// drawn darker, and a click on a bar reports its layer. Built when first shown (as BarChart).
class LayerChart : public QChartView
{
    Q_OBJECT
public:
    enum Mode
    {
        Difference, // B − A
        Relative, // B − A, in % of A's time
        PerSide, // A and B
    };

    explicit LayerChart(QWidget* parent = nullptr);
    ~LayerChart() override;

    // Per layer, in order (layer i of the step at position i); `names` are the legend's A and B.
    void setData(const std::array<QString, 2>& names, const QList<qreal>& timeUsA, const QList<qreal>& timeUsB);
    void setMode(Mode mode);
    Mode mode() const { return m_mode; }
    int layerCount() const { return static_cast<int>(m_timeUs[0].size()); }
    // The bars as drawn: the values of `side`'s set in the current mode (in the axis's unit), for
    // tests. In the difference modes side 1 holds the layers where B takes longer, 0 where A does.
    QList<qreal> barValues(int side);
    QString valueTitle() const;
    // What hovering layer `layer` shows: both sides' times and the difference.
    QString hoverText(int layer) const;

    void setSelectedLayers(const QList<int>& layers);
    QList<int> selectedLayers() const { return m_selected; }

    // Writes the chart as shown as PNG or, for a name ending in .svg, SVG; returns "" or the error.
    QString saveImage(const QString& path);
    // The chart drawn at `size` with a saved image's title (for reports; the widget may be hidden).
    QImage image(const QSize& size);
    void applyPalette();
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void layerClicked(int layer);

protected:
    void changeEvent(QEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    // Rebuilds the bars and axes now, or when the chart is shown.
    void rebuildWhenShown();
    void rebuild();
    void showSeries(QAbstractBarSeries* shown);
    void setNiceRange(qreal low, qreal high);
    // Places the legend and spaces the ticks of both axes for the chart's size.
    void fitToSize();
    void applySelection();
    // Labels the layer axis every 1, 2, 5, 10, 20, ... layers: as often as the width allows.
    void updateLayerTicks();
    QString savedImageTitle() const;
    QBarSet* newSet(const QString& label, int side);

    QBarSeries* m_sideSeries;
    QStackedBarSeries* m_differenceSeries;
    std::array<QBarSet*, 2> m_sideSets {};
    std::array<QBarSet*, 2> m_differenceSets {}; // A takes longer, B takes longer
    QValueAxis* m_layerAxis;
    QValueAxis* m_valueAxis;
    std::array<QString, 2> m_names { QStringLiteral("A"), QStringLiteral("B") };
    std::array<QList<qreal>, 2> m_timeUs;
    bool m_milliseconds = false; // the value axis's unit (for times)
    std::pair<qreal, qreal> m_valueRange { 0, 1 }; // what the value axis must show
    QList<int> m_selected;
    Mode m_mode = Difference;
    bool m_rebuildPending = false;
};

} // namespace fusiondiff::ui
