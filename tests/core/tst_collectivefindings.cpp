// A difference that lies in a communication kernel (an all-reduce at the start of every decode
// graph, mostly a wait for the other ranks) is a collective difference, never a fusion saving
// (issue 39: vLLM TP4's "fused by AMD, could save 19.2 ms" was AMD's all-reduce).

#include "comparedpair.h"
#include "fusionanalysis.h"
#include "graphwriter.h"
#include "report/collectiveopportunity.h"
#include "report/reporttables.h"
#include "report/reportwriters.h"

#include <QTest>

#include <cmath>
#include <utility>

using namespace fusiondiff;
using namespace fusiondiff::test;

namespace {

// vLLM's custom all-reduce, which the built-in classifier types Communication.
const std::string kAllReduce = "void vllm::cross_device_reduce_1stage<__hip_bfloat16, 4>";

const TimeGapPart* partOf(const TimeGapBreakdown& breakdown, GapCause cause)
{
    for (const TimeGapPart& part : breakdown.parts) {
        if (part.cause == cause)
            return &part;
    }
    return nullptr;
}

// The all-reduce's waits of three decode steps on A, short on B.
constexpr std::array<double, 3> kWaitsA { 7000, 40, 3000 };
constexpr double kWaitB = 30;

// Three graph launches: A's run an all-reduce, a norm, a 20 us GEMM and an add; B's the same without
// the all-reduce, its GEMM taking `gemmB` us.
FusionReport allReduceOnAOnly(double gemmB)
{
    TraceWriter a, b;
    a.amd();
    b.nvidia();
    GraphWriter graphsA(a, true), graphsB(b, false);
    for (const double wait : kWaitsA) {
        graphsA.launchTimed({ { kAllReduce, wait }, { kNorm, 10 }, { kGemm, 20 }, { kAdd, 10 } });
        graphsB.launchTimed({ { kNorm, 10 }, { kGemm, gemmB }, { kAdd, 10 } });
    }
    AnalysisOptions options;
    options.globalMinTotal = 2; // the reference analysis's threshold, for 3 launches
    return compareWritten(a, b, options);
}

} // namespace

class TestCollectiveFindings : public QObject
{
    Q_OBJECT

private slots:
    void aCollectiveKernelIsNotFusion()
    {
        // A fuses the ReLU into its GEMM (one kernel fewer, 5 us less a launch); its all-reduce
        // waits 3.35 ms a launch on average against B's 30 us. The finding is A's fusion, B slower
        // by the ReLU's 5 us a launch; the all-reduce is collectives.
        TraceWriter a, b;
        a.amd();
        b.nvidia();
        GraphWriter graphsA(a, true), graphsB(b, false);
        for (const double wait : kWaitsA) {
            graphsA.launchTimed({ { kAllReduce, wait }, { kNorm, 10 }, { kGemmRelu, 20 }, { kAdd, 10 } });
            graphsB.launchTimed({ { kAllReduce, kWaitB }, { kNorm, 10 }, { kGemm, 20 }, { kRelu, 5 }, { kAdd, 10 } });
        }
        const FusionReport report = compareWritten(a, b);
        QCOMPARE(report.opFindings.size(), size_t(1));
        const OpFinding& finding = report.opFindings[0];
        QCOMPARE(finding.fusedSide, Side::Trace1);
        QCOMPARE(finding.launchDifference, int64_t(1));
        QCOMPARE(finding.slowerSide, Side::Trace2);
        QCOMPARE(finding.savingUs, 15.0);
        QCOMPARE(finding.savingExtraKernelsUs, 15.0);
        QCOMPARE(finding.savingSpeedUs, 0.0);
        QCOMPARE(finding.timeUs[0].total, 120.0);
        QCOMPARE(finding.timeUs[1].total, 135.0);
        QCOMPARE(finding.collectiveKernels, (std::array<uint32_t, 2> { 1, 1 }));
        QCOMPARE(finding.collectiveUs, (std::array<double, 2> { 10040, 90 }));
        QVERIFY2(finding.summary.find("its communication kernels are left out of this comparison, counted as "
                                      "collectives: AMD 1 a launch, 10.0 ms in all")
                != std::string::npos,
            finding.summary.c_str());

        // The waterfall counts the all-reduce as collectives, the ReLU as fusion: the same numbers.
        const TimeGapBreakdown& kernelTime = report.timeGap.kernelTime;
        const TimeGapPart* collectives = partOf(kernelTime, GapCause::Collectives);
        QVERIFY(collectives);
        QCOMPARE(collectives->deltaUs, 10040.0 - 90.0);
        const TimeGapPart* fusion = partOf(kernelTime, GapCause::Fusion);
        QVERIFY(fusion);
        QCOMPARE(fusion->deltaUs, -15.0);

        // Where to look first: the fusion entry is at stake for the ReLU alone, and ranks below the
        // all-reduce's.
        const LookFirstEntry* fusionEntry = nullptr;
        for (const LookFirstEntry& entry : report.whereToLookFirst) {
            if (entry.kind == LookFirstKind::Fusion)
                fusionEntry = &entry;
        }
        QVERIFY(fusionEntry);
        QCOMPARE(fusionEntry->stakeUs, 15.0);
        QCOMPARE(fusionEntry->slowerSide, Side::Trace2);
        QVERIFY(report.whereToLookFirst.front().kind != LookFirstKind::Fusion);

        // The Operations table's "Could save" and the CSV's collective columns.
        const ReportTable table = reportTable(ReportTableId::OpFindings, report);
        for (const TableColumn& column : table.columns) {
            if (column.key == "saving_us")
                QCOMPARE(std::get<double>(column.value(0)), 15.0);
            if (column.key == "trace1_collective_us")
                QCOMPARE(std::get<double>(column.value(0)), 10040.0);
        }
    }

