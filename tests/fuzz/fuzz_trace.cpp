// libFuzzer harness: any bytes through the loader and, when they load, through the whole
// analysis and every report writer. The only acceptable failure is an InputError.
// Build and run: docs/contributing.md ("Fuzzing"), or .ci/run.

#include "classify/classifier.h"
#include "fusionanalysis.h"
#include "load/traceloader.h"
#include "report/reportwriters.h"
#include "util/inputerror.h"

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

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    static const fusiondiff::Classifier seed = fusiondiff::Classifier::builtin("seed");
    static const fusiondiff::Classifier defaults = fusiondiff::Classifier::builtin("default");
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    fusiondiff::LoadOptions options;
    options.chunkBytes = 512; // many chunks, so that cuts fall everywhere
    options.memoryBudget = uint64_t(1) << 30;
    try {
        const fusiondiff::TraceStore store = fusiondiff::loadTraceFromMemory(bytes, "fuzz-input", options);
        // The trace against itself (every group matches), and against an empty trace.
        analyze(store, store, seed);
        const fusiondiff::TraceStore empty = fusiondiff::loadTraceFromMemory("[]", "empty", options);
        analyze(store, empty, defaults);
    } catch (const fusiondiff::InputError&) { }
    return 0;
}
