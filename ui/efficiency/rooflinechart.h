#pragma once

#include <QChartView>
#include <QList>
#include <QPointF>
#include <QString>

#include <array>
#include <memory>
#include <vector>

class QLineSeries;
class QLogValueAxis;
class QScatterSeries;

namespace fusiondiff {
struct FusionReport;
}

namespace fusiondiff::ui {

// The efficiency table's rows on a roofline, log-log: arithmetic intensity (FLOP per byte, the
// same on both sides) against the achieved TFLOPS of each side, A's and B's points of a row joined
// by a line; each side's roofs for one data type (its HBM bandwidth's diagonal up to its ridge,
// then its dense matrix peak) dashed in the side's colour. Rows without FLOPs (memory operators)
// have no place on it. Selected rows are drawn larger; clicking a point reports its row.
class RooflineChart : public QChartView
{
    Q_OBJECT
public:
    explicit RooflineChart(QWidget* parent = nullptr);

    // The rows to draw (indices into report.efficiency.rows: those the table's filters leave).
    void setRows(std::shared_ptr<const FusionReport> report, const QList<int>& rows);
    void setSelectedRows(const QList<int>& rows);

    // What is drawn, for the page's note and for tests.
    const QList<int>& plottedRows() const { return m_plotted; }
    // The point of `row` on `side` (intensity, TFLOPS); null if the row has none there.
    QPointF pointOf(int row, int side) const;
    // The data type whose roofs are drawn ("bf16"; empty: none), and each side's roof as drawn:
    // {bandwidth TB/s, peak TFLOPS}, or {0, 0} where the side's GPU or its peak is unknown.
    QString roofDataType() const { return m_roofDtype; }
    QPointF roofOf(int side) const { return m_roofs[static_cast<size_t>(side)]; }
    QScatterSeries* pointsOf(int side) const { return m_points[static_cast<size_t>(side)]; }
    // The row of the point of `side` nearest `value` (as QScatterSeries::clicked gives it); -1 if none.
    int rowAt(int side, const QPointF& value) const;

signals:
    void rowClicked(int row);

protected:
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void rebuild();
    void updateSelection();
    void reportClick(int side, const QPointF& value);
    QString chooseRoofDataType() const;
    void addRoofs(double xMin, double xMax);
    void hideFromLegend(QLineSeries* series);
    void fitToSize();
    void applyPalette();

    std::shared_ptr<const FusionReport> m_report;
    QList<int> m_rows;
    QList<int> m_selected;
    QList<int> m_plotted;
    std::array<std::vector<int>, 2> m_pointRows; // the row of each point of m_points
    std::array<QScatterSeries*, 2> m_points {};
    std::array<QScatterSeries*, 2> m_selectedPoints {};
    std::vector<QLineSeries*> m_links; // per plotted row
    QLogValueAxis* m_x;
    QLogValueAxis* m_y;
    QString m_roofDtype;
    std::array<QPointF, 2> m_roofs {};
};

} // namespace fusiondiff::ui
