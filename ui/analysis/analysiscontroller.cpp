#include "analysis/analysiscontroller.h"

#include "classify/classifier.h"
#include "display/formatting.h"
#include "model/fusionreport.h"
#include "model/graphreport.h"
#include "model/jobreport.h"
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
    qRegisterMetaType<std::shared_ptr<const fusiondiff::JobReport>>();

    m_thread.setObjectName(QStringLiteral("fusiondiff analysis"));
    m_worker->moveToThread(&m_thread);
    connect(m_worker, &AnalysisWorker::loadProgress, this, &AnalysisController::onLoadProgress);
    connect(m_worker, &AnalysisWorker::traceLoaded, this, &AnalysisController::onTraceLoaded);
    connect(m_worker, &AnalysisWorker::traceFailed, this, &AnalysisController::onTraceFailed);
    connect(m_worker, &AnalysisWorker::captureLoaded, this, &AnalysisController::onCaptureLoaded);
    connect(m_worker, &AnalysisWorker::captureFailed, this, &AnalysisController::onCaptureFailed);
    connect(m_worker, &AnalysisWorker::rankProgress, this, &AnalysisController::onRankProgress);
    connect(m_worker, &AnalysisWorker::jobCompared, this, &AnalysisController::onJobCompared);
    connect(m_worker, &AnalysisWorker::runFailed, this, &AnalysisController::onRunFailed);
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
    m_job.reset();
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
    m_job.reset();
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

void AnalysisController::setRun(int side, const QStringList& inputs)
{
    std::array<QStringList, 2> runs { m_sides[0].runInputs, m_sides[1].runInputs };
    for (size_t other = 0; other < 2; ++other) {
        if (runs[other].isEmpty() && !m_sides[other].path.isEmpty())
            runs[other] = QStringList { m_sides[other].path };
    }
    runs[static_cast<size_t>(side)] = inputs;
    setRuns(runs[0], runs[1]);
}

void AnalysisController::setRuns(const QStringList& inputsA, const QStringList& inputsB)
{
    m_job.reset();
    for (size_t side = 0; side < 2; ++side) {
        SideState& state = m_sides[side];
        state = SideState();
        for (const QString& input : side == 0 ? inputsA : inputsB)
            state.runInputs.append(QFileInfo(input).absoluteFilePath());
        state.path = state.runInputs.value(0);
    }
    emit sideChanged(0);
    emit sideChanged(1);
    start();
}

bool AnalysisController::setRankPair(int rankA, int rankB)
{
    if (!m_job)
        return false;
    const std::array<int, 2> ranks { rankA, rankB };
    for (size_t side = 0; side < 2; ++side) {
        if (ranks[side] < 0 || size_t(ranks[side]) >= m_job->sides[side].ranks.size())
            return false;
    }
    auto job = std::make_shared<JobReport>(*m_job);
    job->detailedPair = { rankA, rankB };
    m_job = job;
    for (size_t side = 0; side < 2; ++side) {
        SideState& state = m_sides[side];
        const QString path
            = QFileInfo(QFile::decodeName(QByteArray::fromStdString(job->sides[side].ranks[size_t(ranks[side])].path)))
                  .absoluteFilePath();
        if (state.status == Status::Loaded && state.path == path)
            continue; // the same rank: not read again
        const QStringList inputs = state.runInputs;
        state = SideState();
        state.runInputs = inputs;
        state.path = path;
    }
    start();
    return true;
}

void AnalysisController::swapTraces()
{
    std::swap(m_sides[0], m_sides[1]);
    m_job.reset(); // the runs are compared again, the other way round
    emit sideChanged(0);
    emit sideChanged(1);
    start();
}

