#include "classify/classifier.h"
#include "comparedpair.h"
#include "fusionanalysis.h"
#include "load/traceloader.h"
#include "report/csvwriter.h"
#include "report/jsonwriter.h"
#include "report/layersmarkdown.h"
#include "report/reportwriters.h"
#include "testdata.h"
#include "tracewriter.h"
#include "util/textformat.h"

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

const std::string kNvGemm = "nvjet_tst_128x64_64x4_2x1_v_bz_TNT";

// Two steps of four decoder layers (norm, GEMM + ReLU, add); B's GEMM has another name and fuses
// the ReLU in layer 2 only. Layer i's kernels take durations[i] on both sides.
FusionReport layeredPair(const std::array<double, 4>& durations)
{
    TraceWriter a, b;
    a.amd();
    b.nvidia();
    for (int step = 0; step < 2; ++step) {
        for (TraceWriter* writer : { &a, &b }) {
            const bool nvidia = writer == &b;
            writer->beginStep("ProfilerStep#" + std::to_string(step));
            writer->launch("aten::embedding", { test::kAdd });
            for (size_t i = 0; i < durations.size(); ++i) {
                writer->beginCall("DecoderLayer_" + std::to_string(i));
                writer->launch("aten::layer_norm", { test::kNorm }, {}, durations[i]);
                if (nvidia && i == 2)
                    writer->launch("aten::linear", { test::kGemmRelu }, {}, durations[i]);
                else
                    writer->launch("aten::linear", { nvidia ? kNvGemm : test::kGemm, test::kRelu }, {}, durations[i]);
                writer->launch("aten::add", { test::kAdd }, {}, durations[i]);
                writer->endCall();
            }
            writer->endStep();
        }
    }
    return test::compareWritten(a, b);
}

// The lines of `markdown` from the heading `section` to the next heading.
std::string section(const std::string& markdown, const std::string& heading)
{
    const size_t begin = markdown.find("\n## " + heading + "\n");
    if (begin == std::string::npos)
        return {};
    const size_t end = markdown.find("\n## ", begin + 1);
    return markdown.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
}

