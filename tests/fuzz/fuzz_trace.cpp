// libFuzzer harness: any bytes through the loader and, when they load, through the whole
// analysis and every report writer. The only acceptable failure is an InputError. An input with a
// form feed (0x0C) is two traces, A before it and B after it: they are also compared with each
// other, and, written to files, as the two ranks of a job read by the parallel file loader
// (core/runs/) with the job's report.
// Build and run: docs/contributing.md ("Fuzzing"), or .ci/run.

#include "classify/classifier.h"
#include "fusionanalysis.h"
#include "load/traceloader.h"
#include "model/jobreport.h"
#include "report/reportwriters.h"
#include "runs/jobcompare.h"
#include "runs/runloader.h"
#include "util/inputerror.h"

#include <array>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace {

void analyze(const fusiondiff::TraceStore& a, const fusiondiff::TraceStore& b, const fusiondiff::Classifier& classifier)
{
    fusiondiff::AnalysisOptions options;
    options.minGroupSize = 2; // small groups, so that matching and the group analyses run
    options.patternMinOccurrences = 1;
    options.imbalanceMinTotal = 2;
    options.partialMinGroups = 1;
    options.chainMinRuns = 1;
    options.chainMinDifference = 0;
    options.globalMinTotal = 1;
    const fusiondiff::FusionReport report = fusiondiff::analyzeFusion(a, b, classifier, options);
    (void)fusiondiff::reportToJson(report);
    (void)fusiondiff::reportToCsv(report);
    (void)fusiondiff::reportToMarkdown(report);
    (void)fusiondiff::reportSummary(report);
}

// A folder of this process's own for the rank files.
const std::string& rankFolder()
{
    static const std::string folder = [] {
        std::string name = "/tmp/fuzz_ranks_XXXXXX";
        return std::string(mkdtemp(name.data()) ? name : std::string("/tmp"));
    }();
    return folder;
}

// A and B as ranks 0 and 1 of a job (their file names give the ranks), against the job with the
// two swapped, through the parallel file loader and the job comparison.
void compareAsRanks(std::string_view a, std::string_view b, const fusiondiff::Classifier& classifier)
{
    const std::string rank0 = rankFolder() + "/rank0.json";
    const std::string rank1 = rankFolder() + "/rank1.json";
    std::ofstream(rank0, std::ios::binary | std::ios::trunc).write(a.data(), std::streamsize(a.size()));
    std::ofstream(rank1, std::ios::binary | std::ios::trunc).write(b.data(), std::streamsize(b.size()));
    try {
        auto job = std::make_shared<fusiondiff::JobReport>(fusiondiff::compareRuns(
            std::array<std::vector<std::string>, 2> { std::vector { rank0, rank1 }, std::vector { rank1, rank0 } },
            classifier, 2));
        fusiondiff::LoadOptions options;
        options.threads = 2;
        const fusiondiff::TraceStore first = fusiondiff::loadTrace(rank0, options);
        const fusiondiff::TraceStore second = fusiondiff::loadTrace(rank1, options);
        fusiondiff::FusionReport report = fusiondiff::analyzeFusion(first, second, classifier, {});
        fusiondiff::addJobToReport(report, std::move(job));
        (void)fusiondiff::reportToJson(report);
        (void)fusiondiff::reportToCsv(report);
        (void)fusiondiff::reportToMarkdown(report);
        (void)fusiondiff::reportSummary(report);
    } catch (const fusiondiff::InputError&) { }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    static const fusiondiff::Classifier seed = fusiondiff::Classifier::builtin("seed");
    static const fusiondiff::Classifier defaults = fusiondiff::Classifier::builtin("default");
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    const size_t formFeed = input.find('\f');
    const std::string_view bytes = input.substr(0, formFeed);
    fusiondiff::LoadOptions options;
    options.chunkBytes = 512; // many chunks, so that cuts fall everywhere
    options.memoryBudget = uint64_t(1) << 30;
    try {
        const fusiondiff::TraceStore store = fusiondiff::loadTraceFromMemory(bytes, "fuzz-input", options);
        // The trace against itself (every group matches), and against an empty trace.
        analyze(store, store, seed);
        const fusiondiff::TraceStore empty = fusiondiff::loadTraceFromMemory("[]", "empty", options);
        analyze(store, empty, defaults);
        if (formFeed != std::string_view::npos) {
            const std::string_view second = input.substr(formFeed + 1);
            const fusiondiff::TraceStore other = fusiondiff::loadTraceFromMemory(second, "fuzz-input-b", options);
            analyze(store, other, defaults);
        }
    } catch (const fusiondiff::InputError&) { }
    if (formFeed != std::string_view::npos)
        compareAsRanks(bytes, input.substr(formFeed + 1), defaults);
    return 0;
}
