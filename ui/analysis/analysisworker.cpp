#include "analysis/analysisworker.h"

#include "analysis/runcomparison.h"

#include "fusionanalysis.h"
#include "load/capturetrace.h"
#include "load/traceset.h"
#include "model/fusionreport.h"
#include "model/graphreport.h"
#include "model/jobreport.h"
#include "runs/jobcompare.h"
#include "util/inputerror.h"

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QSettings>

#include <mutex>
#include <vector>

namespace fusiondiff::ui {

AnalysisWorker::AnalysisWorker(QObject* parent)
    : QObject(parent)
{ }

void AnalysisWorker::run(const AnalysisJob& job)
{
    const quint64 generation = job.generation;
    std::array<std::shared_ptr<const TraceStore>, 2> stores = job.stores;
    const auto isCancelled = [&] { return job.cancel->load(std::memory_order_relaxed); };

    if (isCancelled()) {
        emit cancelled(generation);
        emit jobDone(generation);
        return;
    }

    // Multi-rank runs: the ranks compared as jobs first (a bad rank set stops here), then the
    // detailed pair loaded and analysed as any pair.
    std::shared_ptr<const JobReport> jobReport = job.jobReport;
    std::array<QString, 2> loadPaths = job.loadPaths;
    if (!job.runInputs[0].isEmpty() && !jobReport) {
        const auto threads = static_cast<size_t>(std::max(0, QSettings().value(kLoadThreadsSetting, 0).toInt()));
        try {
            jobReport = compareRunInputs(job.runInputs, *job.classifier, threads, job.cancel.get(),
                [&](size_t done, size_t total) { emit rankProgress(generation, done, total); });
        } catch (const Cancelled&) {
            emit cancelled(generation);
            emit jobDone(generation);
            return;
        } catch (...) {
            const TraceError error = TraceError::fromException(std::current_exception(), job.runInputs[0].value(0));
            emit runFailed(generation, sideOfRunError(job.runInputs, error), error);
            emit jobDone(generation);
            return;
        }
        emit jobCompared(generation, jobReport);
        for (size_t side = 0; side < 2; ++side) {
            const RankSummary& rank = jobReport->sides[side].ranks.at(size_t(jobReport->detailedPair[side]));
            loadPaths[side] = QFile::decodeName(QByteArray::fromStdString(rank.path));
            stores[side].reset();
        }
    }

    std::vector<std::string> paths;
    std::vector<int> sideOfPath;
    std::vector<quint64> done;
    std::vector<quint64> total;
    for (int side = 0; side < 2; ++side) {
        const QString& path = loadPaths[static_cast<size_t>(side)];
        if (path.isEmpty())
            continue;
        paths.push_back(QFile::encodeName(path).toStdString());
        sideOfPath.push_back(side);
        done.push_back(0);
        total.push_back(static_cast<quint64>(std::max<qint64>(QFileInfo(path).size(), 1)));
    }

    bool loadFailed = false;
    if (!paths.empty()) {
        std::mutex mutex; // loadTraces already serialises its callbacks; this guards our own state
        QElapsedTimer sinceReport;
        sinceReport.start();
        const auto progress = [&](size_t trace, uint64_t bytesDone, uint64_t bytesTotal) {
            const std::lock_guard lock(mutex);
            done[trace] = bytesDone;
            total[trace] = std::max<quint64>(bytesTotal, 1);
            quint64 sumDone = 0;
            quint64 sumTotal = 0;
            for (size_t i = 0; i < done.size(); ++i) {
                sumDone += std::min(done[i], total[i]);
                sumTotal += total[i];
            }
            if (sinceReport.elapsed() >= kProgressIntervalMs || sumDone == sumTotal) {
                sinceReport.restart();
                emit loadProgress(generation, sumDone, sumTotal);
            }
        };
        const auto threads = static_cast<size_t>(std::max(0, QSettings().value(kLoadThreadsSetting, 0).toInt()));
        std::vector<LoadedTrace> loaded = loadTraces(paths, job.cancel.get(), progress, threads);
        if (isCancelled()) {
            // A trace that had finished loading is kept (the controller keeps it on its side);
            // the rest is dropped, and its memory given back to the system.
            for (size_t i = 0; i < loaded.size(); ++i) {
                if (!loaded[i].store)
                    continue;
                LoadedSide result;
                result.store = loaded[i].store;
                result.totals = traceTotals(*result.store);
                emit traceLoaded(generation, sideOfPath[i], result);
            }
            loaded.clear();
            returnFreedMemoryToSystem();
            emit cancelled(generation);
            emit jobDone(generation);
            return;
        }
        for (size_t i = 0; i < loaded.size(); ++i) {
            const int side = sideOfPath[i];
            if (loaded[i].store) {
                LoadedSide result;
                result.store = loaded[i].store;
                result.totals = traceTotals(*result.store);
                stores[static_cast<size_t>(side)] = result.store;
                emit traceLoaded(generation, side, result);
            } else {
                loadFailed = true;
                emit traceFailed(
                    generation, side, TraceError::fromException(loaded[i].error, loadPaths[static_cast<size_t>(side)]));
            }
        }
    }

    std::array<std::shared_ptr<const CaptureTrace>, 2> captures = job.captures;
    for (int side = 0; side < 2 && !loadFailed && !isCancelled(); ++side) {
        const QString& path = job.loadCapturePaths[static_cast<size_t>(side)];
        if (path.isEmpty())
            continue;
        try {
            LoadedCapture result;
            result.capture
                = std::make_shared<const CaptureTrace>(loadCaptureTrace(QFile::encodeName(path).toStdString()));
            captures[static_cast<size_t>(side)] = result.capture;
            emit captureLoaded(generation, side, result);
        } catch (...) {
            // As in the CLI, a capture trace that cannot be used stops the comparison.
            loadFailed = true;
            emit captureFailed(generation, side, TraceError::fromException(std::current_exception(), path));
        }
    }
    if (isCancelled()) {
        emit cancelled(generation);
        emit jobDone(generation);
        return;
    }

    if (!loadFailed && stores[0] && stores[1] && job.classifier) {
        emit analysisStarted(generation);
        try {
            QElapsedTimer timer;
            timer.start();
            AnalysisResults results;
            AnalysisOptions options = job.options;
            options.threads = static_cast<size_t>(std::max(0, QSettings().value(kLoadThreadsSetting, 0).toInt()));
            FusionReport report = analyzeFusion(*stores[0], *stores[1], { captures[0].get(), captures[1].get() },
                *job.classifier, options, job.cancel.get());
            if (jobReport)
                addJobToReport(report, jobReport);
            results.report = std::make_shared<const FusionReport>(std::move(report));
            results.stores = stores;
            results.captures = captures;
            results.classifier = job.classifier;
            results.analysisSeconds = static_cast<double>(timer.nsecsElapsed()) / 1e9;
            emit analysisFinished(generation, results);
        } catch (const Cancelled&) {
            emit cancelled(generation);
        } catch (const std::bad_alloc&) {
            emit analysisFailed(generation, tr("Not enough memory for the analysis."));
        } catch (const std::exception& error) {
            emit analysisFailed(generation, QString::fromStdString(error.what()));
        }
    }
    emit jobDone(generation);
}

} // namespace fusiondiff::ui
