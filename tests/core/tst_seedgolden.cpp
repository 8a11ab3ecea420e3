// The analysis against the seed itself: tests/data/golden/*.json are the seed's
// analyze_fusion_differences on real and hand-made trace pairs (tests/golden/regenerate.sh runs it).
// Given the same classification (the "seed" rule file), every count, ratio, time, opportunity and
// mapping must be the same. Only what the seed leaves to chance (the order of Python sets) and its
// documented defects (docs/seed-differences.md) are normalised before comparing.

#include "classify/classifier.h"
#include "fusionanalysis.h"
#include "load/traceloader.h"
#include "testdata.h"
#include "util/textformat.h"

#include <QFile>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <simdjson.h>

using namespace fusiondiff;

namespace {

std::string number(double value)
{
    return std::isinf(value) ? std::string("inf") : shortestDouble(value);
}

// A golden number: a JSON number, or the string "Infinity" that run_seed.py writes for Python's inf.
std::string goldenNumber(simdjson::dom::element value)
{
    std::string_view text;
    if (!value.get_string().get(text))
        return text == "Infinity" ? "inf" : std::string(text);
    double real = 0;
    if (value.is_int64())
        return number(static_cast<double>(value.get_int64().value_unsafe()));
    if (!value.get_double().get(real))
        return number(real);
    return "?";
}

std::string goldenString(simdjson::dom::element value)
{
    std::string_view text;
    return value.get_string().get(text) ? std::string("?") : std::string(text);
}

struct Case
{
    QString name;
    int64_t minGroupSize;
    QString traceA;
    QString traceB;
};

std::vector<Case> goldenCases()
{
    std::vector<Case> cases;
    QFile file(test::dataPath(QStringLiteral("golden/cases.tsv")));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("missing golden/cases.tsv");
    while (!file.atEnd()) {
        const QString line = QString::fromUtf8(file.readLine()).trimmed();
        if (line.isEmpty() || line.startsWith(QLatin1Char('#')))
            continue;
        const QStringList fields = line.split(QLatin1Char('\t'));
        cases.push_back({ fields[0], fields[1].toLongLong(), fields[2], fields[3] });
    }
    return cases;
}

class Canonical
{
public:
    Canonical(const FusionReport& report)
        : m_report(report)
    { }

    // Platforms stand in for the names the report gives each side, so that texts compare with the
    // seed's (which names sides by platform, or "Trace 1"/"Trace 2" in one branch).
    std::string platformOf(Side side) const { return platformName(m_report.traces[sideIndex(side)].platform); }
    std::string withPlatforms(std::string text) const
    {
        for (const Side side : { Side::Trace1, Side::Trace2 }) {
            const std::string& name = m_report.sideName(side);
            for (size_t at = text.find(name); at != std::string::npos; at = text.find(name, at + 1))
                text.replace(at, name.size(), platformOf(side));
        }
        return text;
    }

    std::vector<std::string> opportunities() const
    {
        std::vector<std::string> rows;
        for (const FusionOpportunity& o : m_report.opportunities) {
            rows.push_back(m_report.typeName(o.kernelType) + "|" + number(double(o.total[0])) + "|"
                + number(double(o.total[1])) + "|" + number(o.avgPerGroup[0]) + "|" + number(o.avgPerGroup[1]) + "|"
                + number(o.timeMs[0]) + "|" + number(o.timeMs[1]) + "|" + number(o.timeRatio) + "|" + number(o.ratio)
                + "|" + platformOf(o.fusedBy) + "|" + number(double(o.groupsAffected)) + "|"
                + number(double(o.totalGroups)));
        }
        std::sort(rows.begin(), rows.end());
        return rows;
    }

