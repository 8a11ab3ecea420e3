#pragma once

#include "charts/gapwaterfall.h"
#include "model/timegap.h"

#include <QString>

#include <vector>

namespace fusiondiff {
struct FusionReport;
}

namespace fusiondiff::ui {

// One breakdown of the core's time gap (report.timeGap: its kernelTime, or its stepTime with the
// GPU's idle by cause as parts of their own) as a waterfall from the faster side's time to the
// slower side's: one part per cause (extra kernels, speed, collectives, one side only, host,
// sync, ...), the extra kernels marked as fusion's. A part's sign is the verdict's: what it adds
// to the slower side's time. `causes` gets each part's cause. Empty parts are left out; so is the
// residual while it is only rounding.
GapWaterfallData gapByCause(
    const FusionReport& report, const TimeGapBreakdown& breakdown, std::vector<GapCause>* causes);

// Whether a part of the step-time basis is GPU idle time (host, sync, launch, other).
bool isIdleCause(GapCause cause);

// The core's one-line verdict, as rich text: "<b>B (NVIDIA) is slower than A (AMD) by 2.4 ms
// (5.5%)</b> in GPU kernel time (45.4 ms vs 43.1 ms): speed +2.1 ms, ...".
QString gapCauseVerdict(const FusionReport& report);

} // namespace fusiondiff::ui
