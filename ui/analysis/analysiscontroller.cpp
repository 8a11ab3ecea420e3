#include "analysis/analysiscontroller.h"

#include "classify/classifier.h"
#include "display/formatting.h"
#include "model/graphreport.h"
#include "model/tracestore.h"

#include <QFileInfo>

namespace fusiondiff::ui {

AnalysisController::AnalysisController(QObject* parent)
    : QObject(parent)
    , m_classifier(std::make_shared<const Classifier>(Classifier::builtin("default")))
    , m_worker(new AnalysisWorker)
{
    qRegisterMetaType<fusiondiff::ui::AnalysisResults>();
    qRegisterMetaType<fusiondiff::ui::LoadedSide>();
    qRegisterMetaType<fusiondiff::ui::LoadedCapture>();
    qRegisterMetaType<fusiondiff::ui::TraceError>();

    m_thread.setObjectName(QStringLiteral("fusiondiff analysis"));
    m_worker->moveToThread(&m_thread);
    connect(m_worker, &AnalysisWorker::loadProgress, this, &AnalysisController::onLoadProgress);
    connect(m_worker, &AnalysisWorker::traceLoaded, this, &AnalysisController::onTraceLoaded);
    connect(m_worker, &AnalysisWorker::traceFailed, this, &AnalysisController::onTraceFailed);
    connect(m_worker, &AnalysisWorker::captureLoaded, this, &AnalysisController::onCaptureLoaded);
    connect(m_worker, &AnalysisWorker::captureFailed, this, &AnalysisController::onCaptureFailed);
    connect(m_worker, &AnalysisWorker::analysisStarted, this, &AnalysisController::onAnalysisStarted);
    connect(m_worker, &AnalysisWorker::analysisFinished, this, &AnalysisController::onAnalysisFinished);
    connect(m_worker, &AnalysisWorker::analysisFailed, this, &AnalysisController::onAnalysisFailed);
    connect(m_worker, &AnalysisWorker::cancelled, this, &AnalysisController::onCancelled);
    connect(m_worker, &AnalysisWorker::jobDone, this, &AnalysisController::onJobDone);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    m_thread.start();
}

AnalysisController::~AnalysisController()
{
    if (m_cancel)
        m_cancel->store(true);
    m_thread.quit();
    m_thread.wait();
}

namespace {

QString absolutePathOrEmpty(const QString& path)
{
    return path.isEmpty() ? QString() : QFileInfo(path).absoluteFilePath();
}

} // namespace

void AnalysisController::setTrace(int side, const QString& path, const QString& capturePath)
{
    SideState& state = m_sides[static_cast<size_t>(side)];
    state = SideState();
    state.capturePath = absolutePathOrEmpty(capturePath);
    if (path.isEmpty()) {
        emit sideChanged(side);
        start();
        return;
    }
    state.path = QFileInfo(path).absoluteFilePath();
    if (const std::optional<TraceError> error = validateTraceFile(path)) {
        state.status = Status::Failed;
        state.error = error;
    }
    emit sideChanged(side);
    start();
}

void AnalysisController::setTraces(
    const QString& pathA, const QString& pathB, const QString& captureA, const QString& captureB)
{
    // Both at once: one job loads them in parallel.
    QSignalBlocker blocker(this);
    for (int side = 0; side < 2; ++side) {
        SideState& state = m_sides[static_cast<size_t>(side)];
        const QString& path = side == 0 ? pathA : pathB;
        state = SideState();
        state.path = QFileInfo(path).absoluteFilePath();
        state.capturePath = absolutePathOrEmpty(side == 0 ? captureA : captureB);
        if (const std::optional<TraceError> error = validateTraceFile(path)) {
            state.status = Status::Failed;
            state.error = error;
        }
    }
    blocker.unblock();
    emit sideChanged(0);
    emit sideChanged(1);
    start();
}

void AnalysisController::setCaptureTrace(int side, const QString& path)
{
    SideState& state = m_sides[static_cast<size_t>(side)];
    state.capturePath = absolutePathOrEmpty(path);
    state.capture.reset();
    state.captureError.reset();
    emit sideChanged(side);
    start();
}

void AnalysisController::swapTraces()
{
    std::swap(m_sides[0], m_sides[1]);
    emit sideChanged(0);
    emit sideChanged(1);
    start();
}

void AnalysisController::setClassifier(std::shared_ptr<const Classifier> classifier)
{
    m_classifier = std::move(classifier);
    start();
}

void AnalysisController::setOptions(const AnalysisOptions& options)
{
    m_options = options;
    start();
}

void AnalysisController::cancel()
{
    if (m_cancel)
        m_cancel->store(true);
}

void AnalysisController::start()
{
    // A newer request supersedes whatever runs now.
    ++m_generation;
    if (m_cancel)
        m_cancel->store(true);

    AnalysisJob job;
    job.generation = m_generation;
    job.classifier = m_classifier;
    job.options = m_options;
    bool loading = false;
    for (size_t side = 0; side < 2; ++side) {
        SideState& state = m_sides[side];
        if (state.status == Status::Loading || (state.status == Status::Empty && !state.path.isEmpty())) {
            state.status = Status::Loading;
            job.loadPaths[side] = state.path;
            loading = true;
        } else if (state.status == Status::Loaded) {
            job.stores[side] = state.store;
        }
        if (state.capture)
            job.captures[side] = state.capture;
        else if (!state.capturePath.isEmpty() && !state.captureError)
            job.loadCapturePaths[side] = state.capturePath;
    }
    const auto usable = [&](size_t side) {
        return (job.stores[side] || !job.loadPaths[side].isEmpty()) && !m_sides[side].captureError;
    };
    if (!loading && !(usable(0) && usable(1))) {
        m_cancel.reset();
        setPhase(Phase::Idle);
        return;
    }

    m_cancel = std::make_shared<std::atomic<bool>>(false);
    job.cancel = m_cancel;
    for (int side = 0; side < 2; ++side) {
        if (!job.loadPaths[static_cast<size_t>(side)].isEmpty())
            emit sideChanged(side);
    }
    AnalysisWorker* worker = m_worker;
    QMetaObject::invokeMethod(
        worker, [worker, job] { worker->run(job); }, Qt::QueuedConnection);
    setPhase(loading ? Phase::Loading : Phase::Analysing);
    if (loading)
        emit progressChanged(0, tr("Reading and parsing..."));
    else
        emit progressChanged(900, tr("Classifying kernels and analysing..."));
}

void AnalysisController::setPhase(Phase phase)
{
    const bool wasBusy = isBusy();
    m_phase = phase;
    if (wasBusy != isBusy())
        emit busyChanged(isBusy());
}

void AnalysisController::onLoadProgress(quint64 generation, quint64 done, quint64 total)
{
    if (generation != m_generation || m_phase != Phase::Loading)
        return;
    const int permille
        = total > 0 ? static_cast<int>(900.0 * static_cast<double>(done) / static_cast<double>(total)) : 0;
    emit progressChanged(permille, tr("Reading and parsing: %1 of %2").arg(formatBytes(done), formatBytes(total)));
}

void AnalysisController::onTraceLoaded(quint64 generation, int side, const LoadedSide& loaded)
{
    if (generation != m_generation)
        return; // superseded: the store is freed with the signal's copy
    SideState& state = m_sides[static_cast<size_t>(side)];
    state.status = Status::Loaded;
    state.store = loaded.store;
    state.totals = loaded.totals;
    state.error.reset();
    emit sideChanged(side);
}

void AnalysisController::onTraceFailed(quint64 generation, int side, const TraceError& error)
{
    if (generation != m_generation)
        return;
    SideState& state = m_sides[static_cast<size_t>(side)];
    state.status = Status::Failed;
    state.store.reset();
    state.error = error;
    emit sideChanged(side);
}

void AnalysisController::onCaptureLoaded(quint64 generation, int side, const LoadedCapture& loaded)
{
    if (generation != m_generation)
        return;
    SideState& state = m_sides[static_cast<size_t>(side)];
    state.capture = loaded.capture;
    state.captureError.reset();
    emit sideChanged(side);
}

void AnalysisController::onCaptureFailed(quint64 generation, int side, const TraceError& error)
{
    if (generation != m_generation)
        return;
    SideState& state = m_sides[static_cast<size_t>(side)];
    state.capture.reset();
    state.captureError = error;
    emit sideChanged(side);
}

void AnalysisController::onAnalysisStarted(quint64 generation)
{
    if (generation != m_generation)
        return;
    setPhase(Phase::Analysing);
    emit progressChanged(900, tr("Classifying kernels and analysing..."));
}

void AnalysisController::onAnalysisFinished(quint64 generation, const AnalysisResults& results)
{
    if (generation != m_generation)
        return;
    m_results = results;
    emit progressChanged(1000, tr("Done"));
    emit resultsReady(m_results);
}

void AnalysisController::onAnalysisFailed(quint64 generation, const QString& message)
{
    if (generation != m_generation)
        return;
    emit analysisFailed(message);
}

void AnalysisController::onCancelled(quint64 generation)
{
    if (generation != m_generation)
        return;
    if (m_results.report && m_results.stores[0] && m_results.stores[1]) {
        // The pages show the last pair compared: a side still loading returns to it; a side whose
        // new trace had finished loading keeps that trace (it is not read again when the other
        // side is given).
        for (int side = 0; side < 2; ++side) {
            SideState& state = m_sides[static_cast<size_t>(side)];
            if (state.status == Status::Loaded && state.store != m_results.stores[static_cast<size_t>(side)])
                continue;
            const std::shared_ptr<const TraceStore>& store = m_results.stores[static_cast<size_t>(side)];
            state = SideState();
            state.status = Status::Loaded;
            state.path = QFileInfo(QString::fromStdString(store->path)).absoluteFilePath();
            state.store = store;
            state.totals = traceTotals(*store);
            if (const std::shared_ptr<const CaptureTrace>& capture = m_results.captures[static_cast<size_t>(side)]) {
                state.capture = capture;
                state.capturePath = QFileInfo(QString::fromStdString(capture->path)).absoluteFilePath();
            }
            emit sideChanged(side);
        }
        emit cancelled();
        return;
    }
    for (int side = 0; side < 2; ++side) {
        SideState& state = m_sides[static_cast<size_t>(side)];
        if (state.status == Status::Loading) {
            state.status = Status::Cancelled;
            state.store.reset();
            emit sideChanged(side);
        }
    }
    emit cancelled();
}

void AnalysisController::onJobDone(quint64 generation)
{
    if (generation != m_generation)
        return;
    m_cancel.reset();
    setPhase(Phase::Idle);
}

} // namespace fusiondiff::ui
