#pragma once

#include "model/steptime.h"

#include <QWidget>

#include <array>
#include <vector>

namespace fusiondiff::ui {

// Every step of A and B side by side, to scale on a labelled time axis: per step index a bar for A
// and one for B, each stacked from the bottom as the GPU's recorded busy time (in the side's
// colour), its busy time without kernel records (hatched, as on the Timeline: a graph launch ran on
// after its last recorded kernel), then its idle time by cause (host, sync, launch, other;
// idlecolors.h). A band above the bars names each phase where A's steps are in it. Hovering a bar
// tells its step's times.
class StepChart : public QWidget
{
    Q_OBJECT
public:
    explicit StepChart(QWidget* parent = nullptr);

    void setSteps(const StepTimeReport* steps); // nullptr: none
    // The stack of `side`'s step `step`, bottom first: recorded busy, not recorded (busy too), then
    // idle by IdleCause.
    std::vector<double> stackUs(int side, size_t step) const;
    // The time axis's ticks (microseconds, from 0 up to the tallest step at 1, 2 or 5 times a power
    // of ten) and their labels ("20 ms").
    std::vector<double> axisTicksUs() const;
    QString axisLabel(double us) const;
    // The legend's entries, in order: the sides' busy time, "not recorded" where a step has any,
    // then the idle causes.
    QStringList legendNames() const;
    size_t stepCount(int side) const;
    // The whole bar of a step; empty when there is no such step.
    QRectF barRect(int side, size_t step) const;
    QString barToolTip(int side, size_t step) const;

    QSize sizeHint() const override { return { 720, 260 }; }
    QSize minimumSizeHint() const override { return { 240, 180 }; }

protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;

private:
    QRectF plotRect() const;
    int legendRows() const;
    double axisWidth() const;
    double maxTimeUs() const;
    bool hasNotRecorded() const;
    size_t slotCount() const;

    std::array<std::vector<StepRecord>, 2> m_steps;
    std::vector<std::string> m_phases;
};

} // namespace fusiondiff::ui
