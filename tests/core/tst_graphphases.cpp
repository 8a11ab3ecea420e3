// Graph kind pairs compared phase by phase: a graph launched in prefill and in decode steps can be
// slower in one and faster in the other, and graph_pairs, graph_kinds, the JSON, the Markdown and
// the notes say which phase each figure is for.

#include "classify/classifier.h"
#include "comparedpair.h"
#include "fusionanalysis.h"
#include "graphwriter.h"
#include "load/traceloader.h"
#include "report/reportnotes.h"
#include "report/reporttables.h"
#include "report/reportwriters.h"
#include "testdata.h"

#include <QTest>

#include <algorithm>

using namespace fusiondiff;
using namespace fusiondiff::test;

namespace {

// One step: a prefill step embeds the prompt first (so that its operations differ from a decode
// step's), then both launch the layer graph (norm, GEMM, add; kernels `dur` µs long) twice and sample.
void step(TraceWriter& writer, GraphWriter& graphs, int number, bool prefill, double dur)
{
    writer.beginStep("ProfilerStep#" + std::to_string(number));
    if (prefill)
        writer.launch("aten::embedding", { kAdd });
    for (int layer = 0; layer < 2; ++layer)
        graphs.launch({ kNorm, kGemm, kAdd }, dur);
    writer.launch("aten::argmax", { kRelu });
    writer.endStep();
}

// A warm-up step, one prefill step, then three decode steps. A's graph kernels take 5 µs in prefill
// against B's 3, and 2 µs in decode against B's 3: A's graph is slower in prefill and faster in decode.
FusionReport prefillAndDecodeGraphs()
{
    TraceWriter a, b;
    a.amd();
    b.nvidia();
    for (TraceWriter* writer : { &a, &b }) {
        const bool isA = writer == &a;
        GraphWriter graphs(*writer, isA);
        graphs.followWriterHost();
        step(*writer, graphs, 0, false, 3);
        step(*writer, graphs, 1, true, isA ? 5 : 3);
        for (int number = 2; number < 5; ++number)
            step(*writer, graphs, number, false, isA ? 2 : 3);
    }
    return compareWritten(a, b);
}

std::string csvTable(const FusionReport& report, const std::string& name)
{
    for (const CsvTable& table : reportToCsv(report)) {
        if (table.name == name)
            return table.text;
    }
    return {};
}

} // namespace

