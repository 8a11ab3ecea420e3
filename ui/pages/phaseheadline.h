#pragma once

#include "model/timegap.h"

#include <QString>

#include <vector>

namespace fusiondiff {
struct FusionReport;
struct StepTimeRow;
} // namespace fusiondiff

namespace fusiondiff::ui {

// One compared phase's step time, A against B, for the Summary's per-phase headline: the
// verdict adds the phases up, and a serving trace's prefill steps then hide its decode steps.
struct PhaseHeadline
{
    QString phase; // "phase 1", as the step_times table names it
    uint64_t stepsA = 0;
    uint64_t stepsB = 0;
    double medianA = 0; // microseconds a step, the step_times table's median
    double medianB = 0;
    double deltaUs = 0; // B - A a step (medians): positive where B takes longer
    NoiseVerdict noise = NoiseVerdict::Significant; // of the phase's summed gap (the verdict's rule)
    QString noiseText; // "beyond run-to-run noise", "within run-to-run noise", "cannot tell: ..."
};

// The report's compared phases (the step_times rows other than "all steps"); empty where the
// report has fewer than two phases, since the verdict then says it all.
std::vector<PhaseHeadline> phaseHeadlines(const FusionReport& report);

// The same as a rich-text table for the Summary, in the side aliases' words; empty without phases.
QString phaseHeadlineHtml(const FusionReport& report);

} // namespace fusiondiff::ui
