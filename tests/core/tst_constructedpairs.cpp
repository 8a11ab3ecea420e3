// The constructed pairs' other cases: what the constructor injects, short traces, the 2021
// schema, traces without operators or kernels, and different models that must stay different. The
// score over every seed is tst_constructedpairsscore's (half of the time, in a test of its own so
// that ctest runs the two beside each other).
#include "classify/classifier.h"
#include "fusionanalysis.h"
#include "load/traceloader.h"
#include "ops/attribution/stepparts.h"
#include "pairconstructor.h"
#include "testdata.h"

#include <QtTest>

#include <algorithm>
#include <set>

using namespace fusiondiff;
using namespace fusiondiff::test;

class TestConstructedPairs : public QObject
{
    Q_OBJECT

private slots:
    void constructorInjectsWhatItSays()
    {
        const Classifier classifier = Classifier::builtin("default");
        const QByteArray bytes = readTraceBytes(dataPath("real/timesformer-base-finetuned-k400.mi300x.json.gz"));
        const ConstructedPair pair = constructPair(bytes, classifier, { 2, 0.8, 3, 3, PairRecipe::Stacks::Keep, 2 });
        // TimeSformer has one pair of operators to fuse that no split or merge uses (at this seed).
        QCOMPARE(pair.changes.size(), size_t(7));
        auto changesOfKind = [&](const std::string& kind) {
            return std::count_if(pair.changes.begin(), pair.changes.end(),
                [&](const InjectedChange& change) { return change.kind == kind; });
        };
        QCOMPARE(changesOfKind("merge"), 3);
        QCOMPARE(changesOfKind("fuse_operators"), 1);
        QVERIFY(pair.traceB.contains("vendor_ops::fused_1"));
        QVERIFY(pair.renamedKernelNames > 10 * (pair.keptKernelNames + 1));
        const TraceStore a = loadTraceFromMemory(std::string_view(bytes.constData(), size_t(bytes.size())), "A.json");
        const TraceStore b
            = loadTraceFromMemory(std::string_view(pair.traceB.constData(), size_t(pair.traceB.size())), "B.json");
        int64_t delta = 0;
        for (const InjectedChange& change : pair.changes)
            delta += change.kernelDelta * int64_t(change.calls);
        QCOMPARE(int64_t(b.kernels.size()) - int64_t(a.kernels.size()), delta);
        // No kernel name survives unless the classifier offered no other; categories are kept.
        std::set<std::string> namesA;
        for (const KernelEvent& kernel : a.kernels)
            namesA.insert(std::string(a.name(kernel.name)));
        uint64_t same = 0;
        for (const KernelEvent& kernel : b.kernels)
            same += namesA.contains(std::string(b.name(kernel.name)));
        QVERIFY(same <= pair.keptKernelNames * 50);
        // Renamed operators: most names of A are gone from B.
        uint64_t renamed = 0;
        for (const auto& [from, to] : pair.renamedOperators)
            renamed += from != to;
        QVERIFY(renamed * 2 > pair.renamedOperators.size());
    }

    void trainingChangesReachBackwardOptimizerAndCommunication()
    {
        // A DDP training step: changes go into the backward pass, the optimizer step and the
        // data-parallel communication too, not only into the forward pass; autograd nodes are
        // renamed after their forward operator, as another build names them.
        const Classifier classifier = Classifier::builtin("default");
        const QByteArray bytes = readTraceBytes(dataPath("real/dlrm_worker0.v100.pt.trace.json"));
        const ConstructedPair pair = constructPair(bytes, classifier, { 1, 0.8, 3, 3, PairRecipe::Stacks::None });
        std::set<std::string> regions;
        for (const InjectedChange& change : pair.changes)
            regions.insert(change.region);
        QCOMPARE(pair.changes.size(), size_t(6));
        QVERIFY(regions.contains("backward"));
        QVERIFY(regions.contains("optimizer"));
        QVERIFY(regions.contains("communication"));
        // The launchers are found by nesting: this trace's runtime calls carry no operator's
        // External id.
        uint64_t nodesAfterRenamedOperators = 0;
        for (const auto& [forward, renamed] : pair.renamedOperators) {
            if (forward.starts_with("aten::") && renamed != forward) {
                const std::string stem = forwardStemOf(forward);
                for (const auto& [name, nodeRenamed] : pair.renamedOperators) {
                    const AutogradNode original = autogradNodeOf(name);
                    if (original.forwardStem != stem || !original.wrapped)
                        continue;
                    const AutogradNode after = autogradNodeOf(nodeRenamed);
                    QVERIFY2(after.wrapped, nodeRenamed.c_str());
                    QCOMPARE(after.forwardStem, forwardStemOf(renamed));
                    QCOMPARE(after.suffix, original.suffix);
                    ++nodesAfterRenamedOperators;
                }
            }
        }
        QVERIFY(nodesAfterRenamedOperators >= 3);
    }

