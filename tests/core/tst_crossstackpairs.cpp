// The comparison held to known answers on cross-stack pairs (tests/support/crossstack.h): B is a
// real training trace as another software stack records it (every operator, node, module and kernel
// renamed, independent operators reordered) with splits and merges in the backward pass, the
// optimizer, communication and the forward pass. Every pair must be called the same work, find at
// least 95% of its changes (a communication change named by an entry with its time) and have at
// most 5% of its findings spurious.
#include "classify/classifier.h"
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
