#include "shell/zonestate.h"

#include "display/formatting.h"
#include "model/graphreport.h"
#include "model/tracestore.h"
#include "widgets/tracedropzone.h"

namespace fusiondiff::ui {

namespace {

void showCaptureState(TraceDropZone& zone, const AnalysisController::SideState& state)
{
    if (state.captureError) {
        QString message = state.captureError->reason;
        if (state.captureError->byteOffset)
            message += TraceDropZone::tr(" (%1)").arg(state.captureError->offsetText());
        zone.showCapture(state.capturePath, {}, message);
        return;
    }
    QString details;
    if (state.capture) {
        size_t launches = 0;
        for (const CapturedGraph& graph : state.capture->graphs)
            launches += graph.launches.size();
        const size_t graphs = state.capture->graphs.size();
        details = (graphs == 1 ? TraceDropZone::tr("1 graph captured")
                               : TraceDropZone::tr("%1 graphs captured").arg(formatCount(graphs)))
            + QStringLiteral(", ")
            + formatCountOf(launches, TraceDropZone::tr("kernel launch"), TraceDropZone::tr("kernel launches"));
    }
    zone.showCapture(state.capturePath, details, {});
}

} // namespace

void showSideState(
    TraceDropZone& zone, const AnalysisController::SideState& state, double notRecordedUs, const QString& run)
{
    switch (state.status) {
    case AnalysisController::Status::Empty:
        zone.showEmpty();
        break;
    case AnalysisController::Status::Loading:
        zone.showLoading(state.path); // a run: its folder, then the rank to compare
        break;
    case AnalysisController::Status::Loaded: {
        const TraceStore& store = *state.store;
        const QString gpuTime = notRecordedUs > 0
            ? TraceDropZone::tr("%1 GPU time recorded, %2 not recorded")
                  .arg(formatDuration(state.totals.kernelTimeUs), formatDuration(notRecordedUs))
            : TraceDropZone::tr("%1 GPU time").arg(formatDuration(state.totals.kernelTimeUs));
        QString details
            = TraceDropZone::tr("%1 \u00B7 %2 \u00B7 %3 \u00B7 %4")
                  .arg(QString::fromLatin1(platformName(store.platform)),
                      store.gpuName.empty() ? TraceDropZone::tr("GPU model not recorded") : toQString(store.gpuName),
                      formatCountOf(state.totals.kernels, TraceDropZone::tr("kernel"), TraceDropZone::tr("kernels")),
                      gpuTime);
        if (!run.isEmpty())
            details = run + QStringLiteral(" \u00B7 ") + details;
        zone.showLoaded(state.path, details);
        break;
    }
    case AnalysisController::Status::Failed: {
        const TraceError& error = *state.error;
        QString message = TraceDropZone::tr("Cannot use %1: %2").arg(error.fileName(), error.reason);
        if (error.byteOffset)
            message += TraceDropZone::tr(" (%1)").arg(error.offsetText());
        zone.showError(state.path, message);
        break;
    }
    case AnalysisController::Status::Cancelled:
        zone.showCancelled(state.path);
        break;
    }
    showCaptureState(zone, state);
}

} // namespace fusiondiff::ui
