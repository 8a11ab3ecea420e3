#pragma once

#include "analysis/analysiscontroller.h"

namespace fusiondiff::ui {

class TraceDropZone;

// What a drop zone shows of its side of the controller: nothing yet, the trace loading, the
// trace loaded (platform, GPU, kernels, GPU time) or why it cannot be used, and the capture
// trace with its graphs and launches or its error.
void showSideState(TraceDropZone& zone, const AnalysisController::SideState& state);

} // namespace fusiondiff::ui
