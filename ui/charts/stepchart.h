#pragma once

#include "model/steptime.h"

#include <QWidget>

#include <array>
#include <vector>

namespace fusiondiff::ui {

// Every step of A and B side by side, to scale: per step index a bar for A and one for B, each
// stacked from the bottom as the GPU's busy time (in the side's colour), then its idle time by
// cause (host, sync, launch, other; idlecolors.h). A band above the bars names each phase where
// A's steps are in it. Hovering a bar tells its step's times.
class StepChart : public QWidget
{
    Q_OBJECT
public:
    explicit StepChart(QWidget* parent = nullptr);

    void setSteps(const StepTimeReport* steps); // nullptr: none
    // The stack of `side`'s step `step`, bottom first: busy, then idle by IdleCause.
    std::vector<double> stackUs(int side, size_t step) const;
    size_t stepCount(int side) const;
    // The whole bar of a step; empty when there is no such step.
    QRectF barRect(int side, size_t step) const;
    QString barToolTip(int side, size_t step) const;

    QSize sizeHint() const override { return { 720, 260 }; }
    QSize minimumSizeHint() const override { return { 240, 160 }; }

protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;

private:
    QRectF plotRect() const;
    double maxTimeUs() const;
    size_t slotCount() const;

    std::array<std::vector<StepRecord>, 2> m_steps;
    std::vector<std::string> m_phases;
};

} // namespace fusiondiff::ui
