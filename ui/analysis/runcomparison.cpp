#include "analysis/runcomparison.h"

#include "model/jobreport.h"
#include "runs/jobcompare.h"
#include "runs/runloader.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <string>
#include <thread>
#include <vector>

namespace fusiondiff::ui {

namespace {

std::vector<std::string> encodedPaths(const QStringList& inputs)
{
    std::vector<std::string> paths;
    paths.reserve(size_t(inputs.size()));
    for (const QString& input : inputs)
        paths.push_back(QFile::encodeName(input).toStdString());
    return paths;
}

} // namespace

std::shared_ptr<const JobReport> compareRunInputs(const std::array<QStringList, 2>& inputs,
    const Classifier& classifier, size_t threads, const std::atomic<bool>* cancel,
    const std::function<void(size_t done, size_t total)>& progress)
{
    const std::array<std::vector<std::string>, 2> files { runTraceFiles(encodedPaths(inputs[0])),
        runTraceFiles(encodedPaths(inputs[1])) };
    const size_t total = files[0].size() + files[1].size();
    // As summarizeRanks batches them, so that a batch's end is a moment to report.
    const size_t batch = std::max<size_t>(2, threads == 0 ? std::thread::hardware_concurrency() : threads);
    std::array<std::vector<RankSummary>, 2> summaries;
    size_t done = 0;
    progress(0, total);
    for (size_t side = 0; side < 2; ++side) {
        for (size_t first = 0; first < files[side].size(); first += batch) {
            const size_t last = std::min(files[side].size(), first + batch);
            const std::vector<std::string> some(
                files[side].begin() + std::ptrdiff_t(first), files[side].begin() + std::ptrdiff_t(last));
            for (RankSummary& summary : summarizeRanks(some, classifier, threads, cancel))
                summaries[side].push_back(std::move(summary));
            done += last - first;
            progress(done, total);
        }
    }
    return std::make_shared<const JobReport>(compareRankSummaries(std::move(summaries)));
}

int sideOfRunError(const std::array<QStringList, 2>& inputs, const TraceError& error)
{
    const QString named = QFileInfo(error.path).absoluteFilePath();
    for (int side = 0; side < 2; ++side) {
        for (const QString& input : inputs[size_t(side)]) {
            const QFileInfo info(input);
            const QString path = info.absoluteFilePath();
            if (named == path || (info.isDir() && named.startsWith(QDir(path).absolutePath() + QLatin1Char('/'))))
                return side;
        }
    }
    return 0;
}

} // namespace fusiondiff::ui
