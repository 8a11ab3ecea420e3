#pragma once

#include "analysis/analysiscontroller.h"

namespace fusiondiff::ui {

class TraceDropZone;

// What a drop zone shows of its side of the controller: nothing yet, the trace loading, the
// trace loaded (platform, GPU, kernels, GPU time) or why it cannot be used, and the capture
// trace with its graphs and launches or its error. `notRecordedUs`: once the comparison knows it,
// the GPU time the trace holds no kernels for (a graph launch recorded only in part), which the
// zone then names beside the recorded time, as the Summary counts it. `run`: for a side of a
// multi-rank run, which rank of which run the trace is, said first.
void showSideState(
    TraceDropZone& zone, const AnalysisController::SideState& state, double notRecordedUs = 0, const QString& run = {});

} // namespace fusiondiff::ui