    std::vector<std::string> mappings() const
    {
        std::vector<std::string> rows;
        for (const FusionMapping& m : m_report.mappings) {
            std::string row = platformOf(m.fusedSide) + "|" + m_report.typeName(m.fusedKernelType) + "|"
                + number(double(m.fusedCount)) + "|" + platformOf(m.unfusedSide()) + "|";
            for (const CategoryId type : m.unfusedSequence)
                row += m_report.typeName(type) + ",";
            row += "|";
            auto counts = m.unfusedCountPerType;
            std::sort(counts.begin(), counts.end(),
                [&](const auto& x, const auto& y) { return m_report.typeName(x.first) < m_report.typeName(y.first); });
            for (const auto& [type, count] : counts)
                row += m_report.typeName(type) + "=" + number(double(count)) + ",";
            row += "|" + number(double(m.patternCount)) + "|" + number(m.patternConfidence) + "|"
                + withPlatforms(m.evidence) + "|"
                + (m.correlationGroup1
                        ? number(double(*m.correlationGroup1)) + "/" + number(double(*m.correlationGroup2))
                        : std::string("-"));
            rows.push_back(row);
        }
        std::sort(rows.begin(), rows.end());
        return rows;
    }

private:
    const FusionReport& m_report;
};

std::vector<std::string> goldenOpportunities(simdjson::dom::element golden, const Canonical& canonical)
{
    std::vector<std::string> rows;
    for (simdjson::dom::element o : golden["fusion_opportunities"].get_array()) {
        std::string fusedBy = goldenString(o["fused_by"]);
        if (fusedBy == "Trace 1")
            fusedBy = canonical.platformOf(Side::Trace1);
        else if (fusedBy == "Trace 2")
            fusedBy = canonical.platformOf(Side::Trace2);
        rows.push_back(goldenString(o["kernel_type"]) + "|" + goldenNumber(o["trace1_total"]) + "|"
            + goldenNumber(o["trace2_total"]) + "|" + goldenNumber(o["trace1_avg_per_group"]) + "|"
            + goldenNumber(o["trace2_avg_per_group"]) + "|" + goldenNumber(o["trace1_time_ms"]) + "|"
            + goldenNumber(o["trace2_time_ms"]) + "|" + goldenNumber(o["time_ratio"]) + "|" + goldenNumber(o["ratio"])
            + "|" + fusedBy + "|" + goldenNumber(o["groups_affected"]) + "|" + goldenNumber(o["total_groups"]));
    }
    std::sort(rows.begin(), rows.end());
    return rows;
}

std::vector<std::string> goldenMappings(simdjson::dom::element golden)
{
    std::vector<std::string> rows;
    for (simdjson::dom::element m : golden["fusion_mappings"].get_array()) {
        std::string row = goldenString(m["fused_platform"]) + "|" + goldenString(m["fused_kernel_type"]) + "|"
            + goldenNumber(m["fused_count"]) + "|" + goldenString(m["unfused_platform"]) + "|";
        for (simdjson::dom::element type : m["unfused_sequence"].get_array())
            row += goldenString(type) + ",";
        row += "|";
        std::vector<std::pair<std::string, std::string>> counts;
        for (auto field : m["unfused_count_per_type"].get_object())
            counts.emplace_back(std::string(field.key), goldenNumber(field.value));
        std::sort(counts.begin(), counts.end());
        for (const auto& [type, count] : counts)
            row += type + "=" + count + ",";
        simdjson::dom::element group1;
        const bool inGroup = !m["correlation_group_trace1"].get(group1);
        row += "|" + goldenNumber(m["pattern_count"]) + "|" + goldenNumber(m["pattern_confidence"]) + "|"
            + goldenString(m["evidence"]) + "|"
            + (inGroup ? goldenNumber(group1) + "/" + goldenNumber(m["correlation_group_trace2"]) : std::string("-"));
        rows.push_back(row);
    }
    std::sort(rows.begin(), rows.end());
    return rows;
}

void compareLists(const std::vector<std::string>& actual, const std::vector<std::string>& expected, const char* what)
{
    if (actual == expected)
        return;
    QString message = QStringLiteral("%1 differ from the seed's:").arg(QString::fromUtf8(what));
    for (const std::string& row : expected) {
        if (std::find(actual.begin(), actual.end(), row) == actual.end())
            message += QStringLiteral("\n  seed only: ") + QString::fromStdString(row);
    }
    for (const std::string& row : actual) {
        if (std::find(expected.begin(), expected.end(), row) == expected.end())
            message += QStringLiteral("\n  ours only: ") + QString::fromStdString(row);
    }
    QFAIL(qPrintable(message));
}

} // namespace

