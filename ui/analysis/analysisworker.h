#pragma once

#include "analysis/analysisresults.h"
#include "analysis/traceerror.h"
#include "model/analysisoptions.h"
#include "model/tracetotals.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <array>
#include <atomic>
#include <memory>

namespace fusiondiff {
struct JobReport;
}

namespace fusiondiff::ui {

// The QSettings key of the threads that parse traces (0: the machine's cores), set in the analysis
// settings and read by each load.
inline const QString kLoadThreadsSetting = QStringLiteral("load/threads");

// One unit of work for the worker thread: load the sides that have a path (the others use the
// stores given) and the capture traces to load, then, if both sides have a store, classify and
// analyse.
struct AnalysisJob
{
    quint64 generation = 0;
    std::array<QString, 2> loadPaths; // empty: do not load this side
    std::array<std::shared_ptr<const TraceStore>, 2> stores;
    // Graph-capture traces (--capture1/--capture2 of the CLI): loaded after the traces.
    std::array<QString, 2> loadCapturePaths; // empty: do not load one for this side
    std::array<std::shared_ptr<const CaptureTrace>, 2> captures;
    std::shared_ptr<const Classifier> classifier;
    AnalysisOptions options;
    std::shared_ptr<std::atomic<bool>> cancel; // polled by the core between chunks and steps
    // Multi-rank runs (both sides given when either is a run): without `jobReport`, the ranks are
    // first compared as jobs, and the sides to load are then the ranks of its detailed pair.
    std::array<QStringList, 2> runInputs;
    std::shared_ptr<const JobReport> jobReport; // the runs already compared: load only the pair
};

// A trace the worker loaded, with what its drop zone shows.
struct LoadedSide
{
    std::shared_ptr<const TraceStore> store;
    TraceTotals totals;
};

// A capture trace the worker loaded.
struct LoadedCapture
{
    std::shared_ptr<const CaptureTrace> capture;
};

// Lives on the controller's QThread. Everything it reports is tagged with the job's generation
// and crosses to the GUI thread by queued signals; progress is batched (at most one report per
// kProgressIntervalMs, the core itself reports once per 8 MB chunk).
class AnalysisWorker : public QObject
{
    Q_OBJECT
public:
    static constexpr qint64 kProgressIntervalMs = 40;

    explicit AnalysisWorker(QObject* parent = nullptr);

    // Runs on the worker thread (invoked there by the controller).
    void run(const fusiondiff::ui::AnalysisJob& job);

signals:
    void loadProgress(quint64 generation, quint64 done, quint64 total);
    void traceLoaded(quint64 generation, int side, const fusiondiff::ui::LoadedSide& loaded);
    void traceFailed(quint64 generation, int side, const fusiondiff::ui::TraceError& error);
    void captureLoaded(quint64 generation, int side, const fusiondiff::ui::LoadedCapture& loaded);
    void captureFailed(quint64 generation, int side, const fusiondiff::ui::TraceError& error);
    // Multi-rank runs: rank traces summarised so far, the runs compared as jobs, or a bad rank set.
    void rankProgress(quint64 generation, quint64 done, quint64 total);
    void jobCompared(quint64 generation, const std::shared_ptr<const fusiondiff::JobReport>& job);
    void runFailed(quint64 generation, int side, const fusiondiff::ui::TraceError& error);
    void analysisStarted(quint64 generation);
    void analysisFinished(quint64 generation, const fusiondiff::ui::AnalysisResults& results);
    void analysisFailed(quint64 generation, const QString& message);
    void cancelled(quint64 generation);
    // Always the last signal of a job.
    void jobDone(quint64 generation);
};

} // namespace fusiondiff::ui

Q_DECLARE_METATYPE(fusiondiff::ui::LoadedSide)
Q_DECLARE_METATYPE(fusiondiff::ui::LoadedCapture)
Q_DECLARE_METATYPE(std::shared_ptr<const fusiondiff::JobReport>)
