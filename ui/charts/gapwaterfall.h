#pragma once

#include <QString>
#include <QWidget>

#include <vector>

namespace fusiondiff::ui {

// One part of the gap between A's and B's GPU time: how much it adds (positive: B takes longer)
// and why, in words. `fusion` marks the parts that kernel fusion explains.
struct GapPart
{
    QString title;
    double deltaUs = 0;
    QString cause;
    bool fusion = false;
};

// The gap at a glance: from A's GPU time to B's, one step per part (or from B's to A's when
// `fromB`, so that the chart climbs from the faster side to the slower and a part's sign is the
// verdict's: the slower side's extra time is +).
struct GapWaterfallData
{
    QString nameA;
    QString nameB;
    double totalUs[2] = { 0, 0 }; // A's and B's GPU time
    std::vector<GapPart> parts; // deltaUs: in the chart's direction (B - A, or A - B when fromB)
    bool fromB = false;
    QString timeName; // what the totals are ("step time"); empty: GPU time
    // The largest gap run-to-run noise explains (the core's GapNoise::noiseUs): a band from the
    // faster side's total up by this much; a slower total inside it is within noise. 0: none.
    double noiseUs = 0;
};

// A waterfall chart of GapWaterfallData: A's total, a floating bar per part (from the running
// total to the running total plus its delta; B's extra time in B's colour, A's in A's), B's total.
// Parts that fusion explains are hatched. Where the parts do not add up to B - A, a last part,
// "Not attributed", shows the rest. Hovering a bar tells its part; a click reports it.
//
// The Summary feeds it the core's time gap by cause (gapbycause.h), or by kernel type
// (gapbytype.h) where the time gap has nothing to split.
class GapWaterfall : public QWidget
{
    Q_OBJECT
public:
    explicit GapWaterfall(QWidget* parent = nullptr);

    void setData(GapWaterfallData waterfall);
    // The parts drawn: the data's and, if they do not add up, "Not attributed".
    const std::vector<GapPart>& parts() const { return m_parts; }
    // The bar at `position`: -1 none, 0 A's total, 1..parts().size() a part, parts().size() + 1
    // B's total.
    int barAt(QPointF position) const;
    QRectF barRect(int bar) const;
    // The time at the plot's bottom: 0, or above it when the gap is small against the totals, so
    // that the parts can be seen (the totals' bars are then drawn broken).
    double axisFloor() const;
    QString barToolTip(int bar) const;
    // The label under a bar as drawn: its words wrap in the bar's slot, and a word wider than the
    // slot is elided ("unattri…") rather than cut at both ends.
    QString barLabel(int bar) const;
    // "A: <name>" for the total bars, the name once where it already says its side.
    QString sideLabel(int side) const;

    // Its height holds the values above the bars and the labels under them whole in the font as
    // it is (a larger system font needs more than the default's pixels), at its width: the labels
    // wrap in narrower slots, and the values take two staggered rows where they are wider than a
    // slot. The plot gets at least kMinimumPlotHeight.
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    // The heights of the row of values above the plot and of the labels under it.
    int valueRowsHeight() const;
    int labelHeight() const;
    // Whether the values are in two rows above the plot, every other bar's in the upper one, so
    // that they do not overlap (one is wider than its slot).
    bool valuesStaggered() const;
    // Where a bar's value and its label are drawn.
    QRectF valueRect(int bar) const;
    QRectF labelRect(int bar) const;
    QString valueText(int bar) const;
    // The run-to-run noise band across the plot (empty without noiseUs), and its label.
    QRectF noiseBandRect() const;
    QString noiseBandLabel() const;
    // Where the label is drawn: under the band between the totals' bars where there is room.
    QRectF noiseLabelRect() const;
    static constexpr int kMinimumPlotHeight = 60;

signals:
    // A click on part `part` (an index into parts()).
    void partClicked(int part);

protected:
    bool event(QEvent* event) override;
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;

private:
    int barCount() const { return static_cast<int>(m_parts.size()) + 2; }
    // The side a total's bar stands for: 0 (A) or 1 (B).
    int sideOfBar(int bar) const { return (bar == 0) == !m_data.fromB ? 0 : 1; }
    // The bar's start and end on the time axis.
    std::pair<double, double> barSpan(int bar) const;
    // The plot's top on the time axis (the highest bar's end, or the noise band's), and a time's y.
    double axisTop() const;
    double yOf(double us) const;
    QRectF plotRect() const;
    QString timeName() const;
    double slotWidth() const;

    GapWaterfallData m_data;
    std::vector<GapPart> m_parts;
};

} // namespace fusiondiff::ui
