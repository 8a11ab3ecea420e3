// The comparison held to known answers on cross-stack pairs (tests/support/crossstack.h): B is a
// real training trace as another software stack records it (every operator, node, module and kernel
// renamed, independent operators reordered) with splits and merges in the backward pass, the
// optimizer, communication and the forward pass. Every pair must be called the same work, find at
// least 95% of its changes (a communication change named by an entry with its time) and have at
// most 5% of its findings spurious.
#include "classify/classifier.h"
#include "comparedpair.h"
#include "crossstack.h"
#include "fusionanalysis.h"
#include "load/traceloader.h"
#include "model/fusionreport.h"
#include "testdata.h"

#include <QtTest>

#include <algorithm>
#include <string>

using namespace fusiondiff;
using namespace fusiondiff::test;

namespace {

FusionReport compareCrossStack(const CrossStackPair& pair, const Classifier& classifier)
{
    const TraceStore a
        = loadTraceFromMemory(std::string_view(pair.traceA.constData(), size_t(pair.traceA.size())), "A.json");
    const TraceStore b
        = loadTraceFromMemory(std::string_view(pair.traceB.constData(), size_t(pair.traceB.size())), "B.json");
    return analyzeFusion(a, b, classifier, AnalysisOptions {});
}

} // namespace

class TestCrossStackPairs : public QObject
{
    Q_OBJECT

private slots:
    void changesAreFoundOnRenamedTrainingSteps_data()
    {
        QTest::addColumn<QString>("trace");
        QTest::addColumn<quint64>("seed");
        // MI250 (ROCm names to CUDA's): ReluBackward0 and AddmmBackward0; the 2021-schema ResNet-50
        // (nodes recorded without the engine's wrapper). The A100 DDP step with an all-reduce in
        // AccumulateGrad is aCommunicationSplitIsNamedWithItsTime's.
        for (const quint64 seed : seedsToRun({ 1, 2, 3 }))
            QTest::addRow("minitoy seed %llu", seed)
                << QStringLiteral("real/minitoy_train_rocm6.2.mi250.json.gz") << seed;
        // Under the sanitizers (fewerCases) the minitoy pair checks memory safety; the 2021 schema's
        // accuracy is the test build's.
        if (!fewerCases())
            QTest::addRow("resnet50 2021 seed 1")
                << QStringLiteral("real/resnet50_2021_schema.worker0.pt.trace.json.gz") << quint64(1);
    }

    void changesAreFoundOnRenamedTrainingSteps()
    {
        QFETCH(QString, trace);
        QFETCH(quint64, seed);
        const Classifier classifier = Classifier::builtin("default");
        CrossStackRecipe recipe;
        recipe.seed = seed;
        const CrossStackPair pair = constructCrossStackPair(readTraceBytes(dataPath(trace)), classifier, recipe);
        QVERIFY(pair.renamedOperators > 0 && pair.renamedKernels > 0);
        const FusionReport report = compareCrossStack(pair, classifier);
        const PairScore score = scoreCrossStackPair(report, pair.changes);
        for (const std::string& missed : score.missed)
            qWarning("missed: %s", missed.c_str());
        for (const std::string& spurious : score.spuriousFindings)
            qWarning("spurious: %s", spurious.c_str());
        QVERIFY(score.comparable);
        QVERIFY(score.injected >= 4);
        QVERIFY2(meetsTheBar(score), score.regions.c_str());
    }

