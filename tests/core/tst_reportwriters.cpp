#include "classify/classifier.h"
#include "fusionanalysis.h"
#include "load/traceloader.h"
#include "report/csvwriter.h"
#include "report/jsonwriter.h"
#include "report/reportwriters.h"
#include "testdata.h"
#include "tracewriter.h"

#include <QTemporaryDir>
#include <QTest>

#include <simdjson.h>

using namespace fusiondiff;
using test::TraceWriter;

namespace {

// A small RFC 4180 reader, to check that what the writer quotes reads back unchanged.
std::vector<std::vector<std::string>> parseCsv(const std::string& text)
{
    std::vector<std::vector<std::string>> records;
    std::vector<std::string> record;
    std::string field;
    bool quoted = false;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
                field.push_back('"');
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                field.push_back(c);
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            record.push_back(field);
            field.clear();
        } else if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') {
            record.push_back(field);
            field.clear();
            records.push_back(record);
            record.clear();
            ++i;
        } else {
            field.push_back(c);
        }
    }
    return records;
}

const std::string kAwkwardName = "void k<a, b>(\"x\", y|z)\n,\xc3\xa9 \xf0\x9f\x9a\x80";

struct Pair
{
    QTemporaryDir dir;
    TraceStore a;
    TraceStore b;
    FusionReport report;

    Pair()
    {
        TraceWriter x, y;
        x.amd().kernels("memcpy_kernel", 120).kernels(kAwkwardName, 3);
        y.nvidia().kernels("memcpy_kernel", 30).kernels(kAwkwardName, 1);
        a = loadTrace(x.write(dir, QStringLiteral("a, \"odd\".json")).toStdString());
        b = loadTrace(y.write(dir, QStringLiteral("b.json")).toStdString());
        report = analyzeFusion(a, b, Classifier::builtin("seed"), {});
    }
};

} // namespace

