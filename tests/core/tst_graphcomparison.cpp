// Graphs compared as units: kinds, kind matching whatever min_group_size is, graphs that cover
// several of the other side's, capture traces that name the operations, and degraded input.

#include "classify/classifier.h"
#include "comparedpair.h"
#include "fusionanalysis.h"
#include "graphwriter.h"
#include "load/capturetrace.h"
#include "load/traceloader.h"
#include "ops/alignment/affinealignment.h"
#include "ops/timegap/synthetictiming.h"
#include "report/referencecaveat.h"
#include "report/reportnotes.h"
#include "report/reporttables.h"
#include "report/reportwriters.h"
#include "testdata.h"
#include "util/inputerror.h"
#include "util/textformat.h"

#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <set>

using namespace fusiondiff;
using namespace fusiondiff::test;

namespace {

const std::string kAttention = "flash_fwd_kernel";

// Every element once, in order.
void checkAlignment(const std::vector<AlignedPair>& alignment, size_t n, size_t m)
{
    int64_t nextA = 0, nextB = 0;
    for (const AlignedPair& pair : alignment) {
        if (pair.first >= 0)
            QCOMPARE(pair.first, nextA++);
        if (pair.second >= 0)
            QCOMPARE(pair.second, nextB++);
        QVERIFY(pair.first >= 0 || pair.second >= 0);
    }
    QCOMPARE(size_t(nextA), n);
    QCOMPARE(size_t(nextB), m);
}

std::vector<std::string> piece(bool fused)
{
    // A piecewise graph of 7 or 6 kernels: the unfused side runs the ReLU after the GEMM.
    std::vector<std::string> kernels { kNorm, kGemm };
    if (fused)
        kernels.back() = kGemmRelu;
    else
        kernels.push_back(kRelu);
    for (const std::string& k : { kAdd, kNorm, kGemm, kAdd })
        kernels.push_back(k);
    return kernels;
}

// A capture trace: begin/end capture around the launches of `kernels`, each under an operator
// and a Python frame named after it. `cuda`: CUDA's runtime names, without the kernel's name on
// the launch call (as CUPTI records it).
QByteArray captureTrace(const std::vector<std::vector<std::string>>& graphs, bool cuda = false)
{
    TraceWriter writer;
    writer.amd();
    double ts = 10;
    int64_t correlation = 1;
    auto event
        = [&](const std::string& cat, const std::string& name, double start, double dur, const std::string& args = "") {
              writer.rawEvent(R"({"ph": "X", "cat": ")" + cat + R"(", "name": ")" + name
                  + R"(", "pid": 1, "tid": 7, "ts": )" + std::to_string(start) + R"(, "dur": )" + std::to_string(dur)
                  + R"(, "args": {"correlation": )" + std::to_string(correlation++) + args + "}}");
          };
    writer.rawEvent(
        R"({"ph": "X", "cat": "user_annotation", "name": "capture_decode", "pid": 1, "tid": 7, "ts": 1, "dur": 100000})");
    for (const auto& kernels : graphs) {
        event("cuda_runtime", cuda ? "cudaStreamBeginCapture" : "hipStreamBeginCapture", ts, 1);
        ts += 2;
        for (const std::string& kernel : kernels) {
            const std::string op = kernel == kRelu ? "my::relu" : "my::op_" + std::to_string(kernel.size());
            event("python_function", "model/layers.py(12): forward", ts, 8);
            event("cpu_op", op, ts + 1, 6);
            if (cuda)
                event("cuda_runtime", "cudaLaunchKernel", ts + 2, 1);
            else
                event("cuda_runtime", "hipLaunchKernel", ts + 2, 1, R"(, "kernel": ")" + kernel + R"(")");
            ts += 10;
        }
        event("cuda_runtime", cuda ? "cudaStreamEndCapture" : "hipStreamEndCapture", ts, 1);
        ts += 5;
    }
    return writer.json();
}

// One graph on A (AMD) that runs a prefix and `replays` blocks, against B (NVIDIA) launching the
// prefix as one graph and each block as a replay of another: CUDA graph trees against one HIP
// graph. A's trace records its graph's kernels only up to `recordedBlocks` whole blocks and
// `partKernels` kernels of the next; its hipStreamSynchronize returns `tailUs` after the last
// recorded kernel (-1: no such call), and `kernelInTail` puts another kernel of A in that time.
struct TreePair
{
    TraceWriter a;
    TraceWriter b;
};

constexpr double kTreeKernelUs = 10; // each kernel; they run 1 us apart

TreePair graphTreeAgainstOneGraph(
    int replays, int recordedBlocks, int partKernels, double tailUs, bool kernelInTail = false)
{
    TreePair pair;
    pair.a.amd();
    pair.b.nvidia();
    GraphWriter graphsA(pair.a, true), graphsB(pair.b, false);
    const std::vector<std::string> prefix { kNorm, kAttention, kAdd, kGemm, kNorm, kAttention, kAdd, kGemm };
    graphsB.launch(prefix, kTreeKernelUs);
    for (int r = 0; r < replays; ++r)
        graphsB.launch(piece(false), kTreeKernelUs);
    std::vector<std::string> recorded = prefix;
    for (int r = 0; r < recordedBlocks; ++r) {
        for (const std::string& k : piece(true))
            recorded.push_back(k);
    }
    const std::vector<std::string> block = piece(true);
    recorded.insert(recorded.end(), block.begin(), block.begin() + partKernels);
    graphsA.launch(recorded, kTreeKernelUs);
    const double lastEnd = pair.a.nextTs() - 1;
    if (kernelInTail)
        pair.a.kernel({ kAdd, lastEnd + tailUs / 2, 2, 9999, std::nullopt });
    if (tailUs >= 0) {
        const double start = 150; // on the host, after the launch call (at 100), before the GPU is done
        pair.a.rawEvent(
            R"({"ph": "X", "cat": "cuda_runtime", "name": "hipStreamSynchronize", "pid": 1, "tid": 1, "ts": )"
            + std::to_string(start) + R"(, "dur": )" + std::to_string(lastEnd + tailUs - start)
            + R"(, "args": {"correlation": 4000}})");
    }
    return pair;
}
const TimeGapPart* partOf(const TimeGapBreakdown& breakdown, GapCause cause)
{
    const auto found = std::find_if(breakdown.parts.begin(), breakdown.parts.end(),
        [cause](const TimeGapPart& part) { return part.cause == cause; });
    return found == breakdown.parts.end() ? nullptr : &*found;
}

// The parts of every basis add up to its gap, and its totals to the step table's (the identity).
void checkPartsAddUp(const FusionReport& report)
{
    const TimeGap& gap = report.timeGap;
    for (const TimeGapBreakdown* breakdown :
        { &gap.kernelTime, gap.wallTime ? &*gap.wallTime : nullptr, gap.stepTime ? &*gap.stepTime : nullptr }) {
        if (!breakdown)
            continue;
        double sum = 0;
        for (const TimeGapPart& part : breakdown->parts)
            sum += part.deltaUs;
        QVERIFY2(std::fabs(sum - breakdown->deltaUs) < 1e-6, timeBasisKey(breakdown->basis));
        QVERIFY(std::fabs(breakdown->deltaUs - (breakdown->timeUs[0] - breakdown->timeUs[1])) < 1e-6);
    }
    if (gap.stepTime && !report.stepTime.rows.empty()) {
        for (size_t side = 0; side < 2; ++side)
            QVERIFY(std::fabs(report.stepTime.rows.back().totalUs[side] - gap.stepTime->timeUs[side]) < 1e-6);
    }
}