    // The same by hand: B (every operator renamed) runs its `add_` as three kernels in all eight
    // updates and `addcmul_` after `sqrt` in two. The alignment pairs one of the two swapped
    // operators by name; the other is left, on A beside `add_`, on B one pair away. The first
    // kernels of A's `sqrt` and B's split `add_` are both elementwise, but each pairs with another
    // operation everywhere else: no finding of `sqrt` against `add_`, and the split in all eight.
    void aSwapLeavesNoUnrelatedOperationsPaired()
    {
        const std::string kSqrt = "void at::native::vectorized_elementwise_kernel<4, at::native::sqrt_kernel_cuda>";
        const std::string kMul = "void at::native::vectorized_elementwise_kernel<4, at::native::MulFunctor<float>>";
        const std::string kNvGemm = "nvjet_tst_128x64_64x4_2x1_v_bz_TNT";
        TraceWriter a, b;
        a.amd();
        b.nvidia();
        for (int update = 0; update < 8; ++update) {
            a.launch("aten::mm", { kGemm }).launch("aten::addcmul_", { kMul }).launch("aten::sqrt", { kSqrt });
            a.launch("aten::add_", { kAdd }).launch("aten::addcdiv_", { kMul });
            b.launch("vendor::matmul", { kNvGemm });
            if (update % 4 == 1)
                b.launch("vendor::sqrt_impl", { kSqrt }).launch("vendor::addcmul_impl", { kMul });
            else
                b.launch("vendor::addcmul_impl", { kMul }).launch("vendor::sqrt_impl", { kSqrt });
            b.launch("vendor::add_inplace", { kAdd, kAdd, kAdd }).launch("vendor::addcdiv_impl", { kMul });
        }
        const FusionReport report = compareWritten(a, b);
        QVERIFY(report.opAlignment.comparable);
        for (const OpFinding& finding : report.opFindings)
            QVERIFY2(finding.sideOps[0] == "aten::add_" && finding.sideOps[1] == "vendor::add_inplace",
                (finding.sideOps[0] + " / " + finding.sideOps[1]).c_str());
        QCOMPARE(report.opFindings.size(), size_t(1));
        QCOMPARE(report.opFindings.front().occurrences, uint64_t(8));
        QCOMPARE(report.opFindings.front().launchDifference, int64_t(2));
    }

    // B runs Adagrad's `addcmul_` and `sqrt` in the other order in 2 of its 16 parameter updates,
    // where its `add_` after them runs as 3 kernels (the optimizer split). The alignment pairs
    // `addcmul_` and leaves A's `sqrt` next to B's split `add_`, whose first kernels are alike;
    // as a pair they made a fusion finding of `sqrt` against `add_`. Paired as they are in the
    // other 14 updates, the only optimizer finding is the split, in all 16.
    void neighboursRunInAnotherOrderMakeNoFinding()
    {
        const Classifier classifier = Classifier::builtin("default");
        CrossStackRecipe recipe;
        recipe.seed = 1;
        const CrossStackPair pair = constructCrossStackPair(
            readTraceBytes(dataPath(QStringLiteral("real/dlrm_worker0.v100.pt.trace.json"))), classifier, recipe);
        QVERIFY(pair.reordered > 0);
        const FusionReport report = compareCrossStack(pair, classifier);
        const PairScore score = scoreCrossStackPair(report, pair.changes);
        for (const std::string& spurious : score.spuriousFindings)
            qWarning("spurious: %s", spurious.c_str());
        QCOMPARE(score.spurious, uint64_t(0));
        QCOMPARE(score.found, score.injected);
        const auto reordered = std::find_if(report.opAlignment.levels.begin(), report.opAlignment.levels.end(),
            [](const AlignmentLevel& level) { return level.key == "reordered"; });
        QVERIFY(reordered != report.opAlignment.levels.end());
        QVERIFY(reordered->matched > 0);
        const auto split = std::find_if(report.opFindings.begin(), report.opFindings.end(),
            [](const OpFinding& finding) { return finding.sideOps[0] == "aten::add_"; });
        QVERIFY(split != report.opFindings.end());
        QCOMPARE(split->occurrences, uint64_t(16));
    }

    // A communication split (two collectives where A runs one) inside an operation both traces run
    // is no op finding, but an entry names the operation with its communication kernels' time.
    void aCommunicationSplitIsNamedWithItsTime()
    {
        const Classifier classifier = Classifier::builtin("default");
        const CrossStackPair pair = constructCrossStackPair(
            readTraceBytes(dataPath(QStringLiteral("real/hta_trace_diff_control.a100.json.gz"))), classifier, {});
        const auto change = std::find_if(
            pair.changes.begin(), pair.changes.end(), [](const InjectedChange& c) { return c.collective; });
        QVERIFY(change != pair.changes.end());
        const FusionReport report = compareCrossStack(pair, classifier);
        const auto entry = std::find_if(report.whereToLookFirst.begin(), report.whereToLookFirst.end(),
            [&](const LookFirstEntry& e) { return e.op == change->trace1Op + " / " + change->trace2Op; });
        QVERIFY(entry != report.whereToLookFirst.end());
        QCOMPARE(entry->kind, LookFirstKind::Fusion);
        QVERIFY2(entry->title.find("communication kernels") != std::string::npos, entry->title.c_str());
        QVERIFY(entry->timeUs[0] > 0 && entry->timeUs[1] > 0 && entry->stakeUs > 0);
        QCOMPARE(entry->stakeUs, std::abs(entry->timeUs[0] - entry->timeUs[1]));
    }
};

QTEST_GUILESS_MAIN(TestCrossStackPairs)
#include "tst_crossstackpairs.moc"
