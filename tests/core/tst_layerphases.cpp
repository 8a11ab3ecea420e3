// Layers (or torch.compile graph pieces) compared phase by phase: a prefill step's pieces and a
// decode step's are different work, and each row and each verdict says which phase it is for.

#include "classify/kerneltypes.h"
#include "comparedpair.h"
#include "fusionanalysis.h"
#include "ops/attribution/opattribution.h"
#include "ops/comparison/layertimes.h"
#include "report/layerphases.h"
#include "report/reportnotes.h"
#include "report/reporttables.h"
#include "report/reportwriters.h"
#include "util/phaseorder.h"

#include <QTest>

#include <algorithm>

using namespace fusiondiff;
using namespace fusiondiff::test;

namespace {

const std::string kPiece = "vllm/compilation/cuda_piecewise_backend.py(120): __call__";

// One step of three graph pieces (norm, GEMM, add each), their kernels `dur` µs long; a prefill step
// also embeds the prompt first, so that its operations differ from a decode step's.
void step(TraceWriter& writer, int number, bool prefill, double dur)
{
    writer.beginStep("ProfilerStep#" + std::to_string(number));
    if (prefill)
        writer.launch("aten::embedding", { kAdd });
    for (int piece = 0; piece < 3; ++piece) {
        writer.beginCall(kPiece);
        writer.launch("aten::layer_norm", { kNorm }, {}, dur);
        writer.launch("aten::linear", { kGemm }, {}, dur);
        writer.launch("aten::add", { kAdd }, {}, dur);
        writer.endCall();
    }
    writer.endStep();
}

// As step(), 1 µs kernels, where A's aten::add of piece `extraPiece` (-1: none) runs a second kernel.
void stepWithExtraAdd(TraceWriter& writer, int number, bool prefill, int extraPiece)
{
    writer.beginStep("ProfilerStep#" + std::to_string(number));
    if (prefill)
        writer.launch("aten::embedding", { kAdd });
    for (int piece = 0; piece < 3; ++piece) {
        writer.beginCall(kPiece);
        writer.launch("aten::layer_norm", { kNorm }, {}, 1);
        writer.launch("aten::linear", { kGemm }, {}, 1);
        if (piece == extraPiece)
            writer.launch("aten::add", { kAdd, kAdd }, {}, 1);
        else
            writer.launch("aten::add", { kAdd }, {}, 1);
        writer.endCall();
    }
    writer.endStep();
}

// As stepWithExtraAdd(), with an operation of its own first (`kind`), so that each kind is a phase.
void stepOfKind(TraceWriter& writer, int number, int kind, int extraPiece)
{
    writer.beginStep("ProfilerStep#" + std::to_string(number));
    writer.launch("aten::kind_" + std::to_string(kind), { kNorm }, {}, 1);
    for (int piece = 0; piece < 3; ++piece) {
        writer.beginCall(kPiece);
        writer.launch("aten::layer_norm", { kNorm }, {}, 1);
        writer.launch("aten::linear", { kGemm }, {}, 1);
        writer.launch("aten::add",
            piece == extraPiece ? std::vector<std::string> { kAdd, kAdd } : std::vector<std::string> { kAdd }, {}, 1);
        writer.endCall();
    }
    writer.endStep();
}

bool hasNote(const std::vector<std::string>& notes, const std::string& start)
{
    return std::any_of(
        notes.begin(), notes.end(), [&start](const std::string& note) { return note.starts_with(start); });
}

} // namespace