class TestGraphPhases : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void aGraphGoesOppositeWaysInPrefillAndDecode()
    {
        const FusionReport report = prefillAndDecodeGraphs();
        QCOMPARE(report.stepTime.phases, (std::vector<std::string> { "phase 1", "phase 2" }));
        const GraphComparison& graphs = report.graphComparison;
        QCOMPARE(graphs.launches, (std::array<uint64_t, 2> { 10, 10 }));
        QCOMPARE(graphs.pairs.size(), size_t(1));
        // Over every launch (the i-th with the i-th, the warm-up's too) the phases mix.
        QCOMPARE(graphs.pairs[0].comparedLaunches, uint64_t(10));

        QCOMPARE(graphs.pairPhases.size(), size_t(2));
        const GraphPairPhase& prefill = graphs.pairPhases[0];
        QCOMPARE(prefill.phase, std::string("phase 1"));
        QCOMPARE(prefill.launches, (std::array<uint64_t, 2> { 2, 2 }));
        QCOMPARE(prefill.comparedLaunches, uint64_t(2));
        QCOMPARE(prefill.timeUs[0].median, 15.0); // 3 kernels of 5 µs
        QCOMPARE(prefill.timeUs[1].median, 9.0);
        const GraphPairPhase& decode = graphs.pairPhases[1];
        QCOMPARE(decode.phase, std::string("phase 2"));
        QCOMPARE(decode.launches, (std::array<uint64_t, 2> { 6, 6 }));
        QCOMPARE(decode.timeUs[0].median, 6.0);
        QCOMPARE(decode.timeUs[1].median, 9.0);
        QCOMPARE(decode.timeUs[0].total, 36.0);
        // The warm-up step's two launches are in no compared phase.
        QCOMPARE(graphs.kinds[0][0].phases, std::string("phase 1: 2, phase 2: 6, not compared: 2"));
        QCOMPARE(graphs.kinds[1][0].phases, std::string("phase 1: 2, phase 2: 6, not compared: 2"));

        const std::string pairsCsv = csvTable(report, "graph_pairs");
        QVERIFY2(pairsCsv.find(",finding,phase\r\n") != std::string::npos, pairsCsv.c_str());
        QVERIFY2(pairsCsv.find(",2,") != std::string::npos && pairsCsv.find(",phase 1\r\n") != std::string::npos
                && pairsCsv.find(",phase 2\r\n") != std::string::npos,
            pairsCsv.c_str());
        QVERIFY(
            csvTable(report, "graph_kinds").find("\"phase 1: 2, phase 2: 6, not compared: 2\"") != std::string::npos);
        const std::string json = reportToJson(report);
        QVERIFY(json.find(R"("phases": "phase 1: 2, phase 2: 6, not compared: 2")") != std::string::npos);
        QVERIFY(json.find(R"("phase": "phase 2")") != std::string::npos);
        QVERIFY(reportToMarkdown(report).find("| Phase | A kind | B kind |") != std::string::npos);

        const std::vector<std::string> notes = reportNotes(report);
        const auto noteOf = [&notes](const std::string& start) {
            const auto it = std::find_if(
                notes.begin(), notes.end(), [&start](const std::string& note) { return note.starts_with(start); });
            return it == notes.end() ? std::string() : *it;
        };
        QCOMPARE(noteOf("Graph kind pairs in phase 1"),
            std::string("Graph kind pairs in phase 1: 1 pair with launches compared; B's launches take longer in 0, "
                        "A's in 1; over the compared launches A +12.0 us."));
        QCOMPARE(noteOf("Graph kind pairs in phase 2"),
            std::string("Graph kind pairs in phase 2: 1 pair with launches compared; B's launches take longer in 1, "
                        "A's in 0; over the compared launches B +18.0 us."));
    }

    void realGraphsAreCountedInTheStepsTheStepTimeCompares()
    {
        // HTA's V100 training trace against itself: two CUDA graphs a step, six steps (a warm-up, two
        // steps of phase 1, three of phase 2).
        const TraceStore v100 = loadTrace(test::dataPath("real/hta_trace_diff_test.v100.json.gz").toStdString());
        const FusionReport report = analyzeFusion(v100, v100, {}, Classifier::builtin("default"), {});
        QCOMPARE(report.stepTime.phases, (std::vector<std::string> { "phase 1", "phase 2" }));
        const GraphComparison& graphs = report.graphComparison;
        QCOMPARE(graphs.pairs.size(), size_t(2));
        QCOMPARE(graphs.pairPhases.size(), size_t(4));
        for (const GraphKind& kind : graphs.kinds[0])
            QCOMPARE(kind.phases, std::string("phase 1: 2, phase 2: 3, not compared: 1"));
        for (size_t row = 0; row < graphs.pairPhases.size(); ++row) {
            const GraphPairPhase& phase = graphs.pairPhases[row];
            QCOMPARE(phase.pair, uint32_t(row / 2));
            QCOMPARE(phase.phase, std::string(row % 2 == 0 ? "phase 1" : "phase 2"));
            QCOMPARE(phase.comparedLaunches, uint64_t(row % 2 == 0 ? 2 : 3));
            // The same launches on both sides.
            QCOMPARE(phase.timeUs[0].total, phase.timeUs[1].total);
            QVERIFY(phase.timeUs[0].total > 0);
            QVERIFY(phase.timeUs[0].total < graphs.pairs[phase.pair].timeUs[0].total);
        }
    }

    void withoutStepsAPairIsOneWholeTraceRow()
    {
        TraceWriter a, b;
        a.amd();
        b.nvidia();
        for (TraceWriter* writer : { &a, &b }) {
            GraphWriter graphs(*writer, writer == &a);
            for (int launch = 0; launch < 3; ++launch)
                graphs.launch({ kNorm, kGemm, kAdd }, writer == &a ? 2 : 3);
        }
        const FusionReport report = compareWritten(a, b);
        const GraphComparison& graphs = report.graphComparison;
        QCOMPARE(graphs.pairs.size(), size_t(1));
        QCOMPARE(graphs.pairPhases.size(), size_t(1));
        QCOMPARE(graphs.pairPhases[0].phase, std::string("whole trace"));
        QCOMPARE(graphs.pairPhases[0].comparedLaunches, graphs.pairs[0].comparedLaunches);
        QCOMPARE(graphs.pairPhases[0].timeUs[0].median, graphs.pairs[0].timeUs[0].median);
        QCOMPARE(graphs.kinds[0][0].phases, std::string());
        const std::vector<std::string> notes = reportNotes(report);
        QVERIFY(std::none_of(notes.begin(), notes.end(),
            [](const std::string& note) { return note.starts_with("Graph kind pairs in "); }));
        QVERIFY(reportToMarkdown(report).find("| Phase | A kind") == std::string::npos);
        QVERIFY(reportToMarkdown(report).find("| A kind | B kind |") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestGraphPhases)
#include "tst_graphphases.moc"
