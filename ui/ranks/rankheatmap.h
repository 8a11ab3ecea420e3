#pragma once

#include <QWidget>

#include <vector>

namespace fusiondiff::ui {

// A ranks × steps heatmap of one side: a row per rank, a column per step, each cell coloured by
// its value against the largest of the side (or of both sides, setScale). The rank the others wait
// for longest in a step has its cell outlined, the side's straggler its row label marked, the rank
// of the detailed pair its label bold. Clicking a row asks for that rank.
class RankHeatmap : public QWidget
{
    Q_OBJECT
public:
    explicit RankHeatmap(QWidget* parent = nullptr);

    void setData(std::vector<int> ranks, std::vector<std::vector<double>> valuesUs, std::vector<int> stepStraggler,
        int straggler);
    // The value of the darkest colour: the same on both sides, so that they compare.
    void setScale(double maximumUs);
    void setSelectedRow(int row);
    double valueAt(int row, int step) const;
    int rows() const { return int(m_ranks.size()); }
    int steps() const { return m_values.empty() ? 0 : int(m_values[0].size()); }
    int rankOfRow(int row) const { return m_ranks.at(size_t(row)); }
    // The row outlined in a step (the rank the job waits for longest), -1 none.
    int stragglerRowOfStep(int step) const
    {
        return step < int(m_stepStraggler.size()) ? m_stepStraggler[size_t(step)] : -1;
    }
    int selectedRow() const { return m_selected; }
    // The centre of a cell, where a click chooses its rank.
    QPoint cellCenter(int row, int step) const;
    // The cell under a point of the widget; {-1, -1} outside the cells.
    std::pair<int, int> cellAt(const QPoint& point) const;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void rankClicked(int row);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    bool event(QEvent* event) override;

private:
    QRect cellsRect() const;
    int labelWidth() const;

    std::vector<int> m_ranks;
    std::vector<std::vector<double>> m_values;
    std::vector<int> m_stepStraggler;
    int m_straggler = -1;
    int m_selected = -1;
    double m_scale = 0;
};

} // namespace fusiondiff::ui