class TestLayerPhases : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void prefillAndDecodePiecesAreComparedApart()
    {
        // A warm-up step, one prefill step, then three decode steps. A's pieces take 5 µs a kernel in
        // prefill against B's 3, and 2 µs in decode against B's 3: A is slower in prefill only.
        TraceWriter a, b;
        a.amd();
        b.nvidia();
        for (TraceWriter* writer : { &a, &b }) {
            const bool isA = writer == &a;
            step(*writer, 0, false, 3);
            step(*writer, 1, true, isA ? 5 : 3);
            for (int number = 2; number < 5; ++number)
                step(*writer, number, false, isA ? 2 : 3);
        }
        const FusionReport report = compareWritten(a, b);
        QVERIFY(report.opAlignment.layers.graphPieces);
        QCOMPARE(report.stepTime.phases, (std::vector<std::string> { "phase 1", "phase 2" }));
        QCOMPARE(report.layerTimes.size(), size_t(6));
        for (size_t row = 0; row < report.layerTimes.size(); ++row) {
            const LayerTimes& layer = report.layerTimes[row];
            const bool prefill = row < 3;
            QCOMPARE(layer.phase, std::string(prefill ? "phase 1" : "phase 2"));
            QCOMPARE(layer.index, uint32_t(row % 3));
            const uint64_t calls = prefill ? 1 : 3;
            QCOMPARE(layer.calls, (std::array<uint64_t, 2> { calls, calls }));
            QCOMPARE(layer.kernels, (std::array<uint64_t, 2> { 3 * calls, 3 * calls }));
            QCOMPARE(layer.timeUs[0], double(3 * calls) * (prefill ? 5.0 : 2.0));
            QCOMPARE(layer.timeUs[1], double(3 * calls) * 3.0);
        }

        const std::vector<LayerPhaseSummary> phases = layerPhaseSummaries(report.layerTimes);
        QCOMPARE(phases.size(), size_t(2));
        QCOMPARE(phases[0].phase, std::string("phase 1"));
        QCOMPARE(phases[0].longer, (std::array<size_t, 2> { 3, 0 })); // A slower in all 3 prefill pieces
        QCOMPARE(phases[0].differenceUs, -18.0);
        QCOMPARE(phases[1].phase, std::string("phase 2"));
        QCOMPARE(phases[1].firstRow, size_t(3));
        QCOMPARE(phases[1].longer, (std::array<size_t, 2> { 0, 3 })); // and faster in all 3 decode pieces
        QCOMPARE(phases[1].differenceUs, 27.0);

        const std::vector<std::string> notes = reportNotes(report);
        QVERIFY(hasNote(notes, "By graph piece in phase 1 (3 a step, ") && hasNote(notes, "By graph piece in phase 2"));
        QVERIFY(std::any_of(notes.begin(), notes.end(), [](const std::string& note) {
            return note.starts_with("By graph piece in phase 2")
                && note.find("B takes longer in 3, A in 0; over all graph pieces B +27") != std::string::npos;
        }));
        QVERIFY(!hasNote(notes, "By graph piece ("));

        std::string csv;
        for (const CsvTable& table : reportToCsv(report)) {
            if (table.name == "layer_times")
                csv = table.text;
        }
        QVERIFY2(csv.starts_with("layer,trace1_calls,trace2_calls,trace1_kernels,trace2_kernels,trace1_time_us,"
                                 "trace2_time_us,delta_time_us,phase\r\n0,1,1,3,3,15,9,-6,phase 1\r\n"),
            csv.c_str());
        QVERIFY(csv.find("\r\n0,3,3,9,9,18,27,9,phase 2\r\n") != std::string::npos);
        QVERIFY(reportToJson(report).find(R"("phase": "phase 2")") != std::string::npos);
        const std::string markdown = reportToMarkdown(report);
        QVERIFY(markdown.find("### phase 1") != std::string::npos);
        QVERIFY(markdown.find("### phase 2") != std::string::npos);
    }

    void findingsKnowThePhaseOfTheirLayers()
    {
        // A's add runs a second kernel in piece 0 of the prefill step and in piece 2 of each decode
        // step: one finding, in layer 0 of phase 1 and layer 2 of phase 2, not in layer 2 of phase 1
        // nor in layer 0 of phase 2 (the layers page lists a finding under the layers it names).
        TraceWriter a, b;
        a.amd();
        b.nvidia();
        for (TraceWriter* writer : { &a, &b }) {
            const bool isA = writer == &a;
            stepWithExtraAdd(*writer, 0, false, -1);
            stepWithExtraAdd(*writer, 1, true, isA ? 0 : -1);
            for (int number = 2; number < 5; ++number)
                stepWithExtraAdd(*writer, number, false, isA ? 2 : -1);
        }
        const FusionReport report = compareWritten(a, b);
        QCOMPARE(report.stepTime.phases, (std::vector<std::string> { "phase 1", "phase 2" }));
        const auto add = std::find_if(report.opFindings.begin(), report.opFindings.end(),
            [](const OpFinding& finding) { return finding.op == "aten::add"; });
        QVERIFY(add != report.opFindings.end());
        QCOMPARE(add->occurrences, uint64_t(4));
        QCOMPARE(add->layerIndices, (std::vector<uint32_t> { 0, 2 }));
        using PhaseLayers = std::vector<std::pair<std::string, uint32_t>>;
        QCOMPARE(add->phaseLayers, (PhaseLayers { { "phase 1", 0 }, { "phase 2", 2 } }));
        QCOMPARE(add->layers, std::string("phase 1: 0; phase 2: 2"));
        // Every (phase, layer) a finding names is a row of the layer_times table.
        for (const std::pair<std::string, uint32_t>& layer : add->phaseLayers) {
            QVERIFY(std::any_of(report.layerTimes.begin(), report.layerTimes.end(),
                [&](const LayerTimes& row) { return row.phase == layer.first && row.index == layer.second; }));
        }
    }

    void aFindingInOnePhaseKeepsItsPlainLayers()
    {
        TraceWriter a, b;
        a.amd();
        b.nvidia();
        for (TraceWriter* writer : { &a, &b }) {
            for (int number = 0; number < 3; ++number)
                stepWithExtraAdd(*writer, number, false, writer == &a ? 1 : -1);
        }
        const FusionReport report = compareWritten(a, b);
        QCOMPARE(report.opFindings.size(), size_t(1));
        QCOMPARE(report.opFindings[0].layers, std::string("1"));
        using PhaseLayers = std::vector<std::pair<std::string, uint32_t>>;
        QCOMPARE(report.opFindings[0].phaseLayers, (PhaseLayers { { "phase 1", 1 } }));
    }

    void aPhaseWithoutPiecesIsNamed()
    {
        // Prefill runs its pieces; decode steps run the same operators outside any piece (as a decode
        // step that replays graphs): the note is of phase 1 only and says so.
        TraceWriter a, b;
        a.amd();
        b.nvidia();
        for (TraceWriter* writer : { &a, &b }) {
            const bool isA = writer == &a;
            step(*writer, 0, false, 3);
            step(*writer, 1, true, isA ? 5 : 3);
            for (int number = 2; number < 5; ++number) {
                writer->beginStep("ProfilerStep#" + std::to_string(number));
                writer->launch("aten::linear", { kGemm }, {}, 2);
                writer->endStep();
            }
        }
        const FusionReport report = compareWritten(a, b);
        QCOMPARE(report.stepTime.phases, (std::vector<std::string> { "phase 1", "phase 2" }));
        QVERIFY(!report.layerTimes.empty());
        for (const LayerTimes& layer : report.layerTimes)
            QCOMPARE(layer.phase, std::string("phase 1"));
        const std::vector<std::string> notes = reportNotes(report);
        const auto note = std::find_if(notes.begin(), notes.end(),
            [](const std::string& text) { return text.starts_with("By graph piece in phase 1 (3 a step, "); });
        QVERIFY(note != notes.end());
        QVERIFY2(note->ends_with(". Phase 2 has no graph pieces."), note->c_str());
    }

    // An occurrence in a layer but outside every compared phase (trace 1's second phase has no
    // partner): its row is "not compared", after the compared phases. Before, it was named
    // "phase 1" and made a second (phase 1, layer 0) row beside the real phase 1's.
    void layersOutsideEveryComparedPhaseAreNamedSo()
    {
        TraceStore store;
        store.kernels.resize(2);
        store.kernels[0].dur = 3;
        store.kernels[1].dur = 5;
        const KernelTypes types;
        const KernelAttribution attribution;
        std::array<PreparedSide, 2> sides { PreparedSide { store, types, attribution, {}, {}, {} },
            PreparedSide { store, types, attribution, {}, {}, {} } };
        for (PreparedSide& side : sides) {
            side.occurrences = { OpOccurrence { .frame = 0, .symbol = 0, .ts = 0, .kernels = { 0 }, .step = 0 },
                OpOccurrence { .frame = 1, .symbol = 1, .ts = 10, .kernels = { 1 }, .step = 1 } };
            side.iterations.steps = { HostStep { 0, 5, 0 }, HostStep { 10, 15, 1 } };
            side.layerOf = { 0, 0 };
        }
        sides[0].iterations.phases = { { 0 }, { 1 } };
        sides[1].iterations.phases = { { 0 } };
        const std::vector<LayerTimes> rows = layerTimesByPhase(sides, { 0, -1 });
        QCOMPARE(rows.size(), size_t(2));
        QCOMPARE(rows[0].phase, std::string("phase 1"));
        QCOMPARE(rows[0].timeUs, (std::array<double, 2> { 3, 3 }));
        QCOMPARE(rows[1].phase, std::string("not compared"));
        QCOMPARE(rows[1].index, uint32_t(0));
        QCOMPARE(rows[1].timeUs, (std::array<double, 2> { 5, 5 }));
        QCOMPARE(comparedPhaseName({ &sides[0].iterations, &sides[1].iterations }, -1), std::string("not compared"));
    }

    // Eleven kinds of step, each a phase of its own: a finding in piece 0 of phase 2 and of phase
    // 10 names phase 2 first, the layer_times rows come phase 2 before phase 10, and the app sorts
    // the phase column by number. Before, the finding said "phase 10: 0; phase 2: 0".
    void phasesAreListedByNumber()
    {
        TraceWriter a, b;
        a.amd();
        b.nvidia();
        for (TraceWriter* writer : { &a, &b }) {
            stepOfKind(*writer, 0, 0, -1); // the warm-up
            for (int kind = 0; kind < 11; ++kind)
                stepOfKind(*writer, kind + 1, kind, writer == &a && (kind == 1 || kind == 9) ? 0 : -1);
        }
        const FusionReport report = compareWritten(a, b);
        QCOMPARE(report.stepTime.phases.size(), size_t(11));
        const auto add = std::find_if(report.opFindings.begin(), report.opFindings.end(),
            [](const OpFinding& finding) { return finding.op == "aten::add"; });
        QVERIFY(add != report.opFindings.end());
        QCOMPARE(add->layers, std::string("phase 2: 0; phase 10: 0"));
        std::vector<int64_t> order;
        for (const LayerTimes& layer : report.layerTimes)
            order.push_back(phaseOrder(layer.phase));
        QVERIFY(std::is_sorted(order.begin(), order.end()));
        const ReportTable table = reportTable(ReportTableId::LayerTimes, report);
        const TableColumn& phase = table.columns[size_t(table.columnIndex("phase"))];
        QVERIFY(phase.sortKey);
        size_t phase2 = 0;
        size_t phase10 = 0;
        for (size_t row = 0; row < table.rows; ++row) {
            phase2 = report.layerTimes[row].phase == "phase 2" ? row : phase2;
            phase10 = report.layerTimes[row].phase == "phase 10" ? row : phase10;
        }
        QVERIFY(std::get<int64_t>(phase.sortKey(phase2)) < std::get<int64_t>(phase.sortKey(phase10)));
        QCOMPARE(phaseOrder("phase 10"), int64_t(10));
        QVERIFY(phaseOrder("whole trace") < phaseOrder("phase 1"));
        QVERIFY(phaseOrder("phase 12") < phaseOrder("not compared"));
    }

    void onePhaseIsNotNamedInTheNote()
    {
        TraceWriter a, b;
        a.amd();
        b.nvidia();
        for (TraceWriter* writer : { &a, &b }) {
            for (int number = 0; number < 3; ++number)
                step(*writer, number, false, writer == &a ? 2 : 3);
        }
        const FusionReport report = compareWritten(a, b);
        QCOMPARE(report.layerTimes.size(), size_t(3));
        for (const LayerTimes& layer : report.layerTimes)
            QCOMPARE(layer.phase, std::string("phase 1"));
        QVERIFY(hasNote(reportNotes(report), "By graph piece (3 a step, "));
        QVERIFY(reportToMarkdown(report).find("### phase") == std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestLayerPhases)
#include "tst_layerphases.moc"