class TestReportWriters : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void csvQuoting()
    {
        QCOMPARE(csvQuoted("plain"), std::string("plain"));
        QCOMPARE(csvQuoted("a,b"), std::string("\"a,b\""));
        QCOMPARE(csvQuoted("say \"hi\""), std::string("\"say \"\"hi\"\"\""));
        QCOMPARE(csvQuoted("two\nlines"), std::string("\"two\nlines\""));
        QCOMPARE(csvQuoted(" padded"), std::string("\" padded\""));
        CsvWriter csv;
        csv.field("x").field(1.5).field(int64_t(-3)).field(std::numeric_limits<double>::infinity()).empty();
        csv.endRecord();
        QCOMPARE(csv.text(), std::string("x,1.5,-3,inf,\r\n"));
    }

    void jsonEscapingAndNumbers()
    {
        JsonWriter json;
        json.beginObject();
        json.field("s", std::string_view("q\"b\\n\n\x01\xc3\xa9"));
        json.field("inf", std::numeric_limits<double>::infinity());
        json.field("tenth", 0.1);
        json.field("big", 1e16);
        json.field("int", int64_t(42));
        json.key("empty");
        json.beginArray();
        json.endArray();
        json.endObject();
        const std::string text = json.finish();
        simdjson::dom::parser parser;
        simdjson::dom::element root;
        QVERIFY(!parser.parse(text).get(root));
        QCOMPARE(std::string(root["s"].get_string().value()), std::string("q\"b\\n\n\x01\xc3\xa9"));
        QVERIFY(root["inf"].is_null());
        QCOMPARE(root["tenth"].get_double().value(), 0.1);
        QCOMPARE(root["big"].get_double().value(), 1e16);
        QCOMPARE(root["int"].get_int64().value(), int64_t(42));
    }

    void jsonReportHasTheSeedKeysAndNoInfinity()
    {
        const Pair pair;
        const std::string text = reportToJson(pair.report);
        QVERIFY(text.find("Infinity") == std::string::npos);
        simdjson::dom::parser parser;
        simdjson::dom::element root;
        QVERIFY(!parser.parse(text).get(root));
        for (const char* key : { "metadata", "global_counts", "fusion_opportunities", "fusion_mappings", "traces",
                 "classifier", "options", "correlation_groups", "kernels" })
            QVERIFY2(!root[key].error(), key);
        for (const char* key : { "trace1_gpu", "trace2_gpu", "trace1_total_kernels", "trace2_total_kernels",
                 "trace1_correlation_groups", "trace2_correlation_groups", "matched_groups", "trace1_label",
                 "trace2_label", "trace1_platform", "trace2_platform", "classifier", "tool_version" })
            QVERIFY2(!root["metadata"][key].error(), key);
        QCOMPARE(std::string(root["metadata"]["trace1_label"].get_string().value()),
            std::string("a, \"odd\" (AMD Instinct MI300X)"));
        // 3 vs 1 kernels of the awkward name: its ratio is finite; Other has no trace2 time -> null time_ratio.
        simdjson::dom::element opportunity = root["fusion_opportunities"].at(0);
        QCOMPARE(std::string(opportunity["kernel_type"].get_string().value()), std::string("MemCopy"));
        QCOMPARE(std::string(opportunity["fused_by"].get_string().value()), std::string("NVIDIA"));
        QCOMPARE(std::string(opportunity["fused_by_trace"].get_string().value()), std::string("trace2"));
        QCOMPARE(root["fusion_opportunities"].get_array().size(), pair.report.opportunities.size());
        QCOMPARE(root["kernels"].get_array().size(), size_t(2));
        bool found = false;
        for (simdjson::dom::element kernel : root["kernels"].get_array())
            found = found || kernel["name"].get_string().value() == kAwkwardName;
        QVERIFY(found);
        QCOMPARE(root["options"]["min_group_size"].get_int64().value(), int64_t(50));
        // Ratio of a type trace 2 lacks is null, not Infinity.
        TraceWriter x, y;
        QTemporaryDir dir;
        x.amd().kernels("memcpy_kernel", 5);
        y.nvidia().kernels("nvjet_gemm", 5);
        const TraceStore a = loadTrace(x.write(dir, QStringLiteral("x.json")).toStdString());
        const TraceStore b = loadTrace(y.write(dir, QStringLiteral("y.json")).toStdString());
        simdjson::dom::parser second;
        simdjson::dom::element counts;
        QVERIFY(!second.parse(reportToJson(analyzeFusion(a, b, Classifier::builtin("seed"), {}))).get(counts));
        QVERIFY(counts["global_counts"]["MemCopy"]["ratio"].is_null());
        QCOMPARE(counts["global_counts"]["GEMM"]["ratio"].get_double().value(), 0.0);
    }

    void csvTablesRoundTrip()
    {
        const Pair pair;
        const std::vector<CsvTable> tables = reportToCsv(pair.report);
        std::vector<std::string> names;
        for (const CsvTable& table : tables)
            names.push_back(table.name);
        QCOMPARE(names,
            (std::vector<std::string> { "traces", "global_counts", "fusion_opportunities", "fusion_mappings",
                "op_findings", "op_summary", "extra_kernels", "collectives", "graph_kinds", "graph_pairs",
                "graph_coverage", "matched_groups", "kernels", "matched_kernels", "time_gap", "where_to_look_first",
                "collective_calls", "layer_times" }));
        for (const CsvTable& table : tables) {
            const auto records = parseCsv(table.text);
            QVERIFY(!records.empty());
            for (const auto& record : records)
                QCOMPARE(record.size(), records.front().size());
        }
        const auto kernels = parseCsv(
            std::find_if(tables.begin(), tables.end(), [](const CsvTable& t) { return t.name == "kernels"; })->text);
        QCOMPARE(kernels.size(), size_t(3));
        QCOMPARE(kernels[0],
            (std::vector<std::string> {
                "name", "type", "trace1_count", "trace2_count", "trace1_time_us", "trace2_time_us" }));
        QCOMPARE(kernels[2][0], kAwkwardName);
        QCOMPARE(kernels[2][2], std::string("3"));
        const auto traces = parseCsv(tables.front().text);
        QCOMPARE(traces[1][1], std::string("a, \"odd\" (AMD Instinct MI300X)"));
        const auto mappings = parseCsv(tables[3].text);
        QCOMPARE(mappings.size(), pair.report.mappings.size() + 1);
    }

    void markdownAndSummaryName()
    {
        const Pair pair;
        const std::string markdown = reportToMarkdown(pair.report);
        QVERIFY(markdown.starts_with("# FusionDiff report"));
        QVERIFY(markdown.find("## Fusion opportunities") != std::string::npos);
        // Table cells escape the pipe and Markdown's emphasis characters; a newline becomes a space.
        QVERIFY(markdown.find("void k\\<a, b\\>(\"x\", y\\|z) ,\xc3\xa9") != std::string::npos);
        QVERIFY(markdown.find("a, \"odd\" (AMD Instinct MI300X)") != std::string::npos);
        const std::string summary = reportSummary(pair.report);
        QVERIFY(summary.find("Where to look first:") != std::string::npos);
        QVERIFY(summary.find("MemCopy: 120 vs 30 kernels (ratio 4.0), fused by NVIDIA") != std::string::npos);
    }

    // "138.694 ms vs 0.000 ms" read as if the other side were infinitely fast: it runs none of them.
    void opportunityTimesSayWhichSideHasNoSuchKernels()
    {
        FusionReport report;
        report.sideNames = { "AMD", "NVIDIA" };
        FusionOpportunity opportunity;
        opportunity.total = { 120, 0 };
        opportunity.timeMs = { 138.694, 0 };
        QCOMPARE(opportunityTimeText(report, opportunity), std::string("139 ms on AMD; NVIDIA has no such kernels"));
        opportunity.total = { 0, 7 };
        opportunity.timeMs = { 0, 0.35 };
        QCOMPARE(opportunityTimeText(report, opportunity), std::string("350 us on NVIDIA; AMD has no such kernels"));
        opportunity.total = { 120, 30 };
        opportunity.timeMs = { 12.4, 4.56 };
        QCOMPARE(opportunityTimeText(report, opportunity), std::string("12.4 ms on AMD vs 4.6 ms on NVIDIA"));
        // The text summary says it so.
        const Pair pair;
        const std::string summary = reportSummary(pair.report);
        QVERIFY(summary.find(" ms vs 0.000 ms") == std::string::npos);
        QVERIFY(summary.find(" on AMD") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestReportWriters)
#include "tst_reportwriters.moc"
