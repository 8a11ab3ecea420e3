#pragma once

#include "analysis/analysisresults.h"
#include "analysis/analysisworker.h"
#include "analysis/traceerror.h"
#include "model/analysisoptions.h"
#include "model/tracetotals.h"

#include <QObject>
#include <QThread>

#include <array>
#include <atomic>
#include <memory>
#include <optional>

namespace fusiondiff::ui {

// Owns the two traces (A = trace1, B = trace2) and runs loading and analysis in an AnalysisWorker
// on its own QThread. Files are validated synchronously; loaded stores are kept, so a change of
// classifier or parameters re-runs only the analysis. Each request gets a new generation: it
// cancels the running job, and results of older generations are dropped on arrival. Everything
// here runs on the GUI thread.
class AnalysisController : public QObject
{
    Q_OBJECT
public:
    enum class Status
    {
        Empty,
        Loading,
        Loaded,
        Failed,
        Cancelled,
    };
    struct SideState
    {
        Status status = Status::Empty;
        QString path;
        std::shared_ptr<const TraceStore> store;
        TraceTotals totals;
        std::optional<TraceError> error;
        // The optional graph-capture trace that goes with this trace (the CLI's --capture1/2).
        QString capturePath;
        std::shared_ptr<const CaptureTrace> capture; // once loaded
        std::optional<TraceError> captureError; // the comparison waits until it is replaced or removed
    };
    enum class Phase
    {
        Idle,
        Loading, // reading and parsing, by bytes
        Analysing, // classifying and analysing
    };

    explicit AnalysisController(QObject* parent = nullptr);
    ~AnalysisController() override;

    const SideState& side(int side) const { return m_sides[static_cast<size_t>(side)]; }
    // Validates and loads `path` into the side (an empty path clears it), with the capture trace
    // `capturePath` (none if empty).
    void setTrace(int side, const QString& path, const QString& capturePath = {});
    void setTraces(
        const QString& pathA, const QString& pathB, const QString& captureA = {}, const QString& captureB = {});
    // Sets or, with an empty path, removes the side's capture trace and compares again (the traces
    // are not read again).
    void setCaptureTrace(int side, const QString& path);
    void swapTraces();
    void setClassifier(std::shared_ptr<const Classifier> classifier);
    std::shared_ptr<const Classifier> classifier() const { return m_classifier; }
    void setOptions(const AnalysisOptions& options);
    const AnalysisOptions& options() const { return m_options; }

    bool isBusy() const { return m_phase != Phase::Idle; }
    Phase phase() const { return m_phase; }
    quint64 generation() const { return m_generation; }
    bool hasResults() const { return m_results.report != nullptr; }
    const AnalysisResults& results() const { return m_results; }

public slots:
    // Stops the running job and frees what it was still loading; a trace that had finished loading
    // stays on its side. With a pair on screen, a side still loading returns to that pair's trace;
    // before the first results, it returns to not loaded.
    void cancel();

signals:
    void sideChanged(int side);
    void busyChanged(bool busy);
    // permille: 0..900 while loading (by bytes), 900..1000 while analysing.
    void progressChanged(int permille, const QString& text);
    void resultsReady(const fusiondiff::ui::AnalysisResults& results);
    void analysisFailed(const QString& message);
    void cancelled();

private:
    void start();
    void setPhase(Phase phase);
    void onLoadProgress(quint64 generation, quint64 done, quint64 total);
    void onTraceLoaded(quint64 generation, int side, const LoadedSide& loaded);
    void onTraceFailed(quint64 generation, int side, const TraceError& error);
    void onCaptureLoaded(quint64 generation, int side, const LoadedCapture& loaded);
    void onCaptureFailed(quint64 generation, int side, const TraceError& error);
    void onAnalysisStarted(quint64 generation);
    void onAnalysisFinished(quint64 generation, const AnalysisResults& results);
    void onAnalysisFailed(quint64 generation, const QString& message);
    void onCancelled(quint64 generation);
    void onJobDone(quint64 generation);

    std::array<SideState, 2> m_sides;
    std::shared_ptr<const Classifier> m_classifier;
    AnalysisOptions m_options;
    AnalysisResults m_results;

    QThread m_thread;
    AnalysisWorker* m_worker;
    quint64 m_generation = 0;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    Phase m_phase = Phase::Idle;
};

} // namespace fusiondiff::ui
