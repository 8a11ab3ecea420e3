// Each branch of the analysis on small hand-made traces, with the numbers worked out by hand.
// (tst_seedgolden checks the same analysis against the seed's own output on larger traces.)

#include "classify/classifier.h"
#include "fusionanalysis.h"
#include "groups/correlationgroups.h"
#include "load/traceloader.h"
#include "testdata.h"
#include "tracewriter.h"
#include "util/inputerror.h"

#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace fusiondiff;
using test::TraceWriter;

namespace {

const std::string kGemm = "Cijk_Alik_Bljk_gemm";
const std::string kNvGemm = "nvjet_tst_gemm";
const std::string kRelu = "relu_kernel";
const std::string kElementwise = "vectorized_elementwise_kernel";
const std::string kSort = "DeviceRadixSortOnesweepKernel";
const std::string kSoftmax = "softmax_kernel";
const std::string kAttention = "flash_attention_fwd";
const std::string kCopy = "memcpy_kernel";
const std::string kOther = "mystery_kernel";

class Fixture
{
public:
    TraceStore load(const TraceWriter& writer, const char* name)
    {
        return loadTrace(writer.write(m_dir, QString::fromUtf8(name)).toStdString());
    }

    FusionReport compare(const TraceWriter& a, const TraceWriter& b, AnalysisOptions options = {})
    {
        m_a = load(a, "a.json");
        m_b = load(b, "b.json");
        return analyzeFusion(m_a, m_b, Classifier::builtin("seed"), options);
    }

private:
    QTemporaryDir m_dir;
    TraceStore m_a;
    TraceStore m_b;
};

// One graph launch: `layers` repetitions of `layer` under one correlation id.
void graph(TraceWriter& writer, int64_t correlation, const std::vector<std::string>& layer, int layers)
{
    for (int i = 0; i < layers; ++i) {
        for (const std::string& name : layer)
            writer.kernels(name, 1, correlation);
    }
}

const FusionOpportunity* opportunity(const FusionReport& report, const std::string& type)
{
    for (const FusionOpportunity& o : report.opportunities) {
        if (report.typeName(o.kernelType) == type)
            return &o;
    }
    return nullptr;
}

std::vector<const FusionMapping*> mappingsOf(const FusionReport& report, MappingKind kind)
{
    std::vector<const FusionMapping*> result;
    for (const FusionMapping& m : report.mappings) {
        if (m.kind == kind)
            result.push_back(&m);
    }
    return result;
}

} // namespace