    void kernelCountsThatDifferOnlyInCollectivesAreNoFinding()
    {
        // A runs an all-reduce in its graph, B none (B reduces outside the graph, or not at all):
        // the same work otherwise. No fusion finding, no fusion entry; collectives in the waterfall.
        const FusionReport report = allReduceOnAOnly(20);
        QVERIFY(report.opFindings.empty());
        for (const LookFirstEntry& entry : report.whereToLookFirst)
            QVERIFY2(entry.kind != LookFirstKind::Fusion, entry.title.c_str());
        const TimeGapPart* collectives = partOf(report.timeGap.kernelTime, GapCause::Collectives);
        QVERIFY(collectives);
        QCOMPARE(collectives->deltaUs, 10040.0);
        const TimeGapPart* fusion = partOf(report.timeGap.kernelTime, GapCause::Fusion);
        QVERIFY(!fusion || fusion->deltaUs == 0);

        // The reference analysis counts A's all-reduces per group: a Communication opportunity, which
        // every view calls a collective difference, never "fused by".
        QCOMPARE(report.opportunities.size(), size_t(1));
        QCOMPARE(report.typeName(report.opportunities[0].kernelType), std::string("Communication"));
        const ReportTable table = reportTable(ReportTableId::FusionOpportunities, report);
        for (const TableColumn& column : table.columns) {
            if (column.key == "fused_by_side")
                QCOMPARE(std::get<std::string>(column.shown(0)), std::string(kCollectiveNotFusion));
        }
        const std::string summary = reportSummary(report);
        QVERIFY2(summary.find("Communication: 3 vs 0 kernels (ratio inf), a collective difference, not fusion")
                != std::string::npos,
            summary.c_str());
        QVERIFY(reportToMarkdown(report).find("| a collective difference, not fusion |") != std::string::npos);
    }

    void theSpeedOfADroppedFindingsOtherKernelsHasAnEntry()
    {
        // As above, but B's GEMM takes 30 us a launch against A's 20: with the finding dropped (only the
        // all-reduce differs in count), the 30 us the waterfall counts as speed is an entry of its own.
        const FusionReport report = allReduceOnAOnly(30);
        QVERIFY(report.opFindings.empty());
        const TimeGapPart* speed = partOf(report.timeGap.kernelTime, GapCause::Speed);
        QVERIFY(speed);
        QCOMPARE(speed->deltaUs, -30.0); // A - B
        const LookFirstEntry* entry = nullptr;
        for (const LookFirstEntry& candidate : report.whereToLookFirst) {
            QVERIFY2(candidate.kind != LookFirstKind::Fusion, candidate.title.c_str());
            if (candidate.kind == LookFirstKind::Speed)
                entry = &candidate;
        }
        QVERIFY(entry);
        QVERIFY2(entry->op.starts_with("graph "), entry->op.c_str());
        QCOMPARE(entry->stakeUs, -speed->deltaUs);
        QCOMPARE(entry->slowerSide, Side::Trace2);
        QCOMPARE(entry->timeUs, (std::array<double, 2> { 120.0, 150.0 }));
    }
};

QTEST_GUILESS_MAIN(TestCollectiveFindings)
#include "tst_collectivefindings.moc"
