// Graphs against operations: a graph finding named after the operation that launched the graph,
// graph kinds matched with nothing compared with their operations, and a launch that the
// alignment of the launch sequences slipped into taken as its partner's, not as a cover.

#include "comparedpair.h"
#include "fusionanalysis.h"
#include "graphwriter.h"

#include <QTest>

#include <algorithm>
#include <string>

using namespace fusiondiff;
using namespace fusiondiff::test;

class TestGraphOperations : public QObject
{
    Q_OBJECT

private slots:
    void graphFindingsNameTheOperationThatLaunchesThem()
    {
        // torch.compile's backward replays a CUDA graph from inside the autograd node; B is another
        // stack's build of the same step, which names the node differently.
        TraceWriter a, b;
        a.amd();
        b.nvidia();
        GraphWriter graphsA(a, true), graphsB(b, false);
        const auto underOperation
            = [](TraceWriter& writer, const std::string& outer, const std::string& inner, double ts) {
                  writer.rawEvent(R"({"ph": "X", "cat": "cpu_op", "name": ")" + outer
                      + R"(", "pid": 1, "tid": 1, "ts": )" + std::to_string(ts - 2) + R"(, "dur": 9})");
                  writer.rawEvent(R"({"ph": "X", "cat": "cpu_op", "name": ")" + inner
                      + R"(", "pid": 1, "tid": 1, "ts": )" + std::to_string(ts - 1) + R"(, "dur": 7})");
              };
        for (int i = 0; i < 4; ++i) {
            // GraphWriter's launch calls are at 100, 110, ... on thread 1.
            underOperation(a, "autograd::engine::evaluate_function: CompiledFunctionBackward",
                "CompiledFunctionBackward", 100 + 10 * i);
            underOperation(b, "autograd::engine::evaluate_function: compiled_function_backward",
                "compiled_function_backward", 100 + 10 * i);
            graphsA.launch({ kNorm, kGemm, kRelu, kAdd });
            graphsB.launch({ kNorm, kGemmRelu, kAdd });
        }
        // The first launch of a graph of its own on B has no operation around it.
        graphsB.launch({ kGemm, kGemm, kNorm });
        graphsA.launch({ kGemm, kNorm });

        const FusionReport report = compareWritten(a, b);
        QCOMPARE(report.opFindings.size(), size_t(2));
        const OpFinding& backward = report.opFindings[0];
        QVERIFY(backward.isGraph);
        QCOMPARE(backward.op.substr(0, 6), std::string("graph "));
        QCOMPARE(backward.sideOps[0], std::string("autograd::engine::evaluate_function: CompiledFunctionBackward"));
        QCOMPARE(backward.sideOps[1], std::string("autograd::engine::evaluate_function: compiled_function_backward"));
        QVERIFY2(backward.summary.ends_with(
                     "; launched by AMD's autograd::engine::evaluate_function: CompiledFunctionBackward and NVIDIA's "
                     "autograd::engine::evaluate_function: compiled_function_backward"),
            backward.summary.c_str());
        // The operator level names the innermost operator.
        AnalysisOptions launching;
        launching.opLevel = OpLevel::LaunchingOperator;
        const FusionReport byLauncher = compareWritten(a, b, launching);
        QCOMPARE(byLauncher.opFindings[0].sideOps[0], std::string("CompiledFunctionBackward"));
        QCOMPARE(byLauncher.opFindings[0].sideOps[1], std::string("compiled_function_backward"));
        // Without an operation around the launch, a graph finding keeps the graph kinds' name.
        const OpFinding& bare = report.opFindings[1];
        QVERIFY(bare.isGraph);
        QCOMPARE(bare.sideOps[0], bare.op);
        QCOMPARE(bare.sideOps[1], bare.op);
        QVERIFY(bare.summary.find("launched by") == std::string::npos);
    }

    void graphKindsMatchedWithNothingAreComparedWithTheirOperations()
    {
        // In each call of my::backward, one eager kernel and one graph on both sides; B launches
        // one more kernel as a graph of its own, a kind A has no counterpart of.
        TraceWriter a, b;
        a.amd();
        b.nvidia();
        GraphWriter graphsA(a, true), graphsB(b, false);
        graphsA.followWriterHost();
        graphsB.followWriterHost();
        for (int i = 0; i < 5; ++i) {
            for (TraceWriter* writer : { &a, &b }) {
                const double begin = writer->cpuTs();
                writer->launch("aten::mul", { kAdd });
                GraphWriter& graphs = writer == &a ? graphsA : graphsB;
                graphs.launch({ kNorm, kGemm });
                if (writer == &b)
                    graphs.launch({ "my_split_tail_kernel" });
                writer->rawEvent(R"({"ph": "X", "cat": "cpu_op", "name": "my::backward", "pid": 1, "tid": 1, "ts": )"
                    + std::to_string(begin - 0.5) + R"(, "dur": )" + std::to_string(writer->cpuTs() - begin + 1) + "}");
                writer->host(20);
            }
        }
        const FusionReport report = compareWritten(a, b);
        const GraphComparison& graphs = report.graphComparison;
        QCOMPARE(graphs.pairs.size(), size_t(1));
        QVERIFY(std::any_of(graphs.notes.begin(), graphs.notes.end(), [](const std::string& note) {
            return note.starts_with("B: 1 of 2 graph kinds match no kind")
                && note.ends_with("their kernels are compared with the operations that launched them.");
        }));
        QCOMPARE(report.opFindings.size(), size_t(1));
        const OpFinding& finding = report.opFindings[0];
        QVERIFY(!finding.isGraph);
        QCOMPARE(finding.op, std::string("my::backward"));
        QCOMPARE(finding.fusedSide, Side::Trace1);
        QCOMPARE(finding.occurrences, uint64_t(5));
        QCOMPARE(finding.kernels[0].size(), size_t(1));
        QCOMPARE(finding.kernels[1].size(), size_t(2));
    }

    void aLaunchNoLongerThanOneOfItsPartsCoversNothing()
    {
        // B runs A's two-kernel graph as two graphs, and one more kernel (a split launched as a
        // graph of its own) first, as long as no kernel of A. By duration, the alignment pairs A's
        // first kernel with B's second and A's second with B's next graph; but a two-kernel graph
        // cannot do the work of two graphs, one of which is as long as it: it is the first one's
        // partner, with one kernel fewer.
        TraceWriter a, b;
        a.amd();
        b.nvidia();
        GraphWriter graphsA(a, true), graphsB(b, false);
        for (int i = 0; i < 5; ++i) {
            graphsA.launch({ kNorm });
            graphsA.launchTimed({ { kAdd, 2 }, { kAdd, 8 } });
            graphsA.launch({ kGemm });
            graphsB.launch({ kNorm });
            graphsB.launchTimed({ { kAdd, 30 }, { kAdd, 2 } });
            graphsB.launchTimed({ { kAdd, 8 } });
            graphsB.launch({ kGemm });
        }
        const FusionReport report = compareWritten(a, b);
        const GraphComparison& graphs = report.graphComparison;
        QVERIFY(graphs.coverage.empty());
        QVERIFY(std::none_of(report.opFindings.begin(), report.opFindings.end(),
            [](const OpFinding& finding) { return finding.op.find(" within ") != std::string::npos; }));
        // A's two-kernel kind pairs with B's; B's one-kernel graph has no counterpart.
        const auto pairsTwoKernelKinds
            = std::any_of(graphs.pairs.begin(), graphs.pairs.end(), [&](const GraphKindPair& pair) {
                  return graphs.kinds[0][pair.kind[0]].kernels == 2 && graphs.kinds[1][pair.kind[1]].kernels == 2;
              });
        QVERIFY(pairsTwoKernelKinds);
        QCOMPARE(graphs.pairs.size(), size_t(3));
    }
};

QTEST_GUILESS_MAIN(TestGraphOperations)
#include "tst_graphoperations.moc"