class TestSeedAnalysis : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void correlationGroupsInFirstAppearanceOrder()
    {
        QTemporaryDir dir;
        TraceWriter writer;
        writer.kernels("a", 1, 7).kernels("b", 1, 3).kernels("c", 1, 7);
        TraceWriter::Kernel loose;
        loose.name = "no correlation";
        loose.ts = 1;
        writer.kernel(loose);
        const TraceStore store = loadTrace(writer.write(dir, QStringLiteral("t.json")).toStdString());
        const CorrelationGroups groups = groupByCorrelation(store);
        QCOMPARE(groups.groups.size(), size_t(2));
        QCOMPARE(groups.groups[0].correlation, int64_t(7));
        QCOMPARE(groups.groups[0].size, uint32_t(2));
        QCOMPARE(groups.groups[1].correlation, int64_t(3));
        const auto first = groups.kernelsOf(groups.groups[0]);
        QCOMPARE(store.name(store.kernels[first[0]].name), std::string_view("a"));
        QCOMPARE(store.name(store.kernels[first[1]].name), std::string_view("c"));
    }

    // Matched groups where B fuses the ReLU into its GEMM: a per-group opportunity and a
    // sequence mapping in every pair.
    void fusedEpilogueInMatchedGroups()
    {
        TraceWriter a, b;
        a.amd();
        b.nvidia();
        for (int g = 0; g < 3; ++g) {
            graph(a, 100 + g, { kGemm, kRelu, kElementwise }, 20); // 60 kernels
            graph(b, 900 + g, { kNvGemm, kElementwise }, 25); // 50 kernels: within 25% of 60
        }
        Fixture fixture;
        const FusionReport report = fixture.compare(a, b);
        QCOMPARE(report.groupPairs.size(), size_t(3));
        QCOMPARE(report.largeGroups[0][report.groupPairs[0].group1].correlation, int64_t(100));
        QCOMPARE(report.largeGroups[1][report.groupPairs[0].group2].correlation, int64_t(900));
        QCOMPARE(report.groupPairs[0].sharedTypes, uint32_t(2));
        QCOMPARE(report.groupPairs[0].score, int64_t(10 - 20));

        const FusionOpportunity* relu = opportunity(report, "ReLU");
        QVERIFY(relu);
        QCOMPARE(relu->total[0], uint64_t(60));
        QCOMPARE(relu->total[1], uint64_t(0));
        QCOMPARE(relu->avgPerGroup[0], 20.0);
        QVERIFY(std::isinf(relu->ratio));
        QCOMPARE(relu->fusedBy, Side::Trace2);
        QCOMPARE(relu->groupsAffected, uint64_t(3));
        QCOMPARE(relu->source, OpportunitySource::MatchedGroups);
        QCOMPARE(relu->timeMs[0], 60 * 2 / 1000.0);
        // GEMM: 40 vs 50 per group: ratio 1.25, not significant. Elementwise: 20 vs 25: neither.
        QVERIFY(!opportunity(report, "GEMM"));
        QVERIFY(!opportunity(report, "Elementwise"));

        const auto sequences = mappingsOf(report, MappingKind::GroupSequence);
        QCOMPARE(sequences.size(), size_t(3));
        for (const FusionMapping* m : sequences) {
            QCOMPARE(m->evidence, std::string("AMD runs GEMM+ReLU separately, NVIDIA fuses into GEMM"));
            QCOMPARE(m->fusedCount, uint64_t(25)); // B's GEMMs in the group
            QCOMPARE(m->patternCount, int64_t(20));
            QCOMPARE(m->patternConfidence, 1.0);
        }
        QCOMPARE(*sequences[2]->correlationGroup1, int64_t(102));
        QCOMPARE(*sequences[2]->correlationGroup2, int64_t(902));
        // The same evidence from the whole-trace sequences is dropped as a duplicate.
        QCOMPARE(mappingsOf(report, MappingKind::GlobalSequence).size(), size_t(0));
    }

    void significanceThresholds()
    {
        // 2 groups each; Softmax 2.0x per group (not > 2: not significant), Sort 2.5x with 21 kernels
        // (significant), Attention 2.5x with 14 kernels (not enough kernels).
        TraceWriter a, b;
        a.amd();
        b.nvidia();
        const std::vector<std::string> padding(40, kElementwise);
        for (int g = 0; g < 2; ++g) {
            graph(a, 10 + g, std::vector<std::string>(20, kSoftmax), 1);
            graph(a, 10 + g, padding, 1); // 60
            graph(a, 30 + g, std::vector<std::string>(15, kSort), 1);
            graph(a, 30 + g, std::vector<std::string>(5, kAttention), 1);
            graph(a, 30 + g, padding, 1); // 60
            graph(b, 20 + g, std::vector<std::string>(10, kSoftmax), 1);
            graph(b, 20 + g, padding, 1); // 50
            graph(b, 40 + g, std::vector<std::string>(6, kSort), 1);
            graph(b, 40 + g, std::vector<std::string>(2, kAttention), 1);
            graph(b, 40 + g, std::vector<std::string>(42, kElementwise), 1); // 50
        }
        Fixture fixture;
        const FusionReport report = fixture.compare(a, b);
        QCOMPARE(report.groupPairs.size(), size_t(4));
        QVERIFY(!opportunity(report, "Softmax"));
        const FusionOpportunity* sort = opportunity(report, "Sort");
        QVERIFY(sort);
        QCOMPARE(sort->ratio, 2.5);
        QCOMPARE(sort->total[0] + sort->total[1], uint64_t(42));
        QVERIFY(!opportunity(report, "Attention")); // 2.5x but 14 kernels: not > 20
    }

    void globalFallbackNamesTheSideNotTrace2()
    {
        // No groups at all: 120 eager copies in A, 30 in B. The seed names the fusing side "Trace 2"
        // in this branch and the platform elsewhere; FusionDiff uses the platform throughout.
        TraceWriter a, b;
        a.amd().kernels(kCopy, 120).kernels(kGemm, 10);
        b.nvidia().kernels(kCopy, 30).kernels(kNvGemm, 10);
        Fixture fixture;
        const FusionReport report = fixture.compare(a, b);
        QCOMPARE(report.opportunities.size(), size_t(1));
        const FusionOpportunity& copy = report.opportunities.front();
        QCOMPARE(report.typeName(copy.kernelType), std::string("MemCopy"));
        QCOMPARE(copy.source, OpportunitySource::GlobalCounts);
        QCOMPARE(copy.fusedBy, Side::Trace2);
        QCOMPARE(report.sideName(copy.fusedBy), std::string("NVIDIA"));
        QCOMPARE(copy.ratio, 4.0);
        QCOMPARE(copy.avgPerGroup[0], 0.0); // no matched groups
        QCOMPARE(copy.totalGroups, uint64_t(0));
        // 150 kernels: more than global_min_total. With 100 it is not reported.
        AnalysisOptions options;
        options.globalMinTotal = 150;
        Fixture stricter;
        QCOMPARE(stricter.compare(a, b, options).opportunities.size(), size_t(0));
    }

    void partialFusionAcrossMatchedGroups()
    {
        // Softmax in all 6 A groups, in 1 B group; in the other 5, B runs extra Attention and Elementwise.
        TraceWriter a, b;
        a.amd();
        b.nvidia();
        for (int g = 0; g < 6; ++g) {
            graph(a, 100 + g, { kGemm, kSoftmax, kSoftmax, kElementwise }, 15); // 60
            if (g == 0)
                graph(b, 200 + g, { kGemm, kSoftmax, kElementwise, kAttention }, 15); // 60
            else
                graph(b, 200 + g, { kGemm, kAttention, kElementwise, kElementwise }, 15); // 60
        }
        Fixture fixture;
        const FusionReport report = fixture.compare(a, b);
        const auto partial = mappingsOf(report, MappingKind::PartialFusion);
        QCOMPARE(partial.size(), size_t(1));
        const FusionMapping& m = *partial.front();
        // Softmax 180 vs 15; in 5 groups A has it and B not; there B has +15 Attention and +15 Elementwise
        // each: a tie, broken by which type gained a count first (Attention comes first in category order).
        QCOMPARE(m.evidence,
            std::string("AMD calls Softmax 12.0x more (180 vs 15). In 5 groups where AMD has Softmax, NVIDIA has more: "
                        "Attention (+75), Elementwise (+75)"));
        QCOMPARE(report.typeName(m.fusedKernelType), std::string("Attention"));
        QCOMPARE(m.fusedSide, Side::Trace2);
        QCOMPARE(m.patternCount, int64_t(165));
        QCOMPARE(m.patternConfidence, 5.0 / 6.0);
        // Fewer than partial_min_groups groups: nothing.
        AnalysisOptions options;
        options.partialMinGroups = 6;
        Fixture stricter;
        QCOMPARE(mappingsOf(stricter.compare(a, b, options), MappingKind::PartialFusion).size(), size_t(0));
    }

    void chainsOfOneType()
    {
        // A sorts in chains of 3 (60 chains), B in single kernels (60): 3x, 120 more kernels.
        TraceWriter a, b;
        a.amd();
        b.nvidia();
        for (int i = 0; i < 60; ++i) {
            a.kernels(kSort, 3).kernels(kElementwise, 1);
            b.kernels(kSort, 1).kernels(kElementwise, 1);
        }
        Fixture fixture;
        const FusionReport report = fixture.compare(a, b);
        const auto chains = mappingsOf(report, MappingKind::IntraTypeChain);
        QCOMPARE(chains.size(), size_t(1));
        QCOMPARE(chains.front()->evidence,
            std::string(
                "AMD runs Sort in chains of 3 calls (60 chains, 180 total), NVIDIA fuses to 1 calls (60 chains, "
                "60 total) - 3.0x more efficient"));
        QCOMPARE(chains.front()->patternConfidence, 1.0);
        // The Sort count imbalance of the whole-trace sequences is left out: the chain covers Sort.
        for (const FusionMapping* m : mappingsOf(report, MappingKind::GlobalSequence))
            QVERIFY(report.typeName(m->unfusedSequence.front()) != "Sort");

        // Chains of 2 against 1: a ratio of exactly 2 is not reported.
        TraceWriter c, d;
        c.amd();
        d.nvidia();
        for (int i = 0; i < 150; ++i) {
            c.kernels(kSort, 2).kernels(kElementwise, 1);
            d.kernels(kSort, 1).kernels(kElementwise, 1);
        }
        Fixture second;
        QCOMPARE(mappingsOf(second.compare(c, d), MappingKind::IntraTypeChain).size(), size_t(0));
    }

    void globalSequencePatterns()
    {
        // Only B runs Softmax, always right after an Elementwise that A also runs; A runs 2x the copies.
        TraceWriter a, b;
        a.amd();
        b.nvidia();
        for (int i = 0; i < 60; ++i) {
            a.kernels(kElementwise, 1).kernels(kCopy, 2).kernels(kGemm, 1);
            b.kernels(kElementwise, 1).kernels(kSoftmax, 1).kernels(kCopy, 1).kernels(kNvGemm, 1);
        }
        Fixture fixture;
        const FusionReport report = fixture.compare(a, b);
        std::vector<std::string> evidence;
        for (const FusionMapping* m : mappingsOf(report, MappingKind::GlobalSequence))
            evidence.push_back(m->evidence);
        QVERIFY(std::find(evidence.begin(), evidence.end(),
                    "NVIDIA runs Elementwise+Softmax separately, AMD fuses into Elementwise")
            != evidence.end());
        // 120 vs 60 copies; A's most frequent other type: Elementwise and GEMM both 60, Elementwise first.
        QVERIFY(std::find(evidence.begin(), evidence.end(),
                    "AMD calls MemCopy 2.0x more (120 vs 60), NVIDIA likely fuses into Elementwise")
            != evidence.end());
    }

    void samePlatformSidesAreNamedByLabel()
    {
        TraceWriter a, b;
        a.nvidia("NVIDIA A100").kernels(kCopy, 120);
        b.nvidia("NVIDIA H100").kernels(kCopy, 30);
        Fixture fixture;
        const FusionReport report = fixture.compare(a, b);
        QCOMPARE(report.sideNames[0], std::string("a (NVIDIA A100)"));
        QCOMPARE(report.sideNames[1], std::string("b (NVIDIA H100)"));
        QCOMPARE(report.sideName(report.opportunities.front().fusedBy), std::string("b (NVIDIA H100)"));
    }

    void theSameFileTwiceGetsTwoLabels()
    {
        QTemporaryDir dir;
        const QString path = TraceWriter().amd().kernels(kGemm, 3).write(dir, QStringLiteral("t.json"));
        const TraceStore store = loadTrace(path.toStdString());
        const FusionReport report = analyzeFusion(store, store, Classifier::builtin("default"), {});
        QCOMPARE(report.traces[0].label, std::string("A: t (AMD Instinct MI300X)"));
        QCOMPARE(report.traces[1].label, std::string("B: t (AMD Instinct MI300X)"));
        QVERIFY(report.opportunities.empty());
        QVERIFY(report.mappings.empty());
    }

    void noKernelsIsAnEmptyComparison()
    {
        TraceWriter a, b;
        a.amd();
        b.nvidia();
        Fixture fixture;
        const FusionReport report = fixture.compare(a, b);
        QCOMPARE(report.traces[0].kernels, uint64_t(0));
        QVERIFY(report.globalCounts.empty());
        QVERIFY(report.opportunities.empty());
        QVERIFY(report.mappings.empty());
        QVERIFY(report.kernels.empty());
    }

    void kernelTableJoinsNamesAcrossTraces()
    {
        TraceWriter a, b;
        a.amd().kernels(kCopy, 3).kernels(kOther, 1);
        b.nvidia().kernels(kCopy, 2).kernels("only in b", 5);
        Fixture fixture;
        const FusionReport report = fixture.compare(a, b);
        QCOMPARE(report.kernels.size(), size_t(3));
        QCOMPARE(report.kernels[0].name, std::string(kCopy)); // 5 kernels x 2 us: the most time
        QCOMPARE(report.kernels[0].count[0], uint64_t(3));
        QCOMPARE(report.kernels[0].count[1], uint64_t(2));
        QCOMPARE(report.kernels[0].timeUs[0], 6.0);
        QCOMPARE(report.kernels[1].name, std::string("only in b"));
        QCOMPARE(report.kernels[1].count[0], uint64_t(0));
    }

    void parametersByName()
    {
        AnalysisOptions options;
        QCOMPARE(setAnalysisParameter(options, "min_group_size", "7"), std::string());
        QCOMPARE(options.minGroupSize, int64_t(7));
        QCOMPARE(setAnalysisParameter(options, "size_tolerance", "0.5"), std::string());
        QCOMPARE(options.sizeTolerance, 0.5);
        QVERIFY(setAnalysisParameter(options, "min_group_size", "1.5").find("whole number") != std::string::npos);
        QVERIFY(setAnalysisParameter(options, "size_tolerance", "-1").find("number >= 0") != std::string::npos);
        QVERIFY(setAnalysisParameter(options, "nope", "1").find("unknown parameter 'nope'") != std::string::npos);
        QCOMPARE(analysisParameters().size(), size_t(16));
    }

    void cancelStopsTheAnalysis()
    {
        TraceWriter a, b;
        a.amd().kernels(kCopy, 10);
        b.nvidia().kernels(kCopy, 10);
        QTemporaryDir dir;
        const TraceStore x = loadTrace(a.write(dir, QStringLiteral("a.json")).toStdString());
        const TraceStore y = loadTrace(b.write(dir, QStringLiteral("b.json")).toStdString());
        std::atomic<bool> cancel { true };
        QVERIFY_THROWS_EXCEPTION(Cancelled, analyzeFusion(x, y, Classifier::builtin("seed"), {}, &cancel));
    }
};

QTEST_GUILESS_MAIN(TestSeedAnalysis)
#include "tst_seedanalysis.moc"
