#pragma once

#include "timeline/timelinedata.h"

#include <array>

namespace fusiondiff::ui {

// Adds the side's steps that begin before the lane's end to `lane`, from its first kernel at `first`.
void addSteps(TimelineLane& lane, const StepTimeSide& side, double first);

// The steps both lanes have: step N of A can be drawn with step N of B for N up to this.
int commonStepCount(const TimelineData& data);

// The lanes' shifts (TimelineLane::shift) that make step `number` (from 1) of A and of B start
// at one time, the lane whose step starts earlier drawn later; {0, 0} (each lane from its own
// first kernel) for 0 or a step a lane lacks.
std::array<double, 2> stepAlignmentShifts(const TimelineData& data, int number);

// The step of `number` on `side`, or nullptr.
const TimelineStep* laneStep(const TimelineData& data, int side, int number);

} // namespace fusiondiff::ui
