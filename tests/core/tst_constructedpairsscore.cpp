// The comparison held to known answers: trace B is built from a real trace A with operators and
// kernels renamed, Python lines moved, kernel speeds changed, and kernels split or merged in a
// few operations (tests/support/pairconstructor.h), in the forward pass of inference traces and in
// the backward pass, optimizer and communication of training traces. On every trace, at least 95%
// of the injected changes must be found, and at most 5% of the findings may be spurious, over
// fixed seeds.
#include "classify/classifier.h"
#include "pairconstructor.h"
#include "testdata.h"

#include <QtTest>

#include <map>
#include <string>

using namespace fusiondiff;
using namespace fusiondiff::test;

class TestConstructedPairsScore : public QObject
{
    Q_OBJECT

private slots:
    void aPairWithoutChangesIsNeverAPass()
    {
        PairScore nothing;
        nothing.comparable = true;
        QVERIFY(!meetsTheBar(nothing));
        PairScore all = nothing;
        all.injected = all.found = all.findings = 3;
        QVERIFY(meetsTheBar(all));
        all.comparable = false;
        QVERIFY(!meetsTheBar(all));
    }

    void injectedChangesAreFoundAcrossRenamedStacks_data()
    {
        QTest::addColumn<QString>("trace");
        QTest::addColumn<quint64>("seed");
        QTest::addColumn<int>("stacks");
        // TimeSformer's modules run consecutive operators of one kernel each (operators to fuse).
        for (const char* trace : { "real/bert-small-uncased.mi300x.json.gz", "real/nsfw_image_detection.h100.json.gz",
                 "real/timesformer-base-finetuned-k400.mi300x.json.gz" }) {
            for (const auto stacks : { PairRecipe::Stacks::Keep, PairRecipe::Stacks::None }) {
                for (const quint64 seed : seedsToRun({ 1, 2, 3 })) {
                    QTest::addRow("%s stacks %s seed %llu", trace, stacksName(stacks), seed)
                        << QString::fromLatin1(trace) << seed << int(stacks);
                }
            }
        }
        // Training steps (DDP, no Python stack, no modules): forward, backward, optimizer and
        // all-reduce, with repeated AccumulateGrad runs; the V100 one replays CUDA graphs too.
        // (Two seeds of the larger one, which takes most of this test's time.)
        for (const quint64 seed : seedsToRun({ 1, 2, 3 })) {
            QTest::addRow("dlrm training seed %llu", seed)
                << QStringLiteral("real/dlrm_worker0.v100.pt.trace.json") << seed << int(PairRecipe::Stacks::None);
        }
        for (const quint64 seed : seedsToRun({ 1, 2 })) {
            QTest::addRow("hta training seed %llu", seed)
                << QStringLiteral("real/hta_trace_diff_test.v100.json.gz") << seed << int(PairRecipe::Stacks::None);
        }
    }

    void injectedChangesAreFoundAcrossRenamedStacks()
    {
        QFETCH(QString, trace);
        QFETCH(quint64, seed);
        QFETCH(int, stacks);
        const Classifier classifier = Classifier::builtin("default");
        // With the Python frames kept, also two operators fused into one custom operator, twice: the
        // frames tell which operators the fused one replaces (with modules only or no stacks, two
        // elementwise operators of renamed names and kernels cannot be told apart).
        const auto recorded = PairRecipe::Stacks(stacks);
        const PairScore score = scoreConstructedPair(
            dataPath(trace), classifier, { seed, 0.8, 3, 3, recorded, recorded == PairRecipe::Stacks::Keep ? 2 : 0 });
        for (const std::string& missed : score.missed)
            qWarning("missed: %s", missed.c_str());
        for (const std::string& spurious : score.spuriousFindings)
            qWarning("spurious: %s", spurious.c_str());
        QVERIFY(score.comparable); // a pair built from one trace is always the same work
        QVERIFY(score.injected >= 3);
        PairScore& ofTrace = m_ofTrace[trace.toStdString()];
        ofTrace.injected += score.injected;
        ofTrace.found += score.found;
        ofTrace.findings += score.findings;
        ofTrace.spurious += score.spurious;
        ofTrace.comparable = true;
    }

    void scoreOverAllSeedsMeetsTheBarOnEveryTrace()
    {
        QCOMPARE(m_ofTrace.size(), size_t(5));
        for (const auto& [trace, score] : m_ofTrace) {
            qInfo("%s: found %llu of %llu injected changes; %llu of %llu findings spurious", trace.c_str(),
                qulonglong(score.found), qulonglong(score.injected), qulonglong(score.spurious),
                qulonglong(score.findings));
            QVERIFY2(meetsTheBar(score), trace.c_str());
        }
    }

private:
    std::map<std::string, PairScore> m_ofTrace; // over the seeds and stacks
};

QTEST_GUILESS_MAIN(TestConstructedPairsScore)
#include "tst_constructedpairsscore.moc"