void AnalysisController::setClassifier(std::shared_ptr<const Classifier> classifier)
{
    m_classifier = std::move(classifier);
    if (comparesRuns())
        m_job.reset(); // the ranks' kernel types depend on it
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
    m_loadBase = 0;
    bool loading = false;
    if (comparesRuns()) {
        for (size_t side = 0; side < 2; ++side) {
            const SideState& state = m_sides[side];
            job.runInputs[side] = state.runInputs.isEmpty() ? QStringList { state.path } : state.runInputs;
            if (job.runInputs[side].value(0).isEmpty() || state.status == Status::Failed) {
                m_cancel.reset();
                setPhase(Phase::Idle);
                return;
            }
        }
        job.jobReport = m_job;
        if (!m_job) {
            // The worker compares the runs, then loads the pair they choose.
            for (SideState& state : m_sides) {
                state.status = Status::Loading;
                state.store.reset();
            }
        }
    }
    for (size_t side = 0; side < 2; ++side) {
        SideState& state = m_sides[side];
        if (state.status == Status::Loading || (state.status == Status::Empty && !state.path.isEmpty())) {
            state.status = Status::Loading;
            job.loadPaths[side] = state.path;
            loading = true;
        } else if (state.status == Status::Loaded) {
            job.stores[side] = state.store;
        }
        if (!job.runInputs[side].isEmpty() && !m_job) {
            loading = true;
            continue;
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
    const int permille = m_loadBase
        + (total > 0 ? static_cast<int>((900.0 - m_loadBase) * static_cast<double>(done) / static_cast<double>(total))
                     : 0);
    emit progressChanged(permille, tr("Reading and parsing: %1 of %2").arg(formatBytes(done), formatBytes(total)));
}

void AnalysisController::onRankProgress(quint64 generation, quint64 done, quint64 total)
{
    if (generation != m_generation || m_phase != Phase::Loading)
        return;
    const int permille = total > 0 ? static_cast<int>(kRanksPermille * double(done) / double(total)) : 0;
    emit progressChanged(permille, tr("Comparing the runs: %1 of %2 rank traces summarised").arg(done).arg(total));
}

void AnalysisController::onJobCompared(quint64 generation, const std::shared_ptr<const JobReport>& job)
{
    if (generation != m_generation)
        return;
    m_job = job;
    m_loadBase = kRanksPermille;
    for (size_t side = 0; side < 2; ++side) {
        SideState& state = m_sides[side];
        const RankSummary& rank = job->sides[side].ranks.at(size_t(job->detailedPair[side]));
        state.path = QFileInfo(QFile::decodeName(QByteArray::fromStdString(rank.path))).absoluteFilePath();
        emit sideChanged(int(side));
    }
}

void AnalysisController::onRunFailed(quint64 generation, int side, const TraceError& error)
{
    if (generation != m_generation)
        return;
    // The runs cannot be compared: the side named shows why, the other side returns to the pair
    // on screen (the pages keep showing it).
    const int other = 1 - side;
    if (!restoreShownSide(other) && m_sides[static_cast<size_t>(other)].status == Status::Loading) {
        m_sides[static_cast<size_t>(other)].status = Status::Empty;
        emit sideChanged(other);
    }
    SideState& state = m_sides[static_cast<size_t>(side)];
    state.status = Status::Failed;
    state.store.reset();
    state.error = error;
    if (state.runInputs.size() == 1 && state.runInputs[0] == state.path)
        state.path = error.path.isEmpty() ? state.path : QFileInfo(error.path).absoluteFilePath();
    emit sideChanged(side);
}

bool AnalysisController::restoreShownSide(int side)
{
    if (!m_results.report || !m_results.stores[0] || !m_results.stores[1])
        return false;
    SideState& state = m_sides[static_cast<size_t>(side)];
    const std::shared_ptr<const TraceStore>& store = m_results.stores[static_cast<size_t>(side)];
    state = SideState();
    state.status = Status::Loaded;
    state.path = QFileInfo(QString::fromStdString(store->path)).absoluteFilePath();
    state.store = store;
    state.totals = traceTotals(*store);
    state.runInputs = m_shownRunInputs[static_cast<size_t>(side)];
    if (const std::shared_ptr<const CaptureTrace>& capture = m_results.captures[static_cast<size_t>(side)]) {
        state.capture = capture;
        state.capturePath = QFileInfo(QString::fromStdString(capture->path)).absoluteFilePath();
    }
    m_job = m_results.report->job;
    emit sideChanged(side);
    return true;
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
    for (size_t side = 0; side < 2; ++side)
        m_shownRunInputs[side] = m_sides[side].runInputs;
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
        // side is given). Runs go back whole: a rank belongs with its job.
        const bool runs = comparesRuns() || m_results.report->job;
        for (int side = 0; side < 2; ++side) {
            const SideState& state = m_sides[static_cast<size_t>(side)];
            if (!runs && state.status == Status::Loaded && state.store != m_results.stores[static_cast<size_t>(side)])
                continue;
            restoreShownSide(side);
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
