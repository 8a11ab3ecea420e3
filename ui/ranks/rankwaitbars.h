#pragma once

#include <QWidget>

#include <vector>

namespace fusiondiff::ui {

// One side's collective time per rank, a bar each: the wait (for the last rank to arrive) and the
// transfer (after it arrived), stacked or side by side, on a scale that can be shared with the
// other side. The side's straggler is marked, the rank of the detailed pair bold; clicking a bar
// asks for that rank.
class RankWaitBars : public QWidget
{
    Q_OBJECT
public:
    explicit RankWaitBars(QWidget* parent = nullptr);

    void setData(std::vector<int> ranks, std::vector<double> waitUs, std::vector<double> transferUs, int straggler);
    void setStacked(bool stacked);
    bool isStacked() const { return m_stacked; }
    void setScale(double maximumUs); // the length of the whole axis
    double largestUs() const; // what the bars need of the axis
    void setSelectedRow(int row);
    int rows() const { return int(m_ranks.size()); }
    int rankOfRow(int row) const { return m_ranks.at(size_t(row)); }
    double waitAt(int row) const { return m_wait.at(size_t(row)); }
    double transferAt(int row) const { return m_transfer.at(size_t(row)); }
    int stragglerRow() const { return m_straggler; }
    int rowAt(const QPoint& point) const;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void rankClicked(int row);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    bool event(QEvent* event) override;

private:
    QRect barsRect() const;
    int labelWidth() const;
    int rowHeight() const;

    std::vector<int> m_ranks;
    std::vector<double> m_wait;
    std::vector<double> m_transfer;
    int m_straggler = -1;
    int m_selected = -1;
    bool m_stacked = true;
    double m_scale = 0;
};

} // namespace fusiondiff::ui
