#include "load/traceset.h"

#include <filesystem>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
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
    const std::function<void(size_t trace, uint64_t done, uint64_t total)>& progress)
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

    std::mutex progressMutex;
    std::vector<std::thread> threads;
    for (size_t i = 0; i < paths.size(); ++i) {
        if (sameAs[i] != i)
            continue;
        threads.emplace_back([&, i] {
            LoadOptions options;
            options.cancel = cancel;
            options.memoryShare /= static_cast<double>(loads); // the traces load side by side
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
        });
    }
    for (std::thread& thread : threads)
        thread.join();
    for (size_t i = 0; i < paths.size(); ++i) {
        if (sameAs[i] != i) {
            results[i] = results[sameAs[i]];
            if (progress && results[i].store)
                progress(i, results[i].store->statistics.fileBytes, results[i].store->statistics.fileBytes);
        }
    }
    return results;
}

void returnFreedMemoryToSystem()
{
#if defined(__GLIBC__)
    ::malloc_trim(0);
#endif
}

} // namespace fusiondiff
