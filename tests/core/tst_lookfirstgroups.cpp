// Where to look first, in groups: the entries that explain the gap first, those that work the other
// way (their slower side is the faster side overall) after them, each group by the time at stake.

#include "comparedpair.h"
#include "fusionanalysis.h"
#include "report/reportnotes.h"
#include "report/reporttimegap.h"
#include "report/reportwriters.h"

#include <QTest>

using namespace fusiondiff;
using namespace fusiondiff::test;

namespace {

const std::string kMul = "void at::native::vectorized_elementwise_kernel<4, at::native::MulFunctor<float>>";

size_t rankOf(const FusionReport& report, const std::string& op)
{
    for (size_t i = 0; i < report.whereToLookFirst.size(); ++i) {
        if (report.whereToLookFirst[i].op == op)
            return i;
    }
    return SIZE_MAX;
}

} // namespace

class TestLookFirstGroups : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void entriesAgainstTheGapRankAfterTheOthers()
    {
        // Per call: aten::linear A 25 µs, B 10 (A slower by 60 µs over 4 calls); aten::layer_norm A 5,
        // B 27.5 (B slower by 90); aten::add A 5, B 17.5 (B slower by 50). B is slower overall by 80 µs,
        // and aten::linear's 60 µs, larger than aten::add's 50, works the other way.
        TraceWriter a, b;
        a.amd();
        b.nvidia();
        for (int call = 0; call < 4; ++call) {
            for (TraceWriter* writer : { &a, &b }) {
                const bool isA = writer == &a;
                writer->launch("aten::linear", { kGemm }, {}, isA ? 25 : 10);
                writer->launch("aten::layer_norm", { kNorm }, {}, isA ? 5 : 27.5);
                writer->launch("aten::add", { kAdd }, {}, isA ? 5 : 17.5);
            }
        }
        const FusionReport report = compareWritten(a, b);
        QCOMPARE(report.timeGap.headline().slowerSide(), Side::Trace2);
        const size_t norm = rankOf(report, "aten::layer_norm");
        const size_t add = rankOf(report, "aten::add");
        const size_t linear = rankOf(report, "aten::linear");
        QVERIFY(linear != SIZE_MAX);
        QCOMPARE(norm, size_t(0));
        QVERIFY(add < linear);
        const LookFirstEntry& against = report.whereToLookFirst[linear];
        QVERIFY(against.againstGap);
        QVERIFY(against.stakeUs > report.whereToLookFirst[add].stakeUs);
        QCOMPARE(std::string(lookFirstGroupKey(against)), std::string("against_gap"));
        QCOMPARE(std::string(lookFirstGroupKey(report.whereToLookFirst[norm])), std::string("explains_gap"));
        for (size_t i = 0; i < linear; ++i)
            QVERIFY(!report.whereToLookFirst[i].againstGap);

        const std::string json = reportToJson(report);
        QVERIFY(json.find(R"("group": "against_gap")") != std::string::npos);
        const std::string summary = reportSummary(report);
        const size_t heading = summary.find("Working the other way (AMD is slower in these, NVIDIA overall):");
        QVERIFY2(heading != std::string::npos, summary.c_str());
        QVERIFY(heading > summary.find("aten::add"));
        QVERIFY(heading < summary.find("aten::linear"));
        QVERIFY(reportToMarkdown(report).find("Working the other way") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestLookFirstGroups)
#include "tst_lookfirstgroups.moc"
