#pragma once

#include "charts/gapwaterfall.h"
#include "model/timegap.h"

#include <QString>

#include <vector>

namespace fusiondiff {
struct FusionReport;
}

namespace fusiondiff::ui {

// The core's time gap (report.timeGap, GPU kernel time) as a waterfall from A's time to B's: one
// part per cause (extra kernels, speed, collectives, one side only, ...), the extra kernels marked
// as fusion's. `causes` gets each part's cause. Empty parts are left out; so is the residual
// while it is only rounding.
GapWaterfallData gapByCause(const FusionReport& report, std::vector<GapCause>* causes);

// The core's one-line verdict, as rich text: "<b>B (NVIDIA) is slower than A (AMD) by 2.4 ms
// (5.5%)</b> in GPU kernel time (45.4 ms vs 43.1 ms): speed +2.1 ms, ...".
QString gapCauseVerdict(const FusionReport& report);

} // namespace fusiondiff::ui
