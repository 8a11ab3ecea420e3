#include "clicommands.h"

#include "classify/classifier.h"
#include "classify/kerneltypes.h"
#include "fusionanalysis.h"
#include "load/capturetrace.h"
#include "load/traceloader.h"
#include "load/traceset.h"
#include "ops/efficiency/gpupeaks.h"
#include "outputcheck.h"
#include "report/reportwriters.h"
#include "runs/jobcompare.h"
#include "runs/runloader.h"
#include "terminalprogress.h"
#include "util/atomicfile.h"
#include "util/inputerror.h"
#include "util/textformat.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <unordered_map>

namespace fusiondiff::cli {

namespace {

// Standard output: a full disk or a closed pipe behind it is an error like any other output's.
void writeStandardOutput(const std::string& text)
{
    std::cout << text << std::flush;
    if (!std::cout)
        throw InputError("standard output", std::string("cannot write: ") + std::strerror(errno));
}

// A file appears whole or not at all: the old one stays until the new one is on disk.
void writeOutput(const std::string& path, const std::string& text)
{
    if (path == "-")
        writeStandardOutput(text);
    else
        writeFileAtomically(path, text);
}

void createCsvDirectory(const std::string& directory)
{
    std::error_code error;
    std::filesystem::create_directories(directory, error);
    if (error)
        throw InputError(directory, "cannot create the output directory: " + error.message());
}

void writeCsvTables(const std::string& directory, const FusionReport& report)
{
    for (const CsvTable& table : reportToCsv(report))
        writeOutput((std::filesystem::path(directory) / (table.name + ".csv")).string(), table.text);
}

// Escapes what would break a TSV row.
std::string tsvField(std::string_view text)
{
    std::string out;
    for (const char c : text) {
        switch (c) {
        case '\t':
            out += "\\t";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\\':
            out += "\\\\";
            break;
        default:
            out.push_back(c);
        }
    }
    return out;
}

} // namespace

int runCompare(const CompareArguments& arguments)
{
    // Check the rule file, the peaks file and where the outputs go before spending time on the traces.
    const Classifier classifier = Classifier::load(arguments.classifier);
    if (!arguments.options.peaksFile.empty())
        loadGpuPeaks(arguments.options.peaksFile);
    checkOutputDestinations(arguments);

    // Multi-rank runs: the ranks compared as jobs first (a bad rank set stops here, before any
    // output), then the detailed report on one pair of ranks.
    std::shared_ptr<JobReport> job;
    std::array<std::string, 2> detailed { arguments.traceA, arguments.traceB };
    if (isMultiRankRun(arguments.runA) || isMultiRankRun(arguments.runB)) {
        const std::array<std::vector<std::string>, 2> files { runTraceFiles(arguments.runA),
            runTraceFiles(arguments.runB) };
        if (!arguments.quiet)
            std::cerr << "fusiondiff-cli: comparing " << files[0].size() << " rank traces with " << files[1].size()
                      << "\n";
        job = std::make_shared<JobReport>(compareRuns(files, classifier, arguments.threads));
        if (arguments.rankPair)
            job->detailedPair = *arguments.rankPair;
        for (size_t side = 0; side < 2; ++side) {
            const std::vector<RankSummary>& ranks = job->sides[side].ranks;
            const int32_t rank = job->detailedPair[side];
            if (rank < 0 || size_t(rank) >= ranks.size())
                throw InputError(files[side].front(),
                    std::string(side == 0 ? "A" : "B") + " has no rank " + std::to_string(rank) + " (--rank-pair)");
            detailed[side] = ranks[size_t(rank)].path;
        }
    }

    TerminalProgress progress({ "A", "B" }, !arguments.quiet);
    std::vector<LoadedTrace> traces = loadTraces(
        { detailed[0], detailed[1] }, nullptr,
        [&](size_t trace, uint64_t done, uint64_t total) { progress.update(trace, done, total); }, arguments.threads);
    progress.finish();

    // Report every trace that failed, not just the first: print the others, throw the last.
    std::exception_ptr last;
    for (const LoadedTrace& trace : traces) {
        if (!trace.error)
            continue;
        if (last) {
            try {
                std::rethrow_exception(last);
            } catch (const InputError& error) {
                std::cerr << "fusiondiff-cli: error: " << error.what() << "\n";
            }
        }
        last = trace.error;
    }
    if (last)
        std::rethrow_exception(last);

    std::array<std::optional<CaptureTrace>, 2> captures;
    for (size_t side = 0; side < 2; ++side) {
        const std::optional<std::string>& path = side == 0 ? arguments.captureA : arguments.captureB;
        if (path)
            captures[side] = loadCaptureTrace(*path);
    }
    AnalysisOptions options = arguments.options;
    options.threads = arguments.threads;
    FusionReport report = analyzeFusion(*traces[0].store, *traces[1].store,
        { captures[0] ? &*captures[0] : nullptr, captures[1] ? &*captures[1] : nullptr }, classifier, options);
    traces.clear();
    if (job)
        addJobToReport(report, std::move(job));

    const bool anyOutput = arguments.jsonPath || arguments.csvDirectory || arguments.markdownPath;
    if (arguments.csvDirectory) // first: the other files may go into it
        createCsvDirectory(*arguments.csvDirectory);
    if (arguments.jsonPath)
        writeOutput(*arguments.jsonPath, reportToJson(report));
    if (arguments.markdownPath)
        writeOutput(*arguments.markdownPath, reportToMarkdown(report));
    if (arguments.csvDirectory)
        writeCsvTables(*arguments.csvDirectory, report);
    if (!anyOutput)
        writeStandardOutput(reportSummary(report));
    return 0;
}

int runClassify(const ClassifyArguments& arguments)
{
    const Classifier classifier = Classifier::load(arguments.classifier);
    std::string out = "name\tcategory\tcount\ttotal_us\n";
    if (arguments.namesFile) {
        std::ifstream file(*arguments.namesFile, std::ios::binary);
        if (!file)
            throw InputError(*arguments.namesFile, std::string("cannot open the names file: ") + std::strerror(errno));
        std::string name;
        while (std::getline(file, name)) {
            if (!name.empty() && name.back() == '\r')
                name.pop_back();
            if (name.empty())
                continue;
            out += tsvField(name) + "\t" + classifier.categoryName(classifier.classify(name)) + "\t0\t0\n";
        }
        if (file.bad())
            throw InputError(*arguments.namesFile, "cannot read the names file");
    } else {
        const TraceStore store = loadTrace(*arguments.trace);
        const KernelTypes types = classifyKernels(store, classifier);
        struct Row
        {
            StringId name;
            uint64_t count = 0;
            double totalUs = 0;
        };
        std::vector<Row> rows;
        std::unordered_map<StringId, size_t> rowOf;
        for (const KernelEvent& kernel : store.kernels) {
            const auto [it, inserted] = rowOf.try_emplace(kernel.name, rows.size());
            if (inserted)
                rows.push_back({ kernel.name });
            ++rows[it->second].count;
            rows[it->second].totalUs += kernel.dur;
        }
        std::sort(rows.begin(), rows.end(), [&](const Row& a, const Row& b) {
            return a.totalUs != b.totalUs ? a.totalUs > b.totalUs : store.name(a.name) < store.name(b.name);
        });
        for (const Row& row : rows) {
            out += tsvField(store.name(row.name)) + "\t" + classifier.categoryName(types.ofName[row.name]) + "\t"
                + std::to_string(row.count) + "\t" + shortestDouble(row.totalUs) + "\n";
        }
    }
    writeStandardOutput(out);
    return 0;
}

} // namespace fusiondiff::cli
