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
        // A multi-rank run: its folders or rank files as given (empty for a single trace). `path`
        // is then the rank shown in the detailed pair, once the runs are compared.
        QStringList runInputs;
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
    // A side as a multi-rank run (a folder of rank traces, or several rank files): when either side
    // is one, the two are compared as jobs (a single trace is then a run of one rank), and the
    // detailed pair is the job's (the straggler's ranks) until setRankPair.
    void setRun(int side, const QStringList& inputs);
    void setRuns(const QStringList& inputsA, const QStringList& inputsB);
    // The ranks of the detailed pair (rank numbers): reloads only a side whose rank changes.
    // Returns false when no runs are compared or a side has no such rank.
    bool setRankPair(int rankA, int rankB);
    bool comparesRuns() const { return !m_sides[0].runInputs.isEmpty() || !m_sides[1].runInputs.isEmpty(); }
    // The runs compared as jobs (null before they are, or for a single pair).
    const std::shared_ptr<const JobReport>& job() const { return m_job; }
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
    void onRankProgress(quint64 generation, quint64 done, quint64 total);
    void onJobCompared(quint64 generation, const std::shared_ptr<const JobReport>& job);
    void onRunFailed(quint64 generation, int side, const TraceError& error);
    // Puts a side back to the pair the pages show (after a cancel or a failed run), if any.
    bool restoreShownSide(int side);
    void onAnalysisStarted(quint64 generation);
    void onAnalysisFinished(quint64 generation, const AnalysisResults& results);
    void onAnalysisFailed(quint64 generation, const QString& message);
    void onCancelled(quint64 generation);
    void onJobDone(quint64 generation);

    std::array<SideState, 2> m_sides;
    std::shared_ptr<const Classifier> m_classifier;
    AnalysisOptions m_options;
    AnalysisResults m_results;
    std::shared_ptr<const JobReport> m_job;
    std::array<QStringList, 2> m_shownRunInputs; // the run inputs of the results on screen
    static constexpr int kRanksPermille = 600; // of the bar, for summarising the ranks
    int m_loadBase = 0; // permille already spent on comparing the ranks before the pair loads

    QThread m_thread;
    AnalysisWorker* m_worker;
    quint64 m_generation = 0;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    Phase m_phase = Phase::Idle;
};

} // namespace fusiondiff::ui
