#include "runs/runloader.h"

#include "load/traceset.h"
#include "runs/jobcompare.h"
#include "runs/jobside.h"
#include "runs/ranksummary.h"
#include "util/inputerror.h"

#include <algorithm>
#include <exception>
#include <filesystem>
#include <thread>

namespace fusiondiff {

namespace {

bool isTraceFileName(const std::string& name)
{
    const auto endsWith = [&](std::string_view suffix) {
        return name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
    };
    return endsWith(".json") || endsWith(".json.gz");
}

} // namespace

std::vector<std::string> runTraceFiles(const std::vector<std::string>& inputs)
{
    std::vector<std::string> paths;
    for (const std::string& input : inputs) {
        std::error_code error;
        if (!std::filesystem::is_directory(input, error)) {
            paths.push_back(input);
            continue;
        }
        std::vector<std::string> inFolder;
        for (const auto& entry : std::filesystem::directory_iterator(input, error)) {
            if (entry.is_regular_file() && isTraceFileName(entry.path().filename().string()))
                inFolder.push_back(entry.path().string());
        }
        if (error)
            throw InputError(input, "cannot list the folder: " + error.message());
        if (inFolder.empty())
            throw InputError(input, "the folder holds no trace files (*.json, *.json.gz)");
        std::sort(inFolder.begin(), inFolder.end());
        paths.insert(paths.end(), inFolder.begin(), inFolder.end());
    }
    return paths;
}

bool isMultiRankRun(const std::vector<std::string>& inputs)
{
    std::error_code error;
    return inputs.size() > 1 || (inputs.size() == 1 && std::filesystem::is_directory(inputs[0], error));
}

std::vector<RankSummary> summarizeRanks(const std::vector<std::string>& paths, const Classifier& classifier,
    size_t threads, const std::atomic<bool>* cancel)
{
    const size_t batch = std::max<size_t>(2, threads == 0 ? std::thread::hardware_concurrency() : threads);
    std::vector<RankSummary> summaries(paths.size());
    for (size_t first = 0; first < paths.size(); first += batch) {
        const std::vector<std::string> some(paths.begin() + std::ptrdiff_t(first),
            paths.begin() + std::ptrdiff_t(std::min(paths.size(), first + batch)));
        std::vector<LoadedTrace> loaded = loadTraces(some, cancel, {}, threads);
        for (const LoadedTrace& trace : loaded) {
            if (trace.error)
                std::rethrow_exception(trace.error);
        }
        std::vector<std::exception_ptr> errors(loaded.size());
        std::vector<std::thread> workers;
        for (size_t i = 0; i < loaded.size(); ++i) {
            workers.emplace_back([&, i] {
                try {
                    summaries[first + i] = summarizeRank(*loaded[i].store, classifier);
                    loaded[i].store.reset();
                } catch (...) {
                    errors[i] = std::current_exception();
                }
            });
        }
        for (std::thread& worker : workers)
            worker.join();
        for (const std::exception_ptr& error : errors) {
            if (error)
                std::rethrow_exception(error);
        }
        loaded.clear();
        returnFreedMemoryToSystem();
    }
    return summaries;
}

JobReport compareRankSummaries(std::array<std::vector<RankSummary>, 2> ranks)
{
    std::vector<std::string> notes;
    JobSide a = buildJobSide(std::move(ranks[0]), "A", notes);
    JobSide b = buildJobSide(std::move(ranks[1]), "B", notes);
    return compareJobs({ std::move(a), std::move(b) }, std::move(notes));
}

JobReport compareRuns(const std::array<std::vector<std::string>, 2>& paths, const Classifier& classifier,
    size_t threads, const std::atomic<bool>* cancel)
{
    return compareRankSummaries({ summarizeRanks(paths[0], classifier, threads, cancel),
        summarizeRanks(paths[1], classifier, threads, cancel) });
}

} // namespace fusiondiff