    void shortTracesFindEveryChange_data()
    {
        QTest::addColumn<QString>("trace");
        QTest::addColumn<quint64>("seed");
        QTest::addColumn<int>("stacks");
        // Few operations a step (10 and 7 launch kernels), one step or none, no stack: each
        // operation runs once, so no other call teaches its renamed name, and a changed call's
        // kernels can look exactly like its neighbour's. Below the bar before short stretches
        // were aligned on the kernels they share (minitoy seed 3; SGLang decode modules/none, seeds
        // 1 and 3).
        for (const char* trace :
            { "real/minitoy_train_rocm6.2.mi250.json.gz", "real/sglang_qwen3-8b_decode.mi300x.json.gz" }) {
            for (const auto stacks : { PairRecipe::Stacks::ModulesOnly, PairRecipe::Stacks::None }) {
                for (const quint64 seed : seedsToRun({ 1, 2, 3 })) {
                    QTest::addRow("%s stacks %s seed %llu", trace, stacksName(stacks), seed)
                        << QString::fromLatin1(trace) << seed << int(stacks);
                }
            }
        }
    }

    void shortTracesFindEveryChange()
    {
        QFETCH(QString, trace);
        QFETCH(quint64, seed);
        QFETCH(int, stacks);
        const Classifier classifier = Classifier::builtin("default");
        const PairScore score
            = scoreConstructedPair(dataPath(trace), classifier, { seed, 0.8, 3, 3, PairRecipe::Stacks(stacks), 0 });
        for (const std::string& missed : score.missed)
            qWarning("missed: %s", missed.c_str());
        QVERIFY(score.comparable); // too few operations for a verdict, never "not the same work"
        QVERIFY(score.injected >= 4);
        QCOMPARE(score.found, score.injected);
        QCOMPARE(score.spurious, uint64_t(0));
    }

    void traces2021SchemaAreBuiltFrom_data()
    {
        QTest::addColumn<quint64>("seed");
        QTest::addColumn<bool>("bareNodes");
        // Seed 1 splits aten::add_ and aten::mul_ in every call: the SGD step, a run of 161
        // parameters' add_, mul_, add_ of one kernel each, keeps neither a name nor a signature,
        // and was "not the same work" before long runs were aligned on shared kernels. Seed 3
        // splits the add_ of torch::autograd::AccumulateGrad, recorded without the engine's
        // wrapper, which was taken for forward work on both sides.
        QTest::newRow("seed 1: every optimizer call changed") << quint64(1) << false;
        QTest::newRow("seed 3: AccumulateGrad recorded alone") << quint64(3) << false;
        // Every operator renamed and the nodes named apart, without their Backward suffix too
        // (MeanBackward1 -> VendorGrad7): only the engine's thread says they are backward work
        // (3 of 6 changes were found when they were taken for forward work).
        QTest::newRow("seed 3: nodes named apart, no suffix") << quint64(3) << true;
    }