LayerTimes layerTimes(uint32_t index, std::array<uint64_t, 2> kernels, std::array<double, 2> timeUs)
{
    return { .index = index, .calls = { 1, 1 }, .kernels = kernels, .timeUs = timeUs, .phase = "phase 1" };
}

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

    void aValueThatRoundsToZeroHasNoSign()
    {
        // Sums that cancel leave residues such as -1e-12; "-0.0 us" in a report reads as a loss.
        QCOMPARE(QString::fromStdString(fixed(-1e-12, 1)), QStringLiteral("0.0"));
        QCOMPARE(QString::fromStdString(fixed(-0.04, 1)), QStringLiteral("0.0"));
        QCOMPARE(QString::fromStdString(formatDuration(-0.01)), QStringLiteral("0.0 us"));
        QCOMPARE(QString::fromStdString(fixed(-0.06, 1)), QStringLiteral("-0.1"));
        QCOMPARE(QString::fromStdString(formatDuration(-350)), QStringLiteral("-350 us"));
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
                "collective_calls", "layer_times", "step_times", "host_time", "efficiency" }));
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

    void markdownLayersFoldLayersThatLookAlike()
    {
        // Layers 0, 1 and 3 launch the same kernels for the same time; layer 2 differs (B fuses).
        const FusionReport report = layeredPair({ 3, 3, 3, 3 });
        QCOMPARE(report.layerTimes.size(), size_t(4));
        const std::string markdown = reportToMarkdown(report);
        const std::string layers = section(markdown, "Layers");
        QVERIFY2(layers.find("the 4 calls a step of nn.Module: DecoderLayer on each side were paired in order")
                != std::string::npos,
            layers.c_str());
        QVERIFY(layers.find("(8 calls compared on each side)") != std::string::npos);
        QVERIFY(layers.find("share a row, such as 0\u2013"
                            "1,")
            != std::string::npos);
        QVERIFY(layers.find("the 4 layers fold into 3 rows") != std::string::npos);
        QVERIFY(layers.find("every layer is in the layer\\_times table") != std::string::npos);
        // Per layer: 2 calls of 4 kernels of 3 us on each side; B's layer 2 has one kernel fewer.
        QVERIFY(layers.find("| 0\u2013"
                            "1 | 2 | 2 | 8 | 8 | 24.0 us | 24.0 us | 0 us |\n"
                            "| 2 | 2 | 2 | 8 | 6 | 24.0 us | 18.0 us | -6.0 us |\n"
                            "| 3 | 2 | 2 | 8 | 8 | 24.0 us | 24.0 us | 0 us |\n"
                            "| All 4 | 8 | 8 | 32 | 30 | 96.0 us | 90.0 us | -6.0 us |\n")
            != std::string::npos);
        // The finding's layers have a column of their own.
        const std::string findings = section(markdown, "Operations that run a different number of kernels");
        QVERIFY(findings.find("| Operation | Layers | Fused by |") != std::string::npos);
        QVERIFY2(findings.find("| aten::linear | 2 | NVIDIA | 2 | 2 | 1 |") != std::string::npos, findings.c_str());
    }

    void markdownLayersThatDifferKeepARowEach()
    {
        // Each layer takes twice as long as the one before: no two fold.
        const FusionReport report = layeredPair({ 3, 6, 12, 24 });
        const std::string layers = section(reportToMarkdown(report), "Layers");
        QVERIFY(layers.find("One row per layer (its index in the step)") != std::string::npos);
        QVERIFY(layers.find("fold into") == std::string::npos);
        QVERIFY(layers.find("| 0 | 2 | 2 | 8 | 8 | 24.0 us | 24.0 us | 0 us |\n| 1 | 2 | 2 | 8 | 8 | 48.0 us |")
            != std::string::npos);
        QVERIFY(layers.find("| 2 | 2 | 2 | 8 | 6 | 96.0 us | 72.0 us | -24.0 us |\n| 3 |") != std::string::npos);
    }

    void layersFoldWithinTheToleranceOfTheRunsAverage()
    {
        // 109 and 95 are within 10% of the average so far (100, then 104.5); 120 is not, nor is a
        // layer with another kernel count at the same time.
        const std::vector<LayerTimes> layers { layerTimes(0, { 5, 5 }, { 100, 50 }),
            layerTimes(1, { 5, 5 }, { 109, 50 }), layerTimes(2, { 5, 5 }, { 95, 52 }),
            layerTimes(3, { 5, 5 }, { 120, 50 }), layerTimes(4, { 5, 6 }, { 120, 50 }) };
        const std::vector<LayerRun> runs = foldLayers(layers);
        QCOMPARE(runs.size(), size_t(3));
        QCOMPARE(runs[0].first, 0u);
        QCOMPARE(runs[0].last, 2u);
        QCOMPARE(runs[0].meanUs[0], (100.0 + 109 + 95) / 3);
        QCOMPARE(runs[0].totalDifferenceUs, -50.0 - 59 - 43);
        QCOMPARE(runs[1].layers(), 1u);
        QCOMPARE(runs[2].first, 4u);
        QCOMPARE(runs[2].kernels[1], uint64_t(6));
        // B's time counts as much as A's.
        QCOMPARE(foldLayers({ layerTimes(0, { 5, 5 }, { 100, 50 }), layerTimes(1, { 5, 5 }, { 100, 56 }) }).size(),
            size_t(2));
    }

    void markdownLayersShowTheRowsThatDifferMostWhenMany()
    {
        // 30 layers that alternate kernel counts (none fold), layer i B + i us: the 20 shown are
        // 10-29, in layer order.
        FusionReport report = Pair().report;
        report.opAlignment.layers = { .unit = { "nn.Module: Block", "nn.Module: VendorBlock" },
            .perStep = 30,
            .calls = { 30, 30 },
            .share = { 0.9, 0.8 },
            .matched = 120 };
        for (uint32_t i = 0; i < 30; ++i)
            report.layerTimes.push_back(layerTimes(i, { 10, 10 + i % 2 }, { 100, 100.0 + i }));
        const std::string layers = section(reportToMarkdown(report), "Layers");
        QVERIFY2(layers.find("A's 30 calls a step of nn.Module: Block and B's 30 of nn.Module: VendorBlock")
                != std::string::npos,
            layers.c_str());
        QVERIFY(layers.find("90% of A's compared operations and 80% of B's run inside a layer; 120 operation pairs")
            != std::string::npos);
        QVERIFY(
            layers.find("Shown: the 20 rows whose layers differ most in total, in layer order") != std::string::npos);
        QVERIFY(layers.find("\n| 9 |") == std::string::npos);
        QVERIFY(layers.find("\n| 10 | 1 | 1 | 10 | 10 | 100 us | 110 us | +10.0 us |\n| 11 |") != std::string::npos);
        QVERIFY(layers.find("\n| 29 | 1 | 1 | 10 | 11 | 100 us | 129 us | +29.0 us |\n"
                            "| All 30 | 30 | 30 | 300 | 315 | 3.0 ms | 3.4 ms | +435 us |\n")
            != std::string::npos);
    }

    void markdownMatchedKernels()
    {
        const std::string markdown = reportToMarkdown(layeredPair({ 3, 3, 3, 3 }));
        const std::string matched = section(markdown, "Matched kernels");
        QVERIFY2(matched.find("| A kernel | B kernel | Type | Pairs | A total | B total | B \u2212 A |")
                != std::string::npos,
            markdown.c_str());
        QVERIFY(matched.find("Every pair of names") != std::string::npos);
        // Six GEMMs a step (layers 0, 1 and 3, in two steps) under two names.
        QVERIFY2(
            matched.find(
                "| Cijk\\_Alik\\_Bljk\\_BBS\\_MT128x128\\_gemm | nvjet\\_tst\\_128x64\\_64x4\\_2x1\\_v\\_bz\\_TNT | "
                "GEMM | 6 | 18.0 us | 18.0 us | 0 us |")
                != std::string::npos,
            matched.c_str());
    }

    void markdownMatchedKernelNamesAreShortened()
    {
        // The parameter list goes, a parenthesis after a space stays, and names are cut at 100
        // characters; past the first 15 pairs a line points to the CSV.
        FusionReport report = Pair().report;
        report.matchedKernels.clear();
        const std::string longName = "void k<" + std::string(120, 'x') + ">(int, float)";
        for (int i = 0; i < 17; ++i) {
            report.matchedKernels.push_back({ .names
                = { i == 0 ? longName : "void k<" + std::to_string(i) + ">(int)", "Memcpy DtoD (Device -> Device)" },
                .pairs = 2,
                .timeUs = { 40.0 - i, 10 } });
        }
        const std::string matched = section(reportToMarkdown(report), "Matched kernels");
        QVERIFY(matched.find("The 15 pairs of names (of 17) whose totals differ most") != std::string::npos);
        QVERIFY(matched.find("| void k\\<" + std::string(93, 'x') + "\u2026 | Memcpy DtoD (Device -\\> Device) |")
            != std::string::npos);
        QVERIFY(matched.find("| void k\\<1\\> | Memcpy") != std::string::npos);
        QVERIFY(matched.find("| -30.0 us |") != std::string::npos);
        QVERIFY(matched.find("k\\<15\\>") == std::string::npos);
        QVERIFY(matched.find("2 more pairs of names are in the matched\\_kernels table") != std::string::npos);
    }

    void markdownWithoutLayersOrMatchedKernels()
    {
        FusionReport report = Pair().report;
        QVERIFY(report.layerTimes.empty());
        report.matchedKernels.clear();
        const std::string markdown = reportToMarkdown(report);
        QVERIFY(markdown.find("## Layers") == std::string::npos);
        QVERIFY(markdown.find("## Matched kernels") == std::string::npos);
        QVERIFY(markdown.find("| Layers |") == std::string::npos);
    }

    void markdownOfTheSamplePair()
    {
        // Qwen1.5-0.5B-Chat on MI300X and H100: 24 decoder layers that look alike, one finding in
        // all of them, and matched kernels.
        const FusionReport report = analyzeFusion(loadTrace(test::sampleA().toStdString()),
            loadTrace(test::sampleB().toStdString()), Classifier::builtin("default"), {});
        const std::string markdown = reportToMarkdown(report);
        const std::string layers = section(markdown, "Layers");
        QVERIFY2(layers.find("the 24 calls a step of nn.Module: Qwen2DecoderLayer on each side") != std::string::npos,
            layers.c_str());
        QVERIFY(layers.find("All 24 layers look alike") != std::string::npos);
        QVERIFY(layers.find("\n| 0\u2013"
                            "23 | 1 | 1 | 43 | 42 |")
            != std::string::npos);
        QVERIFY(layers.find("\n| All 24 | 24 | 24 | 1,032 | 1,008 |") != std::string::npos);
        QVERIFY(section(markdown, "Operations that run a different number of kernels")
                    .find("| aten::scaled\\_dot\\_product\\_attention | 0\u2013"
                          "23 |")
            != std::string::npos);
        QVERIFY(section(markdown, "Matched kernels").find("| attn\\_fwd | void pytorch\\_flash::flash\\_fwd\\_kernel")
            != std::string::npos);
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
