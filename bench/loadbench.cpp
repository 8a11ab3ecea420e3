// loadbench: where the time of a comparison goes, phase by phase, on one thread.
//
//   loadbench A B [--chunk-mb N] [--classifier C] [--threads N] [--analysis-runs N]
//
// Times, in this order and sequentially: fusiondiff::loadTrace(A), loadTrace(B) (the core's
// chunked loader, with LoadOptions::chunkBytes = N MiB, default the core's default, and
// LoadOptions::threads = N, default 1: one thread; 0: the machine's cores), then
// analyzeFusion (default options) and reportToJson. `fusiondiff-cli compare` does the same work
// except that it loads A and B on two threads at once. Prints one line per phase and the memory
// the stores hold (TraceStore::memoryUsage) and their Python frames, and how evenly the loader reports progress (what
// the GUI's progress bar is driven by): the number of progress calls and the longest gap between two.
// Each phase prints its wall time and the process's CPU time (user + system, all threads: the
// loader reads ahead on a thread of its own), which the other jobs of a shared machine inflate less.
// --analysis-runs N runs analyzeFusion N times on the same stores and prints each run and the
// median: the analysis's own wall time, without the loads' variation around it. "This thread" is
// the CPU time and the page faults of the thread that called analyzeFusion, which runs the first
// trace's side.
#include "classify/classifier.h"
#include "fusionanalysis.h"
#include "load/traceloader.h"
#include "model/fusionreport.h"
#include "model/tracestore.h"
#include "report/reportwriters.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <exception>
#include <string>
#include <sys/resource.h>
#include <unordered_set>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start)
{
    return std::chrono::duration<double>(Clock::now() - start).count();
}

double cpuSeconds(clockid_t clock)
{
    timespec now {};
    clock_gettime(clock, &now);
    return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) / 1e9;
}

double processCpuSeconds()
{
    return cpuSeconds(CLOCK_PROCESS_CPUTIME_ID);
}

} // namespace

int main(int argc, char** argv)
{
    std::vector<std::string> paths;
    fusiondiff::LoadOptions options;
    options.threads = 1;
    std::string classifierSpec = "default";
    int analysisRuns = 1;
    const char* usage = "usage: loadbench A B [--chunk-mb N] [--classifier C] [--threads N] [--analysis-runs N]\n";
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--chunk-mb" && i + 1 < argc)
            options.chunkBytes = static_cast<size_t>(std::atof(argv[++i]) * 1048576.0);
        else if (arg == "--classifier" && i + 1 < argc)
            classifierSpec = argv[++i];
        else if (arg == "--threads" && i + 1 < argc)
            options.threads = static_cast<size_t>(std::atoi(argv[++i]));
        else if (arg == "--analysis-runs" && i + 1 < argc)
            analysisRuns = std::max(1, std::atoi(argv[++i]));
        else if (!arg.empty() && arg[0] == '-') {
            std::fprintf(stderr, "%s", usage);
            return 2;
        } else
            paths.push_back(arg);
    }
    if (paths.size() != 2) {
        std::fprintf(stderr, "%s", usage);
        return 2;
    }
    try {
        const fusiondiff::Classifier classifier = fusiondiff::Classifier::load(classifierSpec);
        const auto total = Clock::now();
        std::vector<fusiondiff::TraceStore> stores;
        for (const std::string& path : paths) {
            const auto start = Clock::now();
            const double cpuStart = processCpuSeconds();
            auto last = start;
            double longestGap = 0;
            uint64_t calls = 0;
            fusiondiff::LoadOptions traceOptions = options;
            traceOptions.progress = [&](uint64_t, uint64_t) {
                const auto now = Clock::now();
                longestGap = std::max(longestGap, std::chrono::duration<double>(now - last).count());
                last = now;
                ++calls;
            };
            stores.push_back(fusiondiff::loadTrace(path, traceOptions));
            const fusiondiff::TraceStore& store = stores.back();
            std::printf("loadbench: load %s: %.3f s (cpu %.3f s), %llu bytes (%.0f MB/s), %llu events, %zu kernels, "
                        "store %.1f MB\n",
                store.fileName.c_str(), secondsSince(start), processCpuSeconds() - cpuStart,
                static_cast<unsigned long long>(store.statistics.dataBytes),
                static_cast<double>(store.statistics.dataBytes) / secondsSince(start) / 1e6,
                static_cast<unsigned long long>(store.statistics.events), store.kernels.size(),
                static_cast<double>(store.memoryUsage()) / 1e6);
            std::unordered_set<fusiondiff::StringId> frameNames;
            for (const fusiondiff::PythonFrameEvent& frame : store.pythonFrames)
                frameNames.insert(frame.name);
            std::printf("loadbench: python frames %s: %zu (%.1f MB of events), %zu distinct names\n",
                store.fileName.c_str(), store.pythonFrames.size(),
                static_cast<double>(store.pythonFrames.capacity() * sizeof(fusiondiff::PythonFrameEvent)) / 1e6,
                frameNames.size());
            std::printf("loadbench: progress %s: %llu calls, longest gap %.3f s\n", store.fileName.c_str(),
                static_cast<unsigned long long>(calls), longestGap);
        }
        fusiondiff::FusionReport report;
        std::vector<double> analysisSeconds;
        for (int run = 0; run < analysisRuns; ++run) {
            const auto start = Clock::now();
            const double cpuStart = processCpuSeconds();
            const double threadCpuStart = cpuSeconds(CLOCK_THREAD_CPUTIME_ID);
            rusage threadBefore {};
            getrusage(RUSAGE_THREAD, &threadBefore);
            report = fusiondiff::analyzeFusion(stores[0], stores[1], classifier, fusiondiff::AnalysisOptions {});
            analysisSeconds.push_back(secondsSince(start));
            rusage threadAfter {};
            getrusage(RUSAGE_THREAD, &threadAfter);
            std::printf(
                "loadbench: analyzeFusion: %.3f s (cpu %.3f s, of which this thread %.3f s and %ld page faults), "
                "%zu group pairs, %zu mappings\n",
                analysisSeconds.back(), processCpuSeconds() - cpuStart,
                cpuSeconds(CLOCK_THREAD_CPUTIME_ID) - threadCpuStart, threadAfter.ru_minflt - threadBefore.ru_minflt,
                report.groupPairs.size(), report.mappings.size());
        }
        if (analysisRuns > 1) {
            std::sort(analysisSeconds.begin(), analysisSeconds.end());
            std::printf("loadbench: analyzeFusion median of %d: %.3f s\n", analysisRuns,
                analysisSeconds[analysisSeconds.size() / 2]);
        }
        auto start = Clock::now();
        double cpuStart = processCpuSeconds();
        const std::string json = fusiondiff::reportToJson(report);
        std::printf("loadbench: reportToJson: %.3f s (cpu %.3f s), %zu bytes\n", secondsSince(start),
            processCpuSeconds() - cpuStart, json.size());
        std::printf("loadbench: total %.3f s (cpu %.3f s, chunk %.1f MiB, threads %zu)\n", secondsSince(total),
            processCpuSeconds(), static_cast<double>(options.chunkBytes) / 1048576.0, options.threads);
    } catch (const std::exception& error) {
        std::fprintf(stderr, "loadbench: error: %s\n", error.what());
        return 2;
    }
    return 0;
}
