#include "load/traceset.h"

#include "load/loadthreadpool.h"

#include <filesystem>
#include <mutex>
#include <thread>

namespace fusiondiff {

namespace {

std::string identityOf(const std::string& path)
{
    std::error_code error;
    const auto canonical = std::filesystem::weakly_canonical(path, error);
    return error ? path : canonical.string();
}

} // namespace

std::vector<LoadedTrace> loadTraces(const std::vector<std::string>& paths, const std::atomic<bool>* cancel,
    const std::function<void(size_t trace, uint64_t done, uint64_t total)>& progress, size_t threads)
{
    std::vector<LoadedTrace> results(paths.size());
    std::vector<size_t> sameAs(paths.size());
    for (size_t i = 0; i < paths.size(); ++i) {
        sameAs[i] = i;
        for (size_t j = 0; j < i; ++j) {
            if (identityOf(paths[i]) == identityOf(paths[j])) {
                sameAs[i] = j;
                break;
            }
        }
    }

    size_t loads = 0;
    for (size_t i = 0; i < paths.size(); ++i)
        loads += sameAs[i] == i;

    const size_t parsers = loadThreadsFor(threads);
    const bool sideBySide = parsers > 1;
    std::unique_ptr<LoadThreadPool> pool;
    if (sideBySide)
        pool = std::make_unique<LoadThreadPool>(parsers);
    std::mutex progressMutex;
    const auto load = [&](size_t i) {
        LoadOptions options;
        options.cancel = cancel;
        options.threads = parsers;
        options.pool = pool.get();
        if (sideBySide)
            options.memoryShare /= static_cast<double>(loads);
        if (progress) {
            options.progress = [&, i](uint64_t done, uint64_t total) {
                const std::lock_guard lock(progressMutex);
                progress(i, done, total);
            };
        }
        try {
            results[i].store = std::make_shared<const TraceStore>(loadTrace(paths[i], options));
        } catch (...) {
            results[i].error = std::current_exception();
        }
    };
    std::vector<std::thread> readers;
    for (size_t i = 0; i < paths.size(); ++i) {
        if (sameAs[i] != i)
            continue;
        if (sideBySide)
            readers.emplace_back(load, i);
        else
            load(i);
    }
    for (std::thread& reader : readers)
        reader.join();
    // The readers' and the pool's threads are gone, and with them the only users of their malloc
    // arenas, which still hold the chunks, the parsers and the stores' outgrown columns.
    returnFreedMemoryToSystem();
    for (size_t i = 0; i < paths.size(); ++i) {
        if (sameAs[i] != i) {
            results[i] = results[sameAs[i]];
            if (progress && results[i].store)
                progress(i, results[i].store->statistics.fileBytes, results[i].store->statistics.fileBytes);
        }
    }
    return results;
}

} // namespace fusiondiff