    void traces2021SchemaAreBuiltFrom()
    {
        // The 2021 schema: `Operator`/`Runtime`/`Kernel` events, string thread ids, `external id`
        // on runtime calls, autograd nodes recorded alone (`CudnnConvolutionBackward`), and the
        // profiler's steps and the optimizer's spans recorded as operators.
        QFETCH(quint64, seed);
        QFETCH(bool, bareNodes);
        const Classifier classifier = Classifier::builtin("default");
        const QByteArray bytes = readTraceBytes(dataPath("real/resnet50_2021_schema.worker0.pt.trace.json.gz"));
        PairRecipe recipe { seed, 0.8, 3, 3, PairRecipe::Stacks::None };
        if (bareNodes) {
            recipe.renamedOperatorShare = 1.0;
            recipe.nodesNamedAfterOperators = false;
            recipe.nodesKeepSuffix = false;
        }
        const ConstructedPair pair = constructPair(bytes, classifier, recipe);
        QCOMPARE(pair.changes.size(), size_t(6));
        std::set<std::string> regions;
        for (const InjectedChange& change : pair.changes) {
            regions.insert(change.region);
            QVERIFY2(!change.trace1Op.starts_with("ProfilerStep#") && !change.trace1Op.starts_with("Optimizer."),
                change.trace1Op.c_str()); // a step is not an operation
        }
        QVERIFY(regions.contains("backward"));
        QVERIFY(regions.contains("optimizer"));
        QVERIFY(pair.renamedOperators.at("Optimizer.step#SGD.step") == "Optimizer.step#SGD.step");
        if (bareNodes)
            QVERIFY(pair.renamedOperators.at("MeanBackward1").starts_with("VendorGrad"));
        if (bareNodes)
            QVERIFY(!pair.renamedOperators.at("MeanBackward1").ends_with("Backward1"));
        const TraceStore a = loadTraceFromMemory(std::string_view(bytes.constData(), size_t(bytes.size())), "A.json");
        const TraceStore b
            = loadTraceFromMemory(std::string_view(pair.traceB.constData(), size_t(pair.traceB.size())), "B.json");
        int64_t delta = 0;
        for (const InjectedChange& change : pair.changes)
            delta += change.kernelDelta * int64_t(change.calls);
        QCOMPARE(int64_t(b.kernels.size()) - int64_t(a.kernels.size()), delta);
        // The comparison reads the steps from the operators and compares the operations in them.
        const FusionReport report = analyzeFusion(a, b, classifier, AnalysisOptions {});
        QCOMPARE(report.iterations[0].method, std::string("ProfilerStep annotations"));
        QCOMPARE(report.iterations[0].count, uint64_t(6));
        QVERIFY2(report.opAlignment.comparable, report.opAlignment.verdict.c_str());
        for (const OpFinding& finding : report.opFindings)
            QVERIFY2(!finding.sideOps[0].starts_with("ProfilerStep#"), finding.summary.c_str());
        const PairScore score = scorePair(report, pair.changes);
        for (const std::string& missed : score.missed)
            qWarning("missed: %s", missed.c_str());
        QCOMPARE(score.found, score.injected);
        QCOMPARE(score.spurious, uint64_t(0));
        if (seed == 3 && !bareNodes) {
            const auto accumulate = std::find_if(pair.changes.begin(), pair.changes.end(),
                [](const InjectedChange& change) { return change.trace1Op == "torch::autograd::AccumulateGrad"; });
            QVERIFY(accumulate != pair.changes.end());
            QCOMPARE(accumulate->region, std::string("backward"));
        }
    }

    void tracesWithoutOperatorsOrKernelsSayWhy()
    {
        const Classifier classifier = Classifier::builtin("default");
        auto reason = [&](const char* trace) {
            try {
                constructPair(readTraceBytes(dataPath(trace)), classifier, {});
            } catch (const std::runtime_error& error) {
                return std::string(error.what());
            }
            return std::string();
        };
        QVERIFY(reason("real/gpu_only.mi210.json.gz").starts_with("trace A has no CPU operators"));
        QVERIFY(reason("real/no_kernels.a100.json.gz").starts_with("trace A has no kernels"));
    }

    void differentModelsStayDifferentAfterRenaming()
    {
        // B built from another model: even with every name changed, not the same work.
        const Classifier classifier = Classifier::builtin("default");
        const QByteArray other = readTraceBytes(dataPath("real/owlv2-large-patch14-ensemble.h100.json.gz"));
        const ConstructedPair pair = constructPair(other, classifier, { 5, 0.8, 0, 0, PairRecipe::Stacks::Keep });
        const TraceStore a = loadTrace(dataPath("real/timesformer-base-finetuned-k400.mi300x.json.gz").toStdString());
        const TraceStore b
            = loadTraceFromMemory(std::string_view(pair.traceB.constData(), size_t(pair.traceB.size())), "B.json");
        const FusionReport report = analyzeFusion(a, b, classifier, AnalysisOptions {});
        QVERIFY(!report.opAlignment.comparable);
        QVERIFY(report.opFindings.empty());
    }

    void differentTrainingModelsStayDifferent()
    {
        // A training step against another model's, renamed: not the same work either.
        const Classifier classifier = Classifier::builtin("default");
        const QByteArray other = readTraceBytes(dataPath("real/hta_trace_diff_test.v100.json.gz"));
        const ConstructedPair pair = constructPair(other, classifier, { 5, 0.8, 0, 0, PairRecipe::Stacks::None });
        const TraceStore a = loadTrace(dataPath("real/dlrm_worker0.v100.pt.trace.json").toStdString());
        const TraceStore b
            = loadTraceFromMemory(std::string_view(pair.traceB.constData(), size_t(pair.traceB.size())), "B.json");
        const FusionReport report = analyzeFusion(a, b, classifier, AnalysisOptions {});
        QVERIFY(!report.opAlignment.comparable);
        QVERIFY(report.opFindings.empty());
    }
};

QTEST_GUILESS_MAIN(TestConstructedPairs)
#include "tst_constructedpairs.moc"
