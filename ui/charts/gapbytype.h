#pragma once

#include "charts/gapwaterfall.h"

#include <QList>

namespace fusiondiff {
struct FusionReport;
}

namespace fusiondiff::ui {

// The time gap between A's and B's GPU time split by kernel type, from the report's global counts:
// the faster side's time plus, for each type, the slower side's time in it minus the faster's is
// the slower side's time, exactly (from B to A, `fromB`, when A is slower). The `maxParts` - 1
// types that move it most are parts of their own, the others one part; a type is marked as
// fusion's where the reference analysis found a fusion opportunity for it. `typeRows` gets, per
// part, the row of its type in report.globalCounts (-1 for the rest).
//
// The Summary shows it only where the core's time gap has no part to show (gapbycause.h).
GapWaterfallData gapByKernelType(const FusionReport& report, int maxParts, QList<int>* typeRows);
// "B takes 2.3 ms (22%) longer than A on the GPU: 12.4 ms against 10.1 ms."
QString gapVerdict(const FusionReport& report);

} // namespace fusiondiff::ui