bool hasColumn(const ReportTable& table, const std::string& key)
{
    return std::any_of(
        table.columns.begin(), table.columns.end(), [&key](const TableColumn& column) { return column.key == key; });
}

} // namespace

class TestGraphComparison : public QObject
{
    Q_OBJECT

private slots:
    void stepsAreTheSameInEveryView_data()
    {
        QTest::addColumn<QString>("category");
        QTest::newRow("ProfilerStep annotations") << QStringLiteral("user_annotation");
        QTest::newRow("ProfilerStep operators (2021 schema)") << QStringLiteral("cpu_op");
    }

    void stepsAreTheSameInEveryView()
    {
        // Four steps of an eager operator and a graph launch each. The 2021 schema records
        // ProfilerStep#N as an operator; the iterations, the graph launches and the step time
        // must all find the same four steps (ops/attribution/profilersteps.h), not only the first.
        QFETCH(QString, category);
        auto trace = [&](bool amd) {
            TraceWriter writer;
            amd ? writer.amd() : writer.nvidia();
            auto event
                = [&](const std::string& cat, const std::string& name, double ts, double dur, const std::string& args) {
                      writer.rawEvent(R"({"ph": "X", "cat": ")" + cat + R"(", "name": ")" + name
                          + R"(", "pid": 1, "tid": 1, "ts": )" + std::to_string(ts) + R"(, "dur": )"
                          + std::to_string(dur) + R"(, "args": {)" + args + "}}");
                  };
            for (int step = 0; step < 4; ++step) {
                const double begin = 100 + 1000 * step;
                const int64_t id = 10 * step + 1;
                event(category.toStdString(), "ProfilerStep#" + std::to_string(step), begin, 900, "");
                event("cpu_op", "aten::add", begin + 10, 50, R"("External id": )" + std::to_string(id));
                event("cuda_runtime", "cudaLaunchKernel", begin + 20, 5,
                    R"("correlation": )" + std::to_string(id) + R"(, "External id": )" + std::to_string(id));
                writer.kernel({ kAdd, begin + 30, 5, id, id });
                event("cuda_runtime", amd ? "hipGraphLaunch" : "cudaGraphLaunch", begin + 100, 5,
                    R"("correlation": )" + std::to_string(id + 5));
                writer.kernel({ kNorm, begin + 110, 5, id + 5, std::nullopt });
                writer.kernel({ kGemm, begin + 120, 5, id + 5, std::nullopt });
            }
            return writer;
        };
        const FusionReport report = compareWritten(trace(true), trace(false));
        for (size_t side = 0; side < 2; ++side) {
            QCOMPARE(report.iterations[side].method, std::string("ProfilerStep annotations"));
            QCOMPARE(report.iterations[side].count, uint64_t(4));
            QCOMPARE(report.graphComparison.kinds[side].size(), size_t(1));
            QCOMPARE(report.graphComparison.kinds[side].front().launchesPerIteration, 1.0);
            QCOMPARE(report.stepTime.sides[side].steps.size(), size_t(4));
        }
    }

    void affineAlignmentKeepsEveryElementInOrder()
    {
        QRandomGenerator random(11);
        for (int round = 0; round < 200; ++round) {
            std::vector<uint16_t> a(random.bounded(0, 40)), b(random.bounded(0, 40));
            for (auto& x : a)
                x = uint16_t(random.bounded(4));
            for (auto& x : b)
                x = uint16_t(random.bounded(4));
            checkAlignment(alignAffine(a, b), a.size(), b.size());
        }
    }

    void affineAlignmentLeavesTheSurplusAsOneGapAtTheEnd()
    {
        // B holds the work of A and then more of it: the surplus stays at the end.
        const std::vector<uint16_t> a { 1, 2, 3, 1, 2, 3 };
        const std::vector<uint16_t> b { 1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3 };
        const std::vector<AlignedPair> alignment = alignAffine(a, b);
        checkAlignment(alignment, a.size(), b.size());
        for (size_t i = 0; i < a.size(); ++i)
            QCOMPARE(alignment[i], (AlignedPair { int64_t(i), int64_t(i) }));
        // A kernel one side runs in addition is one gap, not a cause to shift everything.
        const std::vector<uint16_t> c { 1, 2, 9, 3, 1, 2, 3 };
        const std::vector<AlignedPair> withExtra = alignAffine(c, a);
        QCOMPARE(withExtra[2], (AlignedPair { 2, -1 }));
        QCOMPARE(withExtra[3], (AlignedPair { 3, 2 }));
    }

    void affineAlignmentPrefersKernelsOfSimilarDuration()
    {
        // A head, then two blocks of the same types: a long one (800 tokens) and a short one (50
        // tokens). B ran the head and only the short block; the durations say which of A's it is.
        const std::vector<uint16_t> a { 7, 1, 2, 3, 4, 1, 2, 3, 4 };
        const std::vector<float> aTimes { 1, 90, 80, 90, 80, 5, 6, 5, 6 };
        const std::vector<uint16_t> b { 7, 1, 2, 3, 4 };
        const std::vector<float> bTimes { 1, 6, 5, 6, 5 };
        const std::vector<AlignedPair> timed = alignAffine(a, b, aTimes, bTimes);
        checkAlignment(timed, a.size(), b.size());
        QCOMPARE(timed[0], (AlignedPair { 0, 0 }));
        QCOMPARE(timed[1], (AlignedPair { 1, -1 }));
        QCOMPARE(timed.back(), (AlignedPair { 8, 4 }));
        // Without durations the earliest block pairs.
        const std::vector<AlignedPair> untimed = alignAffine(a, b);
        QCOMPARE(untimed[1], (AlignedPair { 1, 1 }));
    }

    void piecewiseGraphsAreComparedWhateverTheirSize()
    {
        // 9 launches of a 7-kernel piece against 9 of a 6-kernel piece: far below min_group_size.
        TraceWriter a, b;
        a.amd();
        b.nvidia();
        GraphWriter graphsA(a, true), graphsB(b, false);
        for (int i = 0; i < 9; ++i) {
            graphsA.launch(piece(false));
            graphsB.launch(piece(true));
        }
        const FusionReport report = compareWritten(a, b);
        QVERIFY(report.groupPairs.empty()); // the seed's sections keep min_group_size
        const GraphComparison& graphs = report.graphComparison;
        QCOMPARE(graphs.launches[0], uint64_t(9));
        QCOMPARE(graphs.kinds[0].size(), size_t(1));
        QCOMPARE(graphs.kinds[1].size(), size_t(1));
        QCOMPARE(graphs.kinds[0][0].launches, uint64_t(9));
        QCOMPARE(graphs.kinds[0][0].kernels, uint32_t(7));
        QCOMPARE(graphs.pairs.size(), size_t(1));
        QCOMPARE(graphs.pairs[0].comparedLaunches, uint64_t(9));
        QCOMPARE(graphs.pairs[0].matchedBy, std::string("launch sequence alignment"));
        QVERIFY(graphs.coverage.empty());
        // The notes do not call graph launches too small for the seed's groups eager mode.
        const std::vector<std::string> notes = reportNotes(report);
        QVERIFY(std::none_of(notes.begin(), notes.end(),
            [](const std::string& note) { return note.find("eager mode") != std::string::npos; }));
        QVERIFY(std::any_of(notes.begin(), notes.end(), [](const std::string& note) {
            return note.find("although the traces launch CUDA/HIP graphs (A 9 (largest 7 kernels), B 9 (largest 6 "
                             "kernels))")
                != std::string::npos;
        }));
        QCOMPARE(report.opFindings.size(), size_t(1));
        const OpFinding& finding = report.opFindings[0];
        QVERIFY(finding.isGraph);
        QCOMPARE(QString::fromStdString(finding.op),
            QStringLiteral("graph Norm/GEMM/Elementwise (A kind 1, 7 kernels, 9 launches) / Norm/GEMM/Elementwise (B "
                           "kind 1, 6 kernels, 9 launches)"));
        QCOMPARE(finding.occurrences, uint64_t(9));
        QCOMPARE(finding.fusedSide, Side::Trace2);
        QCOMPARE(finding.launchDifference, int64_t(1));
        QCOMPARE(finding.extraRuns.size(), size_t(1));
        QVERIFY(finding.extraRuns[0].explanation.find("carries the relu") != std::string::npos);
        // 9 launches x (7 - 6) x 4 us.
        QCOMPARE(finding.savingUs, 36.0);
        QCOMPARE(graphs.pairs[0].finding, finding.summary);
    }

    void graphsTooLongForAScoredAlignmentAreAlignedInChunks()
    {
        // 6,000 against 3,000 kernels: 18 million kernel pairs, more than a scored alignment takes.
        TraceWriter a, b;
        a.amd();
        b.nvidia();
        GraphWriter graphsA(a, true), graphsB(b, false);
        std::vector<std::string> unfused, fused;
        for (int i = 0; i < 3000; ++i) {
            unfused.push_back(kGemm);
            unfused.push_back(kRelu);
            fused.push_back(kGemmRelu);
        }
        graphsA.launch(unfused, 1);
        graphsB.launch(fused, 1);
        const FusionReport report = compareWritten(a, b);
        QCOMPARE(report.opFindings.size(), size_t(1));
        const OpFinding& finding = report.opFindings[0];
        QCOMPARE(finding.launchDifference, int64_t(3000));
        checkAlignment(finding.alignment, 6000, 3000);
        uint32_t carried = 0;
        for (const ExtraRun& run : finding.extraRuns) {
            if (run.explanation.find("carries the relu") != std::string::npos)
                carried += run.repeats;
        }
        QCOMPARE(carried, uint32_t(3000));
    }

    void aGraphThatDoesTheWorkOfSeveralIsComparedPartByPart()
    {
        // A: three launches (a head of 3 kernels, then two blocks of 7); B: one launch that runs
        // all of it, with the ReLU fused, then nothing more. A's fourth launch has no counterpart.
        TraceWriter a, b;
        a.nvidia();
        b.amd();
        GraphWriter graphsA(a, false), graphsB(b, true);
        const std::vector<std::string> head { kNorm, kAttention, kAdd };
        graphsA.launch(head);
        graphsA.launch(piece(false));
        graphsA.launch(piece(false));
        graphsA.launch(piece(false));
        std::vector<std::string> all = head;
        for (int i = 0; i < 2; ++i) {
            for (const std::string& k : piece(true))
                all.push_back(k);
        }
        graphsB.launch(all);
        const FusionReport report = compareWritten(a, b);
        const GraphComparison& graphs = report.graphComparison;
        QCOMPARE(graphs.coverage.size(), size_t(1));
        const GraphCoverage& coverage = graphs.coverage[0];
        QCOMPARE(coverage.coveringSide, Side::Trace2);
        QCOMPARE(coverage.kernels, uint64_t(15));
        QCOMPARE(coverage.parts.size(), size_t(3));
        QCOMPARE(coverage.parts[0].otherLaunch, uint32_t(1));
        QCOMPARE(coverage.parts[0].firstKernel, uint32_t(1));
        QCOMPARE(coverage.parts[0].lastKernel, uint32_t(3));
        QCOMPARE(coverage.parts[1].firstKernel, uint32_t(4));
        QCOMPARE(coverage.parts[1].lastKernel, uint32_t(9));
        QCOMPARE(coverage.parts[2].otherLaunch, uint32_t(3));
        QCOMPARE(coverage.parts[2].lastKernel, uint32_t(15));
        QCOMPARE(coverage.parts[1].kernels, (std::array<uint64_t, 2> { 7, 6 }));
        QVERIFY(coverage.parts[1].differences.find("carries the relu") != std::string::npos);
        QCOMPARE(coverage.uncovered, (std::vector<uint32_t> { 4 }));
        QVERIFY(coverage.statement.find("covers NVIDIA's graph launches 1\xE2\x80\x93"
                                        "3")
            != std::string::npos);
        QVERIFY(coverage.statement.find("launches 4 have no counterpart") != std::string::npos);
        // The two block parts have the same kernels: one finding of 2 occurrences.
        const auto finding = std::find_if(report.opFindings.begin(), report.opFindings.end(), [](const OpFinding& f) {
            return f.op
                == "graph Norm/GEMM/Elementwise (A kind 2, 7 kernels, launches 2\xE2\x80\x93"
                   "3) within Norm/Elementwise/GEMM (B kind 1, 15 kernels, launch 1)";
        });
        QVERIFY(finding != report.opFindings.end());
        QCOMPARE(finding->occurrences, uint64_t(2));
        QVERIFY(graphs.pairs.empty());
        // Reported in every format.
        QVERIFY(reportToJson(report).find("\"coverage\": [") != std::string::npos);
        QVERIFY(reportToMarkdown(report).find("## Graphs") != std::string::npos);
        QVERIFY(reportSummary(report).find("covers NVIDIA's graph launches") != std::string::npos);
        bool coverageTable = false;
        for (const CsvTable& table : reportToCsv(report)) {
            // Every graph table has as many fields in each row as in its header (no field holds a comma here).
            if (table.name.starts_with("graph_") && table.name != "graph_kinds") {
                size_t fields = 0;
                for (size_t start = 0; start < table.text.size();) {
                    const size_t end = table.text.find("\r\n", start);
                    const std::string line = table.text.substr(start, end - start);
                    const size_t count = size_t(std::count(line.begin(), line.end(), ',')) + 1;
                    if (line.find('"') == std::string::npos) {
                        if (fields == 0)
                            fields = count;
                        QCOMPARE(count, fields);
                    }
                    start = end + 2;
                }
            }
            coverageTable = coverageTable
                || (table.name == "graph_coverage" && table.text.find("\r\ntrace2,1,1,1,") != std::string::npos);
        }
        QVERIFY(coverageTable);
    }

    void repeatedCoverageIsSaidOnce()
    {
        // Per step, B runs one graph where A runs three pieces: four steps.
        TraceWriter a, b;
        a.nvidia();
        b.amd();
        GraphWriter graphsA(a, false), graphsB(b, true);
        const std::vector<std::string> head { kNorm, kAttention, kAdd };
        for (int step = 0; step < 4; ++step) {
            graphsA.launch(head);
            graphsA.launch(piece(false));
            graphsA.launch(piece(false));
            std::vector<std::string> all = head;
            for (int i = 0; i < 2; ++i) {
                for (const std::string& k : piece(true))
                    all.push_back(k);
            }
            graphsB.launch(all);
        }
        const FusionReport report = compareWritten(a, b);
        QCOMPARE(report.graphComparison.coverage.size(), size_t(4));
        QCOMPARE(report.graphComparison.coverage[3].parts.front().otherLaunch, uint32_t(10));
        const std::string summary = reportSummary(report);
        QVERIFY(summary.find("AMD's graph launch 1 (15 kernels") != std::string::npos);
        QVERIFY(summary.find("Likewise AMD's graph launches 2\xE2\x80\x93"
                             "4 each cover 3 of NVIDIA's graph launches of the same kinds, in order, up to launch 12")
            != std::string::npos);
        QVERIFY(summary.find("AMD's graph launch 2 (15 kernels") == std::string::npos);
    }

    void oneSideWithoutGraphsDegradesWithANote()
    {
        TraceWriter a, b;
        a.amd();
        b.nvidia().launch("aten::linear", { kGemm, kRelu });
        GraphWriter graphsA(a, true);
        graphsA.launch(piece(false));
        graphsA.launch(piece(false));
        const FusionReport report = compareWritten(a, b);
        const GraphComparison& graphs = report.graphComparison;
        QCOMPARE(graphs.launches, (std::array<uint64_t, 2> { 2, 0 }));
        QVERIFY(graphs.pairs.empty());
        QVERIFY(graphs.coverage.empty());
        QCOMPARE(graphs.notes.size(), size_t(1));
        QVERIFY(graphs.notes[0].starts_with("B launches no CUDA/HIP graphs"));
        QVERIFY(!reportSummary(report).empty());

        // Neither side: no graph section, no note.
        TraceWriter c, d;
        c.amd().launch("aten::linear", { kGemm });
        d.nvidia().launch("aten::linear", { kGemm });
        const FusionReport none = compareWritten(c, d);
        QCOMPARE(none.graphComparison.launches, (std::array<uint64_t, 2> { 0, 0 }));
        QVERIFY(none.graphComparison.notes.empty());
        QVERIFY(reportToMarkdown(none).find("## Graphs") == std::string::npos);
    }

    void captureTraceNamesTheOperations()
    {
        const QByteArray bytes = captureTrace({ piece(false) });
        const CaptureTrace capture = loadCaptureTraceFromMemory(bytes.toStdString(), "capture.json");
        QCOMPARE(capture.graphs.size(), size_t(1));
        QCOMPARE(capture.graphs[0].name, std::string("capture_decode"));
        QCOMPARE(capture.graphs[0].launches.size(), size_t(7));
        QCOMPARE(capture.graphs[0].launches[2].kernel, kRelu);
        QCOMPARE(capture.graphs[0].launches[2].op, std::string("my::relu"));
        QCOMPARE(capture.graphs[0].launches[2].stack,
            (std::vector<std::string> { "model/layers.py(12): forward", "my::relu" }));

        TraceWriter a, b;
        a.amd();
        b.nvidia();
        GraphWriter graphsA(a, true), graphsB(b, false);
        for (int i = 0; i < 3; ++i) {
            graphsA.launch(piece(false));
            graphsB.launch(piece(true));
        }
        const FusionReport report = compareWritten(a, b, {}, { &capture, nullptr });
        QCOMPARE(report.graphComparison.kinds[0][0].captured, std::string("capture_decode"));
        QCOMPARE(report.graphComparison.capturedKinds, (std::array<uint64_t, 2> { 1, 0 }));
        QCOMPARE(report.opFindings.size(), size_t(1));
        const OpFinding& finding = report.opFindings[0];
        QCOMPARE(QString::fromStdString(finding.op),
            QStringLiteral("graph capture_decode (A kind 1, 7 kernels, 3 launches) / Norm/GEMM/Elementwise (B kind 1, "
                           "6 kernels, 3 launches)"));
        QVERIFY(finding.extraRuns[0].explanation.find("(issued by my::relu (model/layers.py(12): forward))")
            != std::string::npos);
        QCOMPARE(finding.stack, (std::vector<std::string> { "model/layers.py(12): forward", "my::relu" }));
    }

    void captureWithoutKernelNamesMapsByLength()
    {
        // Two captured graphs (3 and 7 launches) whose launch calls do not name their kernels:
        // the 7-kernel kind replays the second by its length, and its kernels take its operators.
        const QByteArray bytes = captureTrace({ { kNorm, kAttention, kAdd }, piece(true) }, true);
        const CaptureTrace capture = loadCaptureTraceFromMemory(bytes.toStdString(), "cuda_capture.json");
        QCOMPARE(capture.graphs.size(), size_t(2));
        QCOMPARE(capture.graphs[1].name, std::string("capture_decode #2"));
        QVERIFY(capture.graphs[1].launches[0].kernel.empty());

        TraceWriter a, b;
        a.amd();
        b.nvidia();
        GraphWriter graphsA(a, true), graphsB(b, false);
        for (int i = 0; i < 2; ++i) {
            graphsA.launch(piece(false));
            graphsB.launch(piece(true));
        }
        const FusionReport report = compareWritten(a, b, {}, { nullptr, &capture });
        QCOMPARE(report.graphComparison.kinds[1][0].captured, std::string("capture_decode #2"));
        QCOMPARE(report.opFindings.size(), size_t(1));
        QCOMPARE(QString::fromStdString(report.opFindings[0].op),
            QStringLiteral("graph Norm/GEMM/Elementwise (A kind 1, 7 kernels, 2 launches) / capture_decode #2 (B kind "
                           "1, 6 kernels, 2 launches)"));
    }

    void badCaptureTracesAreClearErrors()
    {
        QVERIFY_THROWS_EXCEPTION(InputError, loadCaptureTraceFromMemory("{\"traceEvents\": [", "cut.json"));
        QVERIFY_THROWS_EXCEPTION(InputError, loadCaptureTraceFromMemory("{\"other\": 1}", "other.json"));
        try {
            TraceWriter eager;
            eager.amd().launch("aten::linear", { kGemm });
            loadCaptureTraceFromMemory(eager.json().toStdString(), "eager.json");
            QFAIL("a trace without a capture was accepted");
        } catch (const InputError& error) {
            QCOMPARE(error.path(), std::string("eager.json"));
            QVERIFY(std::string(error.reason()).find("no graph capture") != std::string::npos);
        }
    }

    void realCaptureTraceNamesSGLangsOperations()
    {
        // SGLang's Qwen3-8B decode graph (544 kernels) with the trace of its capture.
        const CaptureTrace capture
            = loadCaptureTrace(test::dataPath("real/sglang_qwen3-8b_decode_capture.mi300x.json.gz").toStdString());
        QCOMPARE(capture.graphs.size(), size_t(1));
        QCOMPARE(capture.graphs[0].name, std::string("capture_32_DECODE"));
        QCOMPARE(capture.graphs[0].launches.size(), size_t(544));
        const TraceStore vllm = loadTrace(test::dataPath("real/vllm_decode_full_graph.mi300x.json.gz").toStdString());
        const TraceStore sglang = loadTrace(test::dataPath("real/sglang_qwen3-8b_decode.mi300x.json.gz").toStdString());
        const FusionReport report
            = analyzeFusion(vllm, sglang, { nullptr, &capture }, Classifier::builtin("default"), {});
        QCOMPARE(report.graphComparison.kinds[1][0].captured, std::string("capture_32_DECODE"));
        QCOMPARE(report.graphComparison.pairs.size(), size_t(1));
        const auto finding = std::find_if(
            report.opFindings.begin(), report.opFindings.end(), [](const OpFinding& f) { return f.isGraph; });
        QVERIFY(finding != report.opFindings.end());
        QCOMPARE(QString::fromStdString(finding->op),
            QStringLiteral("graph MoE/GEMM/Attention (A kind 1, 421 kernels, 1 launch) / capture_32_DECODE (B kind 1, "
                           "544 kernels, 1 launch)"));
        bool namesAttention = false;
        for (const ExtraRun& run : finding->extraRuns)
            namesAttention = namesAttention
                || (run.explanation.find("paged_attention_ll4mi_reduce_kernel") != std::string::npos
                    && run.explanation.find("issued by sglang_profiler::attention_paged_attention_ragged_100")
                        != std::string::npos);
        QVERIFY(namesAttention);
    }

    void oneGraphAgainstAPrefixAndReplaysPairsWithTheWholeSequence()
    {
        // A's graph runs the prefix and 6 blocks; its trace records the prefix, 2 blocks and 3
        // kernels of the third, and its wait returns as long after as the other 21 kernels take.
        const double tail = 21 * (kTreeKernelUs + 1);
        TreePair pair = graphTreeAgainstOneGraph(6, 2, 3, tail);
        const FusionReport report = compareWritten(pair.a, pair.b);
        const GraphComparison& graphs = report.graphComparison;
        QCOMPARE(graphs.coverage.size(), size_t(1));
        const GraphCoverage& coverage = graphs.coverage[0];
        QCOMPARE(coverage.coveringSide, Side::Trace1);
        QCOMPARE(coverage.parts.size(), size_t(4)); // the prefix, 2 blocks, the third in part
        QVERIFY(coverage.parts.back().partial);
        QCOMPARE(coverage.parts.back().otherLaunch, uint32_t(4));
        // B's launches 5-7 run in the time A's trace does not record: not "without a counterpart".
        QCOMPARE(coverage.unrecordedParts, (std::vector<uint32_t> { 5, 6, 7 }));
        QVERIFY(coverage.uncovered.empty());
        QVERIFY(std::fabs(coverage.unrecordedUs - tail) < 0.01);
        QCOMPARE(coverage.waitCall, std::string("hipStreamSynchronize"));
        QVERIFY(std::fabs(graphs.unrecordedUs[0] - tail) < 0.01);
        QCOMPARE(graphs.unrecordedUs[1], 0.0);
        // At A's speed in its whole parts (6 kernels where B runs 7): the rest of the third block
        // (30 us) and three blocks of 60 us.
        QVERIFY(std::fabs(coverage.unrecordedEstimateUs - (30 + 3 * 60)) < 0.01);
        QVERIFY2(coverage.statement.find("covers NVIDIA's graph launches 1\xE2\x80\x93"
                                         "7:")
                != std::string::npos,
            coverage.statement.c_str());
        QVERIFY2(coverage.statement.find("no counterpart") == std::string::npos, coverage.statement.c_str());
        QVERIFY2(coverage.statement.find("the rest of NVIDIA's launch 4 and its launches 5\xE2\x80\x93"
                                         "7")
                != std::string::npos,
            coverage.statement.c_str());
        // The verdict says it first, and counts the unrecorded time.
        QVERIFY2(
            report.timeGap.verdict.starts_with("A's trace holds only part of its GPU work: its graph launch 1 ran "),
            report.timeGap.verdict.c_str());
        // The time gap shows B's launches 4-7 and A's partial block as not compared, by name, not
        // as kernels without a counterpart or without a launch.
        const auto notCompared
            = std::find_if(report.timeGap.kernelTime.parts.begin(), report.timeGap.kernelTime.parts.end(),
                [](const TimeGapPart& part) { return part.cause == GapCause::NotCompared; });
        QVERIFY(notCompared != report.timeGap.kernelTime.parts.end());
        QCOMPARE(notCompared->top.size(), size_t(1));
        QCOMPARE(notCompared->top[0].name,
            std::string("graph launches 4\xE2\x80\x93"
                        "7 of B, run in A's graph launch 1 after the last kernel its trace records"));
        QCOMPARE(notCompared->top[0].kernels, (std::array<uint64_t, 2> { 3, 4 * 7 }));
        for (const TimeGapPart& part : report.timeGap.kernelTime.parts)
            QVERIFY2(part.cause != GapCause::Unattributed || part.kernels[0] == 0, part.label.c_str());
        const std::string json = reportToJson(report);
        QVERIFY(json.find("\"unrecorded_launches\": [") != std::string::npos);
        QVERIFY(json.find("\"wait_call\": \"hipStreamSynchronize\"") != std::string::npos);
    }

    void aGraphsTimeAfterItsLastRecordedKernelIsNotRecordedTimeOnEveryBasis()
    {
        // A's graph ran `tail` past its last recorded kernel. The step, the kernel and the wall time
        // count that time as the part "not recorded"; the views that showed the recorded time only
        // (A's step ending at its last recorded kernel) disagreed with the verdict's first sentence.
        const double tail = 21 * (kTreeKernelUs + 1);
        TreePair pair = graphTreeAgainstOneGraph(6, 2, 3, tail);
        const double lastEnd = pair.a.nextTs() - 1; // A's last recorded kernel
        const double launchCall = 100; // GraphWriter's first launch call, before any kernel
        const FusionReport report = compareWritten(pair.a, pair.b);
        QVERIFY(std::fabs(report.graphComparison.unrecordedUs[0] - tail) < 0.01);
        const TimeGap& gap = report.timeGap;
        QVERIFY(gap.stepTime);
        // Step time: from the launch to when the wait returned, the tail busy and named.
        QVERIFY(std::fabs(gap.stepTime->timeUs[0] - (lastEnd + tail - launchCall)) < 0.01);
        const TimeGapPart* stepPart = partOf(*gap.stepTime, GapCause::NotRecorded);
        QVERIFY(stepPart);
        QVERIFY(std::fabs(stepPart->timeUs[0] - tail) < 0.01);
        QCOMPARE(stepPart->timeUs[1], 0.0);
        QCOMPARE(stepPart->kernels, (std::array<uint64_t, 2> { 0, 0 }));
        QCOMPARE(stepPart->label, std::string("not recorded"));
        QCOMPARE(report.stepTime.rows.size(), size_t(1));
        const StepTimeRow& row = report.stepTime.rows[0];
        QVERIFY(std::fabs(row.timeUs[0].median - gap.stepTime->timeUs[0]) < 0.01);
        QVERIFY(std::fabs(row.notRecordedUs[0] - tail) < 0.01);
        QVERIFY(report.stepTime.notRecorded);
        const StepRecord& step = report.stepTime.sides[0].steps[0];
        QVERIFY(std::fabs(step.busyUs + step.idleTotalUs() - step.timeUs()) < 1e-6);
        // Kernel time: the recorded kernels and the tail (their upper bound).
        const TimeGapPart* kernelPart = partOf(gap.kernelTime, GapCause::NotRecorded);
        QVERIFY(kernelPart);
        QVERIFY(std::fabs(kernelPart->timeUs[0] - tail) < 0.01);
        QVERIFY(std::fabs(gap.kernelTime.timeUs[0] - (report.traces[0].kernelTimeUs + tail)) < 0.01);
        // Wall time: from the first kernel to the tail's end.
        QVERIFY(gap.wallTime);
        QVERIFY(std::fabs(gap.wallTime->timeUs[0] - (lastEnd + tail - 1000)) < 0.01);
        QVERIFY(partOf(*gap.wallTime, GapCause::NotRecorded));
        checkPartsAddUp(report);
        // The verdict's sentences agree: the main one gives the counted step time and names the part.
        QVERIFY2(gap.verdict.find("count only the recorded kernels") == std::string::npos, gap.verdict.c_str());
        QVERIFY2(gap.verdict.find("\"not recorded\"") != std::string::npos, gap.verdict.c_str());
        QVERIFY2(gap.verdict.find(formatDuration(gap.headline().timeUs[0])) != std::string::npos, gap.verdict.c_str());
        QVERIFY2(gap.verdict.find("A's with " + formatDuration(tail) + " not recorded") != std::string::npos,
            gap.verdict.c_str());
        // Every writer names it.
        QVERIFY(hasColumn(reportTable(ReportTableId::StepTimes, report), "trace1_not_recorded_us"));
        const std::string json = reportToJson(report);
        QVERIFY(json.find("\"cause\": \"not_recorded\"") != std::string::npos);
        QVERIFY(json.find("\"not_recorded_us\": ") != std::string::npos);
        QVERIFY(reportToMarkdown(report).find("| A not recorded | B not recorded |") != std::string::npos);
        const std::string summary = reportSummary(report);
        QVERIFY2(summary.find(formatDuration(tail) + " of it not recorded") != std::string::npos, summary.c_str());
    }

    void theIdleAGraphsNotRecordedTimeHeldMovesIntoIt()
    {
        // The host launches a kernel after A's wait returns, so A's step runs on past the tail:
        // the time until the wait returned was the host waiting in hipStreamSynchronize (sync idle)
        // while the GPU ran the graph. It is not recorded time now, counted once.
        const double tail = 21 * (kTreeKernelUs + 1);
        TreePair pair = graphTreeAgainstOneGraph(6, 2, 3, tail);
        const double lastEnd = pair.a.nextTs() - 1;
        const double returns = lastEnd + tail;
        pair.a.rawEvent(R"({"ph": "X", "cat": "cuda_runtime", "name": "hipLaunchKernel", "pid": 1, "tid": 1, "ts": )"
            + std::to_string(returns + 5) + R"(, "dur": 3, "args": {"correlation": 4001}})");
        pair.a.kernel({ kAdd, returns + 20, 2, 4001, std::nullopt });
        const FusionReport report = compareWritten(pair.a, pair.b);
        QVERIFY(std::fabs(report.graphComparison.unrecordedUs[0] - tail) < 0.01);
        const TimeGap& gap = report.timeGap;
        QVERIFY(gap.stepTime);
        QVERIFY(std::fabs(gap.stepTime->timeUs[0] - (returns + 22 - 100)) < 0.01);
        const TimeGapPart* notRecorded = partOf(*gap.stepTime, GapCause::NotRecorded);
        QVERIFY(notRecorded);
        QVERIFY(std::fabs(notRecorded->timeUs[0] - tail) < 0.01);
        const TimeGapPart* sync = partOf(*gap.stepTime, GapCause::IdleSync);
        QVERIFY2(!sync || sync->timeUs[0] < 0.01, sync ? formatDuration(sync->timeUs[0]).c_str() : "");
        // A's idle after its last recorded kernel is only what follows the wait's return: 20 us
        // until the kernel starts (the host 5 us before its launch, then the launch).
        double idleAfter = 0;
        for (const IdleInterval& interval : report.stepTime.sides[0].idle) {
            if (interval.begin >= lastEnd)
                idleAfter += interval.end - interval.begin;
        }
        QVERIFY2(std::fabs(idleAfter - 20) < 0.01, formatDuration(idleAfter).c_str());
        const StepRecord& step = report.stepTime.sides[0].steps[0];
        QVERIFY(std::fabs(step.busyUs + step.idleTotalUs() - step.timeUs()) < 1e-6);
        checkPartsAddUp(report);
    }

    void aGraphRecordedWholeKeepsItsUncoveredLaunches()
    {
        // The same pair where A's wait returns right after its last kernel, or where another
        // kernel runs before it returns: nothing says that A's graph ran on, so B's last three
        // launches have no counterpart in A's trace.
        for (const bool kernelInTail : { false, true }) {
            TreePair pair = graphTreeAgainstOneGraph(6, 2, 3, kernelInTail ? 231 : 3, kernelInTail);
            const FusionReport report = compareWritten(pair.a, pair.b);
            QCOMPARE(report.graphComparison.coverage.size(), size_t(1));
            const GraphCoverage& coverage = report.graphComparison.coverage[0];
            QCOMPARE(coverage.unrecordedUs, 0.0);
            QVERIFY(coverage.unrecordedParts.empty());
            QCOMPARE(coverage.uncovered, (std::vector<uint32_t> { 5, 6, 7 }));
            QVERIFY(coverage.statement.find("launches 5\xE2\x80\x93"
                                            "7 have no counterpart")
                != std::string::npos);
            QVERIFY(!report.timeGap.verdict.starts_with("A's trace holds only part"));
            // Nothing is not recorded: no part, no column, no field (such reports keep their bytes).
            for (const TimeGapBreakdown* breakdown :
                { &report.timeGap.kernelTime, report.timeGap.wallTime ? &*report.timeGap.wallTime : nullptr,
                    report.timeGap.stepTime ? &*report.timeGap.stepTime : nullptr })
                QVERIFY(!breakdown || !partOf(*breakdown, GapCause::NotRecorded));
            QVERIFY(!report.stepTime.notRecorded);
            QVERIFY(!hasColumn(reportTable(ReportTableId::StepTimes, report), "trace1_not_recorded_us"));
            QVERIFY(reportToJson(report).find("not_recorded") == std::string::npos);
        }
    }

    void pi0sOneGraphDoesThePrefixAndAllTenDenoisingSteps()
    {
        // The MI350 launches one HIP graph; its trace records its first 1,520 kernels (the noise,
        // the prefix, three denoising steps and 91 kernels of a fourth), and hipStreamSynchronize
        // returns 9.3 ms after the last of them: the time of the other six and a half steps at the
        // MI350's 1.4 ms a step (tests/golden/graph_launches.py, docs/findings-examples.md).
        const TraceStore mi350
            = loadTrace(test::dataPath("real/pi0_torchcompile_hipgraph.mi350.json.gz").toStdString());
        const TraceStore h200 = loadTrace(test::dataPath("real/pi0_torchcompile_cudagraph.h200.json.gz").toStdString());
        const FusionReport report = analyzeFusion(mi350, h200, {}, Classifier::builtin("default"), {});
        const GraphComparison& graphs = report.graphComparison;
        QCOMPARE(graphs.coverage.size(), size_t(1));
        const GraphCoverage& coverage = graphs.coverage[0];
        QCOMPARE(coverage.kernels, uint64_t(1520));
        QCOMPARE(coverage.correlation, int64_t(5));
        QCOMPARE(coverage.parts.size(), size_t(6));
        QCOMPARE(coverage.parts[1].otherCorrelation, int64_t(78)); // the 1,510-kernel prefix graph
        QCOMPARE(coverage.parts[1].kernels[0], uint64_t(674));
        QVERIFY(coverage.parts.back().partial);
        QCOMPARE(coverage.unrecordedParts, (std::vector<uint32_t> { 7, 8, 9, 10, 11, 12 }));
        QVERIFY(coverage.uncovered.empty());
        QVERIFY(std::fabs(coverage.unrecordedUs - 9301.0) < 1.0);
        QVERIFY(std::fabs(coverage.unrecordedEstimateUs - coverage.unrecordedUs) < 0.05 * coverage.unrecordedUs);
        QVERIFY(coverage.statement.find("no counterpart") == std::string::npos);
        QVERIFY(coverage.statement.find("covers NVIDIA's graph launches 1\xE2\x80\x93"
                                        "12:")
            != std::string::npos);
        // 6.9 ms of H200 launches were "without a counterpart": now not compared under their name.
        const auto notCompared
            = std::find_if(report.timeGap.kernelTime.parts.begin(), report.timeGap.kernelTime.parts.end(),
                [](const TimeGapPart& part) { return part.cause == GapCause::NotCompared; });
        QVERIFY(notCompared != report.timeGap.kernelTime.parts.end());
        QCOMPARE(notCompared->top[0].name,
            std::string("graph launches 6\xE2\x80\x93"
                        "12 of B, run in A's graph launch 1 after the last kernel its trace records"));
        QCOMPARE(notCompared->top[0].kernels, (std::array<uint64_t, 2> { 91, 7 * 327 }));
        // Counting the unrecorded time, the H200 is slower in step time and the MI350 in kernel time,
        // in the verdict's main sentence as in its first (it said 21.7 ms, on A's recorded 15.0 ms).
        const std::string& verdict = report.timeGap.verdict;
        QVERIFY2(verdict.starts_with("A's trace holds only part of its GPU work: its graph launch 1 ran 9.3 ms past "),
            verdict.c_str());
        QVERIFY2(verdict.find("B (NVIDIA) is slower than A (AMD) by 12.4 ms (50.8%) in step time (36.7 ms vs 24.3 ms, "
                              "A's with 9.3 ms not recorded)")
                != std::string::npos,
            verdict.c_str());
        QVERIFY2(verdict.find("in GPU kernel time A is slower by 2.4 ms") != std::string::npos, verdict.c_str());
        QVERIFY2(verdict.find("15.0 ms") == std::string::npos, verdict.c_str());
        // The step table, the breakdowns and the raw trace (tests/golden/check_time_gap.py): A's one
        // step runs from its first launch (134.9 us) until hipStreamSynchronize returns (24,445.3 us),
        // 15,009.4 us to its last recorded kernel and 9,301.0 us more; its kernels take 14,980.2 us.
        const TimeGap& gap = report.timeGap;
        QVERIFY(gap.onStepTime && gap.stepTime);
        QVERIFY2(std::fabs(gap.stepTime->timeUs[0] - 24310.4) < 0.1, formatDuration(gap.stepTime->timeUs[0]).c_str());
        const StepTimeRow& row = report.stepTime.rows.back();
        QVERIFY(std::fabs(row.timeUs[0].median - gap.stepTime->timeUs[0]) < 1e-6);
        QVERIFY(std::fabs(row.notRecordedUs[0] - 9301.0) < 0.1);
        QVERIFY(std::fabs(row.busyUs[0] - 24281.2) < 0.1);
        QVERIFY(std::fabs(row.idleUs[0] - 29.1) < 0.1); // unchanged: the tail held no idle before either
        for (const TimeGapBreakdown* breakdown : { &*gap.stepTime, &gap.kernelTime, &*gap.wallTime }) {
            const TimeGapPart* part = partOf(*breakdown, GapCause::NotRecorded);
            QVERIFY2(part && std::fabs(part->timeUs[0] - 9301.0) < 0.1, timeBasisKey(breakdown->basis));
        }
        QVERIFY(std::fabs(gap.kernelTime.timeUs[0] - (14980.246 + 9301.0)) < 0.1);
        QVERIFY(std::fabs(gap.wallTime->timeUs[0] - 24282.8) < 0.1);
        checkPartsAddUp(report);
        const std::string summary = reportSummary(report);
        QVERIFY2(summary.find("whole trace: A 1 step of 24.3 ms (busy 24.3 ms, 9.3 ms of it not recorded)")
                != std::string::npos,
            summary.c_str());
        // The notes and the Markdown's trace table: the kernel time as the time gap counts it, and
        // the recorded kernel time said to be that.
        QVERIFY2(summary.find("GPU kernel time: A 24.3 ms (9.3 ms of it not recorded), B 21.8 ms (A spends 1.11x as "
                              "long)")
                != std::string::npos,
            summary.c_str());
        QVERIFY(reportToMarkdown(report).find("| Recorded kernel time | 15.0 ms (and 9.3 ms not recorded) | 21.8 ms |")
            != std::string::npos);
    }

    void aBlockRepeatedMoreTimesIsWorkNotFusion()
    {
        // Pi0's prefix graph in small: the same 10-kernel block (a vision tower on one image) runs
        // twice on A and three times on B, with the same kernels in each copy. Aligned kernel by
        // kernel, B's third copy was "extra kernels", i.e. fusion by A (issue 39).
        const std::string patchEmbed = "implicit_convolve_sgemm_patch_embed";
        const std::vector<std::string> block { patchEmbed, kNorm, kGemm, kAttention, kGemm, kAdd, kNorm, kGemm, kRelu,
            kGemm };
        const auto graph = [&](int copies) {
            std::vector<std::string> kernels { kNorm };
            for (int copy = 0; copy < copies; ++copy)
                kernels.insert(kernels.end(), block.begin(), block.end());
            kernels.push_back(kAdd);
            return kernels;
        };
        TraceWriter a, b;
        a.amd();
        b.nvidia();
        GraphWriter graphsA(a, true), graphsB(b, false);
        for (int i = 0; i < 3; ++i) {
            graphsA.launch(graph(2));
            graphsB.launch(graph(3));
        }
        const FusionReport report = compareWritten(a, b);
        QCOMPARE(report.opFindings.size(), size_t(1));
        const OpFinding& finding = report.opFindings[0];
        QVERIFY(finding.isGraph);
        QCOMPARE(finding.blockCopies, (std::array<uint32_t, 2> { 2, 3 }));
        QCOMPARE(finding.blockKernels, (std::array<uint32_t, 2> { 10, 10 }));
        QCOMPARE(finding.workPositions.size(), size_t(10));
        QCOMPARE(finding.slowerSide, Side::Trace2);
        QCOMPARE(finding.savingUs, 3 * 10 * 4.0); // 3 launches x 10 kernels x 4 us
        QCOMPARE(finding.savingWorkUs, finding.savingUs);
        QCOMPARE(finding.savingExtraKernelsUs, 0.0);
        QCOMPARE(finding.savingSpeedUs, 0.0);
        QCOMPARE(finding.launchDifference, int64_t(0)); // no fusion in the work both do
        QVERIFY2(
            finding.summary.find("NVIDIA runs a block of 10 kernels (") != std::string::npos, finding.summary.c_str());
        QVERIFY2(finding.summary.find(") 3 times where AMD runs its 10 kernels twice") != std::string::npos,
            finding.summary.c_str());
        QVERIFY2(finding.summary.find("the extra copy (10 kernels, 40.0 us) is a difference in the work")
                != std::string::npos,
            finding.summary.c_str());
        checkAlignment(finding.alignment, finding.kernels[0].size(), finding.kernels[1].size());
        for (const ExtraKernels& extra : report.extraKernels)
            QCOMPARE(extra.kernels, (std::array<uint64_t, 2> {}));
        // The time gap counts it as work on one side, not as extra kernels (fusion).
        const TimeGapPart* fusion = partOf(report.timeGap.kernelTime, GapCause::Fusion);
        QVERIFY(!fusion || fusion->deltaUs == 0);
        const TimeGapPart* work = partOf(report.timeGap.kernelTime, GapCause::OneSide);
        QVERIFY(work);
        QCOMPARE(work->deltaUs, -120.0);
        checkPartsAddUp(report);
        bool workEntry = false;
        for (const LookFirstEntry& entry : report.whereToLookFirst) {
            if (entry.kind == LookFirstKind::Fusion)
                QVERIFY2(entry.details.back().find("a difference in the work, neither fusion nor speed")
                        != std::string::npos,
                    entry.details.back().c_str());
            // The extra copies' own entry says what they are, not "work without a partner".
            if (entry.kind == LookFirstKind::OneSide) {
                workEntry = true;
                QVERIFY2(entry.title.find(": the extra copies of a block NVIDIA repeats more times (AMD 2 copies, "
                                          "NVIDIA 3; NVIDIA 30 kernels, 120 us)")
                        != std::string::npos,
                    entry.title.c_str());
            }
        }
        QVERIFY(workEntry);

        // The same number of copies on both sides: nothing is said of blocks.
        TraceWriter c, d;
        c.amd();
        d.nvidia();
        GraphWriter graphsC(c, true), graphsD(d, false);
        std::vector<std::string> fused = graph(3);
        fused.erase(fused.begin() + 9); // one ReLU fused away on C
        graphsC.launch(fused);
        graphsD.launch(graph(3));
        const FusionReport same = compareWritten(c, d);
        QCOMPARE(same.opFindings.size(), size_t(1));
        QCOMPARE(same.opFindings[0].savingWorkUs, 0.0);
        QVERIFY(same.opFindings[0].summary.find("runs a block of") == std::string::npos);
    }

    void pi0sDrillDownsSayWhatTheTracesHold()
    {
        // Issue 39 on Pi0 (MI350 against H200): the prefix graph runs the vision tower on 2 images
        // on the MI350 and 3 on the H200; the MI350 records its graph's kernels back to back; its
        // trace holds only part of its graph, which the reference analysis must say.
        const TraceStore mi350
            = loadTrace(test::dataPath("real/pi0_torchcompile_hipgraph.mi350.json.gz").toStdString());
        const TraceStore h200 = loadTrace(test::dataPath("real/pi0_torchcompile_cudagraph.h200.json.gz").toStdString());
        const FusionReport report = analyzeFusion(mi350, h200, {}, Classifier::builtin("default"), {});
        const auto prefix = std::find_if(report.opFindings.begin(), report.opFindings.end(),
            [](const OpFinding& finding) { return finding.kernels[1].size() == 1510; });
        QVERIFY(prefix != report.opFindings.end());
        QCOMPARE(prefix->blockCopies, (std::array<uint32_t, 2> { 2, 3 }));
        QCOMPARE(prefix->workPositions.size(), size_t(prefix->blockKernels[1]));
        QVERIFY(prefix->savingWorkUs > 0); // B runs the third image, and is the slower side here
        QVERIFY(
            std::fabs(prefix->savingExtraKernelsUs + prefix->savingSpeedUs + prefix->savingWorkUs - prefix->savingUs)
            < 1e-6);
        QVERIFY2(prefix->summary.find("3 times where AMD runs its") != std::string::npos, prefix->summary.c_str());
        checkPartsAddUp(report);

        // The verdict names real causes, not bookkeeping ("not compared +6.9 ms"), and not extra
        // kernels that the speed of the same operations takes back: the host's +5.4 ms is one.
        const std::string& verdict = report.timeGap.verdict;
        QVERIFY2(verdict.find("not compared +") == std::string::npos, verdict.c_str());
        QVERIFY2(verdict.find("the GPU waits while the host runs code +5.4 ms") != std::string::npos, verdict.c_str());

        const std::optional<SyntheticGraphTiming> synthetic = syntheticGraphTiming(mi350);
        QVERIFY(synthetic);
        QVERIFY(synthetic->gaps >= 1500);
        QVERIFY(synthetic->gapsUs < 5);
        QVERIFY(!syntheticGraphTiming(h200));
        QVERIFY(std::any_of(report.stepTime.notes.begin(), report.stepTime.notes.end(), [](const std::string& note) {
            return note.starts_with("A (AMD) records the kernels of its graph launches back to back");
        }));
        for (const LookFirstEntry& entry : report.whereToLookFirst) {
            if (entry.kind == LookFirstKind::Launch)
                QCOMPARE(entry.noise, NoiseVerdict::CannotTell);
        }

        QVERIFY2(referenceAnalysisCaveat(report).find("A's trace records only part of its graph launches (9.3 ms")
                != std::string::npos,
            referenceAnalysisCaveat(report).c_str());
        QVERIFY(reportSummary(report).find("Reference analysis (the seed's; of limited meaning for this pair")
            != std::string::npos);
    }

    void graphFindingsAreNamedByWhatTheyRunAndTheirLaunches()
    {
        // Pi0: the MI350's one graph covers the H200's graphs; several findings are parts of the same
        // two kinds, told apart by the launches they are about.
        const TraceStore mi350
            = loadTrace(test::dataPath("real/pi0_torchcompile_hipgraph.mi350.json.gz").toStdString());
        const TraceStore h200 = loadTrace(test::dataPath("real/pi0_torchcompile_cudagraph.h200.json.gz").toStdString());
        const FusionReport report = analyzeFusion(mi350, h200, {}, Classifier::builtin("default"), {});
        std::set<std::string> names;
        size_t graphFindings = 0;
        for (const OpFinding& finding : report.opFindings) {
            if (!finding.isGraph)
                continue;
            ++graphFindings;
            QVERIFY2(names.insert(finding.op).second, finding.op.c_str());
            QVERIFY2(finding.op.find(" kind ") != std::string::npos && finding.op.find("launch") != std::string::npos,
                finding.op.c_str());
            QVERIFY2(finding.op.find("GEMM") != std::string::npos, finding.op.c_str());
        }
        QVERIFY(graphFindings >= 2);
    }
};

QTEST_GUILESS_MAIN(TestGraphComparison)
#include "tst_graphcomparison.moc"