class TestSeedGolden : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void sameNumbersAsTheSeed_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<qlonglong>("minGroupSize");
        QTest::addColumn<QString>("traceA");
        QTest::addColumn<QString>("traceB");
        for (const Case& c : goldenCases())
            QTest::newRow(qPrintable(c.name)) << c.name << qlonglong(c.minGroupSize) << c.traceA << c.traceB;
    }

    void sameNumbersAsTheSeed()
    {
        QFETCH(QString, name);
        QFETCH(qlonglong, minGroupSize);
        QFETCH(QString, traceA);
        QFETCH(QString, traceB);

        const TraceStore a = loadTrace(test::dataPath(traceA).toStdString());
        const TraceStore b = loadTrace(test::dataPath(traceB).toStdString());
        AnalysisOptions options;
        options.minGroupSize = minGroupSize;
        const FusionReport report = analyzeFusion(a, b, Classifier::builtin("seed"), options);

        simdjson::dom::parser parser;
        const std::string goldenPath = test::dataPath(QStringLiteral("golden/%1.json").arg(name)).toStdString();
        simdjson::dom::element golden;
        QVERIFY2(!parser.load(goldenPath).get(golden), goldenPath.c_str());

        // metadata: the seed's seven keys.
        simdjson::dom::element metadata = golden["metadata"];
        QCOMPARE(report.traces[0].gpuName, goldenString(metadata["trace1_gpu"]));
        QCOMPARE(report.traces[1].gpuName, goldenString(metadata["trace2_gpu"]));
        QCOMPARE(number(double(report.traces[0].kernels)), goldenNumber(metadata["trace1_total_kernels"]));
        QCOMPARE(number(double(report.traces[1].kernels)), goldenNumber(metadata["trace2_total_kernels"]));
        QCOMPARE(number(double(report.traces[0].largeGroups)), goldenNumber(metadata["trace1_correlation_groups"]));
        QCOMPARE(number(double(report.traces[1].largeGroups)), goldenNumber(metadata["trace2_correlation_groups"]));
        QCOMPARE(number(double(report.groupPairs.size())), goldenNumber(metadata["matched_groups"]));

        // global_counts: the same types with the same counts and ratios.
        std::vector<std::string> expectedCounts;
        for (auto field : golden["global_counts"].get_object()) {
            expectedCounts.push_back(std::string(field.key) + "|" + goldenNumber(field.value["trace1_count"]) + "|"
                + goldenNumber(field.value["trace2_count"]) + "|" + goldenNumber(field.value["ratio"]));
        }
        std::vector<std::string> actualCounts;
        for (const TypeCount& counts : report.globalCounts) {
            actualCounts.push_back(report.typeName(counts.type) + "|" + number(double(counts.count[0])) + "|"
                + number(double(counts.count[1])) + "|" + number(counts.ratio()));
        }
        std::sort(expectedCounts.begin(), expectedCounts.end());
        std::sort(actualCounts.begin(), actualCounts.end());
        compareLists(actualCounts, expectedCounts, "global counts");

        const Canonical canonical(report);
        compareLists(canonical.opportunities(), goldenOpportunities(golden, canonical), "fusion opportunities");
        compareLists(canonical.mappings(), goldenMappings(golden), "fusion mappings");
        QCOMPARE(report.mappings.size(), golden["fusion_mappings"].get_array().size());
    }

    // The seed's own order of opportunities is the order of a Python set where impacts tie; ours
    // is fixed: impact, then kernels, then category order.
    void opportunitiesAreSortedByImpact()
    {
        const TraceStore a
            = loadTrace(test::dataPath(QStringLiteral("real/xdit_flux_aiter.mi300x.json.gz")).toStdString());
        const TraceStore b
            = loadTrace(test::dataPath(QStringLiteral("real/hta_trace_diff_test.v100.json.gz")).toStdString());
        const FusionReport report = analyzeFusion(a, b, Classifier::builtin("seed"), AnalysisOptions());
        QCOMPARE(report.opportunities.size(), size_t(11));
        for (size_t i = 1; i < report.opportunities.size(); ++i) {
            const FusionOpportunity& previous = report.opportunities[i - 1];
            const FusionOpportunity& current = report.opportunities[i];
            QVERIFY(previous.impact() >= current.impact());
            if (previous.impact() == current.impact())
                QVERIFY(previous.total[0] + previous.total[1] >= current.total[0] + current.total[1]);
        }
        QCOMPARE(report.typeName(report.opportunities.front().kernelType), std::string("Attention"));
    }
};

QTEST_GUILESS_MAIN(TestSeedGolden)
#include "tst_seedgolden.moc"
