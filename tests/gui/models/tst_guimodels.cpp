// The desktop application's models on reports of real trace pairs: every model and proxy under
// QAbstractItemModelTester, rows as in the report, numbers sorted as numbers, filtering, the
// operation findings with their kernels side by side, and the group drill-down's alignment of two
// kernel sequences (the core's).

#include "guitestsupport.h"

#include "classify/classifier.h"
#include "display/colors.h"
#include "display/formatting.h"
#include "display/kernelnames.h"
#include "fusionanalysis.h"
#include "load/traceloader.h"
#include "model/fusionreport.h"
#include "models/findingalignmentmodel.h"
#include "models/groupdiffmodel.h"
#include "models/reportcolumnsmodel.h"
#include "models/tablefilterproxy.h"
#include "models/tracesummarymodel.h"
#include "models/unmatchedgroupsmodel.h"
#include "ops/alignment/sequencealignment.h"
#include "ops/comparison/groupdiff.h"
#include "pages/findingdetails.h"
#include "pages/tablepage.h"
#include "widgets/filterlineedit.h"

#include <QAbstractItemModelTester>
#include <QHeaderView>
#include <QRandomGenerator>
#include <QTableView>
#include <QTest>

#include <cmath>
#include <limits>
#include <memory>

using namespace fusiondiff;
using namespace fusiondiff::ui;

namespace {

// The index of the column `key` of `table` as the app shows it.
int columnOf(ReportTableId table, const char* key)
{
    return ReportColumnsModel(table).column(key);
}

struct Pair
{
    std::shared_ptr<const TraceStore> a;
    std::shared_ptr<const TraceStore> b;
    std::shared_ptr<const Classifier> classifier;
    std::shared_ptr<const FusionReport> report;
};

// Compares the traces `a` and `b` (paths).
Pair analysePaths(const QString& a, const QString& b, const char* classifier, AnalysisOptions options = {})
{
    Pair pair;
    pair.a = std::make_shared<const TraceStore>(loadTrace(a.toStdString()));
    pair.b = std::make_shared<const TraceStore>(loadTrace(b.toStdString()));
    pair.classifier = std::make_shared<const Classifier>(Classifier::builtin(classifier));
    pair.report = std::make_shared<const FusionReport>(analyzeFusion(*pair.a, *pair.b, *pair.classifier, options));
    return pair;
}

// Compares two traces of tests/data/real.
Pair analyse(const QString& a, const QString& b, const char* classifier)
{
    return analysePaths(test::realTrace(a), test::realTrace(b), classifier);
}

// The proxy's column `column` read in view order through `role`.
QVariantList columnValues(const QAbstractItemModel& model, int column, int role)
{
    QVariantList values;
    for (int row = 0; row < model.rowCount(); ++row)
        values.append(model.index(row, column).data(role));
    return values;
}

// Each index of both sequences appears once, in order, and no row is empty: "" if so, else what
// is wrong (for QCOMPARE, which fails the test function rather than the whole binary).
QString alignmentError(const std::vector<AlignedPair>& rows, size_t a, size_t b)
{
    int64_t nextA = 0;
    int64_t nextB = 0;
    for (const AlignedPair& row : rows) {
        if (row.first < 0 && row.second < 0)
            return QStringLiteral("an empty row");
        if (row.first >= 0 && row.first != nextA++)
            return QStringLiteral("A out of order at %1").arg(row.first);
        if (row.second >= 0 && row.second != nextB++)
            return QStringLiteral("B out of order at %1").arg(row.second);
    }
    if (static_cast<size_t>(nextA) != a || static_cast<size_t>(nextB) != b)
        return QStringLiteral("not every kernel is shown");
    return {};
}

// A report built by hand with the cases real traces rarely show: a type only one side runs
// (infinite and zero ratios), a value that is not a number, an operation without time on either
// side, a collective on one side only.
std::shared_ptr<const FusionReport> edgeCaseReport()
{
    constexpr double inf = std::numeric_limits<double>::infinity();
    constexpr double nan = std::numeric_limits<double>::quiet_NaN();
    auto report = std::make_shared<FusionReport>();
    report->classifier.name = "hand-built";
    report->classifier.categories = { "GEMM", "Attention", "Other" };
    report->classifier.fallback = 2;
    report->sideNames = { "AMD", "NVIDIA" };
    report->traces[0].label = "a";
    report->traces[1].label = "b";
    report->globalCounts
        = { { 0, { 10, 0 }, { 50.0, 0.0 } }, { 1, { 4, 4 }, { 8.0, 12.0 } }, { 2, { 0, 3 }, { 0.0, 6.0 } } };
    report->kernels
        = { { "gemm_only_in_a", 0, { 10, 0 }, { 50.0, 0.0 } }, { "other_only_in_b", 2, { 0, 3 }, { 0.0, 6.0 } } };
    FusionOpportunity onlyA;
    onlyA.kernelType = 0;
    onlyA.total = { 10, 0 };
    onlyA.avgPerGroup = { nan, 0.0 };
    onlyA.timeMs = { 0.05, 0.0 };
    onlyA.timeRatio = inf;
    onlyA.ratio = inf;
    onlyA.fusedBy = Side::Trace2;
    onlyA.source = OpportunitySource::GlobalCounts;
    FusionOpportunity finite = onlyA;
    finite.kernelType = 1;
    finite.total = { 8, 4 };
    finite.avgPerGroup = { 2.0, 1.0 };
    finite.timeRatio = 0.5;
    finite.ratio = 2.0;
    report->opportunities = { onlyA, finite };
    OpSummary noTime;
    noTime.op = "aten::empty";
    noTime.occurrences = 3;
    OpSummary onlyATime;
    onlyATime.op = "aten::copy_";
    onlyATime.occurrences = 2;
    onlyATime.timeUs[0] = { 2, 7.0, 3.5, 3.0, 4.0 };
    OpSummary both;
    both.op = "aten::linear";
    both.occurrences = 1;
    both.timeUs = { Spread { 1, 4.0, 4.0, 4.0, 4.0 }, Spread { 1, 2.0, 2.0, 2.0, 2.0 } };
    report->opSummary = { noTime, onlyATime, both };
    report->extraKernels = { { 1, { 5, 0 }, { 9.0, 0.0 } } };
    report->collectives = { { "AllReduce", { 0, 12 }, { 0.0, 30.0 }, { "", "NCCL" } } };
    return report;
}

} // namespace

class TestGuiModels : public QObject
{
    Q_OBJECT

private:
    Pair m_graphs; // vLLM decode (MI300X, HIP graph) vs HTA (V100, CUDA graphs): a matched group pair
    Pair m_seed; // xDiT (MI300X) vs HTA, seed rules: many opportunities and mappings
    Pair m_qwen; // the bundled eager pair: one operation finding, many operations compared
    Pair m_owlv2; // eager, three operation findings
    Pair m_syntheticGraphs; // hand-made graph pair: graph findings whose runs repeat (x20)
    Pair m_graphCoverage; // vLLM full graph vs piecewise graphs: one graph covers several of the other's

private Q_SLOTS:
    void initTestCase()
    {
        m_graphs = analyse(QStringLiteral("vllm_decode_full_graph.mi300x.json.gz"),
            QStringLiteral("hta_trace_diff_test.v100.json.gz"), "default");
        m_seed = analyse(QStringLiteral("xdit_flux_aiter.mi300x.json.gz"),
            QStringLiteral("hta_trace_diff_test.v100.json.gz"), "seed");
        QVERIFY(!m_graphs.report->groupPairs.empty());
        QVERIFY(m_seed.report->opportunities.size() >= 5);
        QVERIFY(m_seed.report->mappings.size() >= 5);
        m_qwen = analysePaths(test::sampleA(), test::sampleB(), "default");
        m_owlv2 = analyse(QStringLiteral("owlv2-large-patch14-ensemble.mi300x.json.gz"),
            QStringLiteral("owlv2-large-patch14-ensemble.h100.json.gz"), "default");
        m_syntheticGraphs = analysePaths(test::dataPath(QStringLiteral("synthetic/graphs.amd.json")),
            test::dataPath(QStringLiteral("synthetic/graphs.nvidia.json")), "default");
        m_graphCoverage = analyse(QStringLiteral("vllm_decode_full_graph.mi300x.json.gz"),
            QStringLiteral("vllm_prefilldecode_piecewise_graph.mi300x.json.gz"), "default");
        QVERIFY(!m_graphCoverage.report->graphComparison.coverage.empty());
        QCOMPARE(m_qwen.report->opFindings.size(), size_t(1));
        QCOMPARE(m_owlv2.report->opFindings.size(), size_t(3));
        QVERIFY(!m_syntheticGraphs.report->opFindings.empty());
        QVERIFY(!m_seed.report->collectives.empty());
    }

    void everyModelAndProxyPassesTheTester_data()
    {
        QTest::addColumn<int>("model");
        for (int model = 0; model < 11; ++model)
            QTest::addRow("model %d", model) << model;
        // The tables the app does not show on a page of their own, through the same generic model.
        for (const ReportTableId table :
            { ReportTableId::GraphKinds, ReportTableId::GraphPairs, ReportTableId::GraphCoverage,
                ReportTableId::TimeGap, ReportTableId::WhereToLookFirst, ReportTableId::CollectiveCalls })
            QTest::addRow("%s", reportTableName(table)) << 100 + static_cast<int>(table);
    }

    void everyModelAndProxyPassesTheTester()
    {
        QFETCH(int, model);
        std::unique_ptr<ReportTableModel> source;
        switch (model) {
        case 0:
            source = std::make_unique<TraceSummaryModel>();
            break;
        case 1:
            source = std::make_unique<ReportColumnsModel>(ReportTableId::FusionOpportunities);
            break;
        case 2:
            source = std::make_unique<ReportColumnsModel>(ReportTableId::FusionMappings);
            break;
        case 3:
            source = std::make_unique<ReportColumnsModel>(ReportTableId::GlobalCounts);
            break;
        case 4:
            source = std::make_unique<ReportColumnsModel>(ReportTableId::Kernels);
            break;
        case 5:
            source = std::make_unique<ReportColumnsModel>(ReportTableId::MatchedGroups);
            break;
        case 6:
            source = std::make_unique<UnmatchedGroupsModel>();
            break;
        case 7:
            source = std::make_unique<ReportColumnsModel>(ReportTableId::OpFindings);
            break;
        case 8:
            source = std::make_unique<ReportColumnsModel>(ReportTableId::OpSummary);
            break;
        case 9:
            source = std::make_unique<ReportColumnsModel>(ReportTableId::ExtraKernels);
            break;
        case 10:
            source = std::make_unique<ReportColumnsModel>(ReportTableId::Collectives);
            break;
        default:
            source = std::make_unique<ReportColumnsModel>(static_cast<ReportTableId>(model - 100));
            break;
        }
        TableFilterProxy proxy;
        proxy.setSourceModel(source.get());
        QAbstractItemModelTester sourceTester(source.get(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        // Whole-report swaps, sorting and filtering, as the window does them.
        source->setReport(m_graphs.report);
        proxy.sort(1, Qt::DescendingOrder);
        source->setReport(m_seed.report);
        proxy.setFilterFixedString(QStringLiteral("a"));
        proxy.sort(0, Qt::AscendingOrder);
        proxy.setFilterFixedString(QString());
        source->setReport(m_owlv2.report);
        proxy.sort(2, Qt::DescendingOrder);
        source->setReport(m_syntheticGraphs.report);
        source->setReport(nullptr);
        QCOMPARE(source->rowCount(), 0);
        // A report with rows for each model: the operation tables of an eager pair, the
        // communication of HTA's trace, the groups of the graph pair.
        if (model >= 100) {
            // The table describes columns for the app, and some report has rows.
            QVERIFY(source->columnCount() > 0);
            int rows = 0;
            for (const Pair* pair : { &m_graphs, &m_seed, &m_owlv2, &m_syntheticGraphs, &m_graphCoverage }) {
                source->setReport(pair->report);
                rows = std::max(rows, source->rowCount());
            }
            QVERIFY(rows > 0);
            return;
        }
        source->setReport(model >= 7 && model <= 9 ? m_owlv2.report : model == 10 ? m_seed.report : m_graphs.report);
        QVERIFY(source->rowCount() > 0);
    }

    void tablesHaveTheReportsRows()
    {
        const FusionReport& report = *m_seed.report;
        ReportColumnsModel opportunities(ReportTableId::FusionOpportunities);
        opportunities.setReport(m_seed.report);
        QCOMPARE(opportunities.rowCount(), static_cast<int>(report.opportunities.size()));
        QCOMPARE(opportunities.columnCount(), 14);
        for (int row = 0; row < opportunities.rowCount(); ++row) {
            const FusionOpportunity& o = report.opportunities[static_cast<size_t>(row)];
            QCOMPARE(
                opportunities.index(row, columnOf(ReportTableId::FusionOpportunities, "kernel_type")).data().toString(),
                QString::fromStdString(report.typeName(o.kernelType)));
            QCOMPARE(opportunities.index(row, columnOf(ReportTableId::FusionOpportunities, "trace1_total"))
                         .data(ReportTableModel::SortRole)
                         .toULongLong(),
                o.total[0]);
            QCOMPARE(opportunities.index(row, columnOf(ReportTableId::FusionOpportunities, "trace2_time_ms"))
                         .data(ReportTableModel::SortRole)
                         .toDouble(),
                o.timeMs[1]);
            QCOMPARE(opportunities.index(row, columnOf(ReportTableId::FusionOpportunities, "impact"))
                         .data(ReportTableModel::SortRole)
                         .toDouble(),
                o.impact());
        }

        ReportColumnsModel mappings(ReportTableId::FusionMappings);
        mappings.setReport(m_seed.report);
        QCOMPARE(mappings.rowCount(), static_cast<int>(report.mappings.size()));
        QCOMPARE(mappings.index(0, columnOf(ReportTableId::FusionMappings, "evidence")).data().toString(),
            QString::fromStdString(report.mappings[0].evidence));

        ReportColumnsModel types(ReportTableId::GlobalCounts);
        types.setReport(m_seed.report);
        QCOMPARE(types.rowCount(), static_cast<int>(report.globalCounts.size()));

        ReportColumnsModel kernels(ReportTableId::Kernels);
        kernels.setReport(m_seed.report);
        QCOMPARE(kernels.rowCount(), static_cast<int>(report.kernels.size()));
        const QString name = QString::fromStdString(report.kernels[0].name);
        const int nameColumn = columnOf(ReportTableId::Kernels, "name");
        QCOMPARE(kernels.index(0, nameColumn).data(ReportTableModel::FullTextRole).toString(), name);
        QCOMPARE(kernels.index(0, nameColumn).data(Qt::ToolTipRole).toString(), name);
        QCOMPARE(kernels.index(0, nameColumn).data(ReportTableModel::SortRole).toString(), name);
        // A template name of thousands of characters is shown without its parameters and nested
        // template arguments (kernelnames.h).
        const QString shown = kernels.index(0, nameColumn).data().toString();
        QCOMPARE(shown, shownKernelName(name));
        QVERIFY(shown.size() <= 513);

        ReportColumnsModel pairs(ReportTableId::MatchedGroups);
        pairs.setReport(m_graphs.report);
        QCOMPARE(pairs.rowCount(), static_cast<int>(m_graphs.report->groupPairs.size()));
        const LargeGroup& first = m_graphs.report->largeGroups[0][m_graphs.report->groupPairs[0].group1];
        QCOMPARE(pairs.index(0, columnOf(ReportTableId::MatchedGroups, "trace1_correlation")).data().toString(),
            QString::number(first.correlation));

        UnmatchedGroupsModel unmatched;
        unmatched.setReport(m_graphs.report);
        QCOMPARE(static_cast<size_t>(unmatched.rowCount()),
            m_graphs.report->largeGroups[0].size() + m_graphs.report->largeGroups[1].size()
                - 2 * m_graphs.report->groupPairs.size());

        TraceSummaryModel summary;
        summary.setReport(m_seed.report);
        QCOMPARE(summary.index(TraceSummaryModel::KernelsRow, TraceSummaryModel::TraceBColumn).data().toString(),
            QStringLiteral("9,876"));
        QCOMPARE(summary.index(TraceSummaryModel::LabelRow, TraceSummaryModel::TraceAColumn).data().toString(),
            QString::fromStdString(report.traces[0].label));
    }

    void numbersSortAsNumbers()
    {
        // Kernel counts such as "2,857" and "556": as text, "556" would come first.
        ReportColumnsModel kernels(ReportTableId::Kernels);
        kernels.setReport(m_seed.report);
        TableFilterProxy proxy;
        proxy.setSourceModel(&kernels);
        proxy.sort(columnOf(ReportTableId::Kernels, "trace2_count"), Qt::DescendingOrder);
        const QVariantList values
            = columnValues(proxy, columnOf(ReportTableId::Kernels, "trace2_count"), ReportTableModel::SortRole);
        for (int i = 1; i < values.size(); ++i)
            QVERIFY2(values[i - 1].toULongLong() >= values[i].toULongLong(), qPrintable(QString::number(i)));
        uint64_t largest = 0;
        for (const KernelNameRow& row : m_seed.report->kernels)
            largest = std::max(largest, row.count[1]);
        QCOMPARE(values.first().toULongLong(), largest);
        const QVariantList shown
            = columnValues(proxy, columnOf(ReportTableId::Kernels, "trace2_count"), Qt::DisplayRole);
        QStringList texts;
        for (const QVariant& value : shown)
            texts.append(value.toString());
        QStringList textOrder = texts;
        std::sort(textOrder.begin(), textOrder.end(), std::greater<>());
        QVERIFY2(texts != textOrder, "the test data should tell numeric from text order");

        // Infinite ratios sort above every finite one.
        ReportColumnsModel opportunities(ReportTableId::FusionOpportunities);
        opportunities.setReport(m_seed.report);
        proxy.setSourceModel(&opportunities);
        proxy.sort(columnOf(ReportTableId::FusionOpportunities, "ratio"), Qt::AscendingOrder);
        const QVariantList ratios
            = columnValues(proxy, columnOf(ReportTableId::FusionOpportunities, "ratio"), ReportTableModel::SortRole);
        for (int i = 1; i < ratios.size(); ++i)
            QVERIFY(ratios[i - 1].toDouble() <= ratios[i].toDouble());
        QVERIFY(std::isinf(ratios.last().toDouble()));
        QCOMPARE(
            proxy.index(proxy.rowCount() - 1, columnOf(ReportTableId::FusionOpportunities, "ratio")).data().toString(),
            QString(QChar(0x221E)));

        // Durations in mixed units ("12.8 ms", "853 us") sort by their value.
        proxy.setSourceModel(&kernels);
        proxy.sort(columnOf(ReportTableId::Kernels, "trace2_time_us"), Qt::DescendingOrder);
        const QVariantList times
            = columnValues(proxy, columnOf(ReportTableId::Kernels, "trace2_time_us"), ReportTableModel::SortRole);
        for (int i = 1; i < times.size(); ++i)
            QVERIFY(times[i - 1].toDouble() >= times[i].toDouble());
    }

    void handBuiltReportsWithEdgeCases()
    {
        // An empty report: every table empty, every model sound, each with its CSV name.
        const auto empty = std::make_shared<const FusionReport>();
        for (const ReportTableId table : kReportTableIds) {
            if (table == ReportTableId::Traces)
                continue; // shown by TraceSummaryModel
            ReportColumnsModel model(table);
            QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
            model.setReport(empty);
            QCOMPARE(model.rowCount(), 0);
            QVERIFY(model.columnCount() > 0);
            QCOMPARE(model.csvName(), QString::fromLatin1(reportTableName(table)));
        }
        TraceSummaryModel traces;
        QAbstractItemModelTester tracesTester(&traces, QAbstractItemModelTester::FailureReportingMode::QtTest);
        traces.setReport(empty);
        QCOMPARE(traces.index(TraceSummaryModel::KernelsRow, TraceSummaryModel::TraceAColumn).data().toString(),
            QStringLiteral("0"));
        UnmatchedGroupsModel unmatched;
        unmatched.setReport(empty);
        QCOMPARE(unmatched.rowCount(), 0);

        const std::shared_ptr<const FusionReport> report = edgeCaseReport();
        const auto cell = [](const ReportColumnsModel& model, int row, const char* key, int role = Qt::DisplayRole) {
            return model.index(row, model.column(key)).data(role);
        };

        // A type only A runs: an infinite ratio, shown as such and sorted above every finite one;
        // B has no time for it (an empty cell), not a time of zero.
        ReportColumnsModel types(ReportTableId::GlobalCounts);
        QAbstractItemModelTester typesTester(&types, QAbstractItemModelTester::FailureReportingMode::QtTest);
        types.setReport(report);
        QCOMPARE(cell(types, 0, "ratio").toString(), QString(QChar(0x221E)));
        QVERIFY(std::isinf(cell(types, 0, "ratio", ReportTableModel::SortRole).toDouble()));
        QCOMPARE(cell(types, 0, "trace2_time_us").toString(), QString());
        QCOMPARE(cell(types, 2, "ratio").toString(), QStringLiteral("0.00"));
        QCOMPARE(cell(types, 2, "trace1_time_us").toString(), QString());
        TableFilterProxy proxy;
        proxy.setSourceModel(&types);
        proxy.sort(types.column("ratio"), Qt::AscendingOrder);
        QCOMPARE(proxy.index(0, 0).data().toString(), QStringLiteral("Other"));
        QCOMPARE(proxy.index(2, 0).data().toString(), QStringLiteral("GEMM"));

        // Kernels one side never ran: no total and no average there; the average sorts below all.
        ReportColumnsModel kernels(ReportTableId::Kernels);
        kernels.setReport(report);
        QCOMPARE(cell(kernels, 0, "trace2_time_us").toString(), QString());
        QCOMPARE(cell(kernels, 0, "trace1_average_us").toString(), QStringLiteral("5.0 us"));
        QCOMPARE(cell(kernels, 1, "trace1_average_us").toString(), QString());
        QCOMPARE(cell(kernels, 1, "trace1_average_us", ReportTableModel::SortRole).toDouble(), -1.0);

        // Not a number: an empty cell that sorts below every value, whichever way the column is sorted.
        ReportColumnsModel opportunities(ReportTableId::FusionOpportunities);
        QAbstractItemModelTester opportunitiesTester(
            &opportunities, QAbstractItemModelTester::FailureReportingMode::QtTest);
        opportunities.setReport(report);
        QCOMPARE(cell(opportunities, 0, "trace1_avg_per_group").toString(), QString());
        QCOMPARE(cell(opportunities, 0, "ratio").toString(), QString(QChar(0x221E)));
        // B runs none of the type: nothing was fused, A alone runs it.
        QCOMPARE(cell(opportunities, 0, "fused_by_side").toString(), QStringLiteral("only AMD (A) runs it"));
        QCOMPARE(cell(opportunities, 0, "source").toString(), QStringLiteral("global counts"));
        proxy.setSourceModel(&opportunities);
        proxy.sort(opportunities.column("trace1_avg_per_group"), Qt::AscendingOrder);
        QCOMPARE(proxy.index(0, 0).data().toString(), QStringLiteral("GEMM"));
        proxy.sort(opportunities.column("trace1_avg_per_group"), Qt::DescendingOrder);
        QCOMPARE(proxy.index(1, 0).data().toString(), QStringLiteral("GEMM"));

        // An operation without time on either side has no time ratio; with time on A only, an
        // infinite one.
        ReportColumnsModel summary(ReportTableId::OpSummary);
        QAbstractItemModelTester summaryTester(&summary, QAbstractItemModelTester::FailureReportingMode::QtTest);
        summary.setReport(report);
        QCOMPARE(cell(summary, 0, "time_ratio").toString(), QString());
        QCOMPARE(cell(summary, 0, "time_ratio", ReportTableModel::SortRole).toDouble(), -1.0);
        QCOMPARE(cell(summary, 1, "time_ratio").toString(), QString(QChar(0x221E)));
        QCOMPARE(cell(summary, 2, "time_ratio").toString(), QStringLiteral("2.00"));
        proxy.setSourceModel(&summary);
        proxy.sort(summary.column("time_ratio"), Qt::DescendingOrder);
        QCOMPARE(proxy.index(0, 0).data().toString(), QStringLiteral("aten::copy_"));
        QCOMPARE(proxy.index(2, 0).data().toString(), QStringLiteral("aten::empty"));

        // One side only: B's collective, A's extra kernels.
        ReportColumnsModel collectives(ReportTableId::Collectives);
        collectives.setReport(report);
        QCOMPARE(cell(collectives, 0, "trace1_count").toString(), QStringLiteral("0"));
        QCOMPARE(cell(collectives, 0, "trace1_time_us").toString(), QString());
        QCOMPARE(cell(collectives, 0, "trace2_time_us").toString(), QStringLiteral("30.0 us"));
        QCOMPARE(cell(collectives, 0, "trace1_implementation").toString(), QString());
        ReportColumnsModel extra(ReportTableId::ExtraKernels);
        extra.setReport(report);
        QCOMPARE(cell(extra, 0, "trace2_kernels").toString(), QStringLiteral("0"));
        QCOMPARE(extra.index(0, 0).data(ReportTableModel::KernelTypeRole).toInt(), 1);
    }

    void headersFollowTheCoresColumnsOfEachReport()
    {
        // A trace with unrecorded time adds two columns to the step time table: the headers must
        // move with the values (issue 39: "B idle" showed B's busy time, two places over).
        auto withUnrecorded = std::make_shared<FusionReport>();
        withUnrecorded->stepTime.notRecorded = true;
        StepTimeRow row;
        row.phase = "all steps";
        row.steps = { 10, 10 };
        row.busyUs = { 11000, 14700 };
        row.notRecordedUs = { 0, 9300 };
        row.idleUs = { 300, 5400 };
        withUnrecorded->stepTime.rows.push_back(row);
        for (const ReportTableId table : kReportTableIds) {
            if (table == ReportTableId::Traces)
                continue; // shown by TraceSummaryModel
            ReportColumnsModel model(table); // made before any report, as the pages make theirs
            QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
            for (const auto& report :
                { std::shared_ptr<const FusionReport>(withUnrecorded), std::make_shared<const FusionReport>() }) {
                model.setReport(report);
                QStringList expected;
                QStringList keys;
                for (const TableColumn& column : reportTable(table, *report).columns) {
                    if (!column.header.empty()) {
                        expected.append(QString::fromStdString(column.header));
                        keys.append(QString::fromStdString(column.key));
                    }
                }
                QCOMPARE(model.columnCount(), expected.size());
                for (int column = 0; column < model.columnCount(); ++column) {
                    QCOMPARE(model.headerData(column, Qt::Horizontal).toString(), expected[column]);
                    QCOMPARE(model.headerData(column, Qt::Horizontal, ReportTableModel::ColumnKeyRole).toString(),
                        keys[column]);
                }
            }
        }
        ReportColumnsModel steps(ReportTableId::StepTimes);
        steps.setReport(withUnrecorded);
        const int idleB = steps.column("trace2_idle_us");
        QCOMPARE(steps.headerData(idleB, Qt::Horizontal).toString(), QStringLiteral("B idle"));
        QCOMPARE(steps.index(0, idleB).data().toString(), formatDuration(5400));
        QCOMPARE(steps.headerData(steps.column("trace2_not_recorded_us"), Qt::Horizontal).toString(),
            QStringLiteral("B not recorded"));

        // A page finds its stretched and name columns again by key when a report moves them.
        TablePage page(new ReportColumnsModel(ReportTableId::StepTimes, this));
        page.setStretchColumnKeys({ QStringLiteral("trace1_total_us") }, 100);
        auto* model = static_cast<ReportColumnsModel*>(page.sourceModel());
        model->setReport(withUnrecorded);
        page.resize(1200, 400);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QCOMPARE(page.view()->horizontalHeader()->sectionSize(model->column("trace1_total_us")) >= 100, true);
    }

    void operationsMatchedCountAsTheVerdictDoes()
    {
        // The verdict's share is of the compared calls (a warm-up step left out); the row says the
        // same share and names the calls outside the compared steps.
        auto report = std::make_shared<FusionReport>();
        report->opAlignment.occurrences = { 7170, 7170 };
        report->opAlignment.compared = { 5975, 5975 };
        report->opAlignment.matched = 5975;
        TraceSummaryModel traces;
        traces.setReport(report);
        QCOMPARE(
            traces.index(TraceSummaryModel::OperationsMatchedRow, TraceSummaryModel::TraceAColumn).data().toString(),
            QStringLiteral("5,975 of the 5,975 compared (100%; 1,195 outside the compared steps)"));
        report->opAlignment.compared = { 7170, 7000 };
        report->opAlignment.matched = 3585;
        QCOMPARE(
            traces.index(TraceSummaryModel::OperationsMatchedRow, TraceSummaryModel::TraceAColumn).data().toString(),
            QStringLiteral("3,585 of 7,170 (50%)"));
    }

    void costColumnsSortDescendingFirst()
    {
        ReportColumnsModel model(ReportTableId::FusionOpportunities);
        QCOMPARE(model
                     .headerData(columnOf(ReportTableId::FusionOpportunities, "kernel_type"), Qt::Horizontal,
                         Qt::InitialSortOrderRole)
                     .value<Qt::SortOrder>(),
            Qt::AscendingOrder);
        QCOMPARE(model
                     .headerData(columnOf(ReportTableId::FusionOpportunities, "trace1_total"), Qt::Horizontal,
                         Qt::InitialSortOrderRole)
                     .value<Qt::SortOrder>(),
            Qt::DescendingOrder);
        QCOMPARE(model
                     .headerData(columnOf(ReportTableId::FusionOpportunities, "impact"), Qt::Horizontal,
                         Qt::InitialSortOrderRole)
                     .value<Qt::SortOrder>(),
            Qt::DescendingOrder);
        ReportColumnsModel kernels(ReportTableId::Kernels);
        QCOMPARE(kernels
                     .headerData(
                         columnOf(ReportTableId::Kernels, "trace1_time_us"), Qt::Horizontal, Qt::InitialSortOrderRole)
                     .value<Qt::SortOrder>(),
            Qt::DescendingOrder);
    }

    void filterMatchesAnyColumnIgnoringCase()
    {
        ReportColumnsModel kernels(ReportTableId::Kernels);
        kernels.setReport(m_seed.report);
        TablePage page(&kernels);
        QAbstractItemModelTester tester(page.proxy(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        const int all = page.proxy()->rowCount();
        page.filterEdit()->setText(QStringLiteral("gEmM"));
        // Debounced: nothing happens while the user may still be typing...
        QCOMPARE(page.proxy()->rowCount(), all);
        // ...and the filter applies once typing pauses.
        QTRY_VERIFY_WITH_TIMEOUT(page.proxy()->rowCount() < all, 2000);
        const int shown = page.proxy()->rowCount();
        QVERIFY(shown > 0);
        for (int row = 0; row < shown; ++row) {
            bool found = false;
            for (int column = 0; column < page.proxy()->columnCount(); ++column)
                found |= page.proxy()
                             ->index(row, column)
                             .data()
                             .toString()
                             .contains(QLatin1String("gemm"), Qt::CaseInsensitive);
            QVERIFY(found);
        }
        // The type column matches too, not only the names.
        int gemmTyped = 0;
        for (const KernelNameRow& row : m_seed.report->kernels)
            gemmTyped += m_seed.report->typeName(row.type) == "GEMM";
        QVERIFY(shown >= gemmTyped);
        page.filterEdit()->clear();
        page.filterEdit()->applyNow();
        QCOMPARE(page.proxy()->rowCount(), all);
    }

    void copiedRowsAreTabSeparated()
    {
        ReportColumnsModel types(ReportTableId::GlobalCounts);
        types.setReport(m_seed.report);
        TablePage page(&types);
        page.selectSourceRows({ 0, 2 });
        const QStringList lines = page.selectedRowsText().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 3);
        QCOMPARE(lines[0].split(QLatin1Char('\t')).size(), types.columnCount());
        QVERIFY(
            lines[1].startsWith(QString::fromStdString(m_seed.report->typeName(m_seed.report->globalCounts[0].type))));
        QCOMPARE(page.selectedSourceRows(), QList<int>({ 0, 2 }));
    }

    void drillDownOfAMatchedPair()
    {
        const FusionReport& report = *m_graphs.report;
        const GroupPair& pair = report.groupPairs[0];
        const LargeGroup& groupA = report.largeGroups[0][pair.group1];
        const LargeGroup& groupB = report.largeGroups[1][pair.group2];
        GroupDiff diff
            = computeGroupDiff({ m_graphs.a.get(), m_graphs.b.get() }, { &groupA, &groupB }, *m_graphs.classifier);
        QCOMPARE(diff.kernels[0].size(), size_t(groupA.size));
        QCOMPARE(diff.kernels[1].size(), size_t(groupB.size));
        // The group's kernels as a scan of the whole trace finds them: its correlation id, in time order.
        for (size_t side = 0; side < 2; ++side) {
            const TraceStore& store = side == 0 ? *m_graphs.a : *m_graphs.b;
            const int64_t correlation = side == 0 ? groupA.correlation : groupB.correlation;
            QCOMPARE(diff.correlation[side], std::optional<int64_t>(correlation));
            std::vector<const KernelEvent*> scanned;
            for (const KernelEvent& kernel : store.kernels) {
                if (kernel.correlation == correlation)
                    scanned.push_back(&kernel);
            }
            std::stable_sort(scanned.begin(), scanned.end(),
                [](const KernelEvent* x, const KernelEvent* y) { return x->ts < y->ts; });
            QCOMPARE(diff.kernels[side].size(), scanned.size());
            for (size_t k = 0; k < scanned.size(); ++k) {
                QCOMPARE(diff.kernels[side][k].name, std::string(store.name(scanned[k]->name)));
                QCOMPARE(diff.kernels[side][k].ts, scanned[k]->ts);
                QCOMPARE(diff.kernels[side][k].type, m_graphs.classifier->classify(store.name(scanned[k]->name)));
            }
        }
        std::vector<CategoryId> types[2];
        for (size_t side = 0; side < 2; ++side) {
            for (const GroupKernel& kernel : diff.kernels[side])
                types[side].push_back(kernel.type);
        }
        QVERIFY(!diff.inChunks);
        QCOMPARE(diff.rows, alignScored(types[0], types[1]));

        GroupDiffModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        TableFilterProxy proxy;
        proxy.setSourceModel(&model);
        QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QStringList names;
        for (const std::string& name : report.classifier.categories)
            names.append(QString::fromStdString(name));
        model.setDiff(std::move(diff), names);
        proxy.setFilterFixedString(QStringLiteral("gemm"));
        proxy.setFilterFixedString(QString());

        int kernelsA = 0;
        int kernelsB = 0;
        for (int row = 0; row < model.rowCount(); ++row) {
            kernelsA += !model.index(row, GroupDiffModel::NameAColumn).data().toString().isEmpty();
            kernelsB += !model.index(row, GroupDiffModel::NameBColumn).data().toString().isEmpty();
            const int status = model.index(row, 0).data(GroupDiffModel::StatusRole).toInt();
            const QString typeA = model.index(row, GroupDiffModel::TypeAColumn).data().toString();
            const QString typeB = model.index(row, GroupDiffModel::TypeBColumn).data().toString();
            switch (status) {
            case SameType:
                QCOMPARE(typeA, typeB);
                QVERIFY(!model.index(row, GroupDiffModel::NameAColumn).data(Qt::BackgroundRole).isValid());
                break;
            case DifferentTypes:
                QVERIFY(typeA != typeB && !typeA.isEmpty() && !typeB.isEmpty());
                QCOMPARE(model.index(row, GroupDiffModel::NameAColumn).data(Qt::BackgroundRole).value<QColor>(),
                    differenceBackground());
                break;
            case OnlyA:
                QVERIFY(typeB.isEmpty());
                QCOMPARE(model.index(row, GroupDiffModel::NameAColumn).data(Qt::BackgroundRole).value<QColor>(),
                    sideBackground(0));
                break;
            case OnlyB:
                QVERIFY(typeA.isEmpty());
                QCOMPARE(model.index(row, GroupDiffModel::NameBColumn).data(Qt::BackgroundRole).value<QColor>(),
                    sideBackground(1));
                break;
            }
        }
        QCOMPARE(kernelsA, static_cast<int>(groupA.size));
        QCOMPARE(kernelsB, static_cast<int>(groupB.size));
        QVERIFY(model.rowsWithStatus(SameType) > 0);
        QCOMPARE(model.rowsWithStatus(SameType) + model.rowsWithStatus(DifferentTypes) + model.rowsWithStatus(OnlyA)
                + model.rowsWithStatus(OnlyB),
            model.rowCount());
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }

    void operationFindingsHaveTheReportsRows()
    {
        const FusionReport& report = *m_qwen.report;
        ReportColumnsModel findings(ReportTableId::OpFindings);
        findings.setReport(m_qwen.report);
        QCOMPARE(findings.rowCount(), 1);
        QCOMPARE(findings.columnCount(), 11);
        const OpFinding& finding = report.opFindings[0];
        QCOMPARE(findings.index(0, columnOf(ReportTableId::OpFindings, "op")).data().toString(),
            QStringLiteral("aten::scaled_dot_product_attention"));
        QCOMPARE(findings.index(0, columnOf(ReportTableId::OpFindings, "occurrences")).data().toString(),
            QStringLiteral("24"));
        QCOMPARE(findings.index(0, columnOf(ReportTableId::OpFindings, "occurrences"))
                     .data(ReportTableModel::SortRole)
                     .toULongLong(),
            24ULL);
        QCOMPARE(findings.index(0, columnOf(ReportTableId::OpFindings, "trace1_kernel_count")).data().toString(),
            QStringLiteral("2"));
        QCOMPARE(findings.index(0, columnOf(ReportTableId::OpFindings, "trace2_kernel_count")).data().toString(),
            QStringLiteral("1"));
        QCOMPARE(findings.index(0, columnOf(ReportTableId::OpFindings, "trace1_kernel_count"))
                     .data(Qt::ToolTipRole)
                     .toString(),
            QStringLiteral("Memory, Attention"));
        QCOMPARE(findings.index(0, columnOf(ReportTableId::OpFindings, "launch_difference")).data().toString(),
            QStringLiteral("1"));
        QCOMPARE(findings.index(0, columnOf(ReportTableId::OpFindings, "fused_by_side")).data().toString(),
            QStringLiteral("NVIDIA (B)"));
        QCOMPARE(findings.index(0, columnOf(ReportTableId::OpFindings, "trace1_time_per_call"))
                     .data(ReportTableModel::SortRole)
                     .toDouble(),
            finding.timeUs[0].median);
        QCOMPARE(findings.index(0, columnOf(ReportTableId::OpFindings, "trace1_time_per_call")).data().toString(),
            QString::fromUtf8("169 us (166\u2013174 us)"));
        QCOMPARE(findings.index(0, columnOf(ReportTableId::OpFindings, "saving_us"))
                     .data(ReportTableModel::SortRole)
                     .toDouble(),
            finding.savingUs);
        QCOMPARE(findings.index(0, columnOf(ReportTableId::OpFindings, "saving_us")).data().toString(),
            QStringLiteral("1.3 ms"));
        // Quartiles of different units keep both.
        Spread spread;
        spread.median = 1500;
        spread.q1 = 980;
        spread.q3 = 2100;
        QCOMPARE(formatSpread(spread), QString::fromUtf8("1.5 ms (980 us\u20132.1 ms)"));
        QCOMPARE(findings.index(0, columnOf(ReportTableId::OpFindings, "summary")).data().toString(),
            QString::fromStdString(finding.summary));

        ReportColumnsModel summary(ReportTableId::OpSummary);
        summary.setReport(m_qwen.report);
        QCOMPARE(summary.rowCount(), static_cast<int>(report.opSummary.size()));
        for (int row = 0; row < summary.rowCount(); ++row) {
            const OpSummary& op = report.opSummary[static_cast<size_t>(row)];
            QCOMPARE(summary.index(row, columnOf(ReportTableId::OpSummary, "op")).data().toString(),
                QString::fromStdString(op.op));
            QCOMPARE(summary.index(row, columnOf(ReportTableId::OpSummary, "differing"))
                         .data(ReportTableModel::SortRole)
                         .toULongLong(),
                op.differing);
            QCOMPARE(summary.index(row, columnOf(ReportTableId::OpSummary, "trace2_total_us"))
                         .data(ReportTableModel::SortRole)
                         .toDouble(),
                op.timeUs[1].total);
        }

        ReportColumnsModel extra(ReportTableId::ExtraKernels);
        extra.setReport(m_qwen.report);
        QCOMPARE(extra.rowCount(), 1);
        QCOMPARE(extra.index(0, columnOf(ReportTableId::ExtraKernels, "kernel_type")).data().toString(),
            QStringLiteral("Memory"));
        QCOMPARE(extra.index(0, columnOf(ReportTableId::ExtraKernels, "trace1_kernels")).data().toString(),
            QStringLiteral("24"));
        QCOMPARE(extra.index(0, columnOf(ReportTableId::ExtraKernels, "trace2_kernels")).data().toString(),
            QStringLiteral("0"));

        ReportColumnsModel collectives(ReportTableId::Collectives);
        collectives.setReport(m_qwen.report);
        QCOMPARE(collectives.rowCount(), 0);
        collectives.setReport(m_seed.report);
        QCOMPARE(collectives.rowCount(), static_cast<int>(m_seed.report->collectives.size()));
        const CollectiveComparison& first = m_seed.report->collectives[0];
        QCOMPARE(collectives.index(0, columnOf(ReportTableId::Collectives, "collective")).data().toString(),
            QString::fromStdString(first.collective));
        QCOMPARE(collectives.index(0, columnOf(ReportTableId::Collectives, "trace2_implementation")).data().toString(),
            QString::fromStdString(first.implementation[1]));
        QCOMPARE(collectives.index(0, columnOf(ReportTableId::Collectives, "trace2_count"))
                     .data(ReportTableModel::SortRole)
                     .toULongLong(),
            first.count[1]);
    }

    void operationTablesSortNumerically()
    {
        // Calls per operation: "96" would sort above "220" and "1,029"-style counts as text.
        ReportColumnsModel summary(ReportTableId::OpSummary);
        summary.setReport(m_qwen.report);
        TableFilterProxy proxy;
        proxy.setSourceModel(&summary);
        QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.sort(columnOf(ReportTableId::OpSummary, "occurrences"), Qt::DescendingOrder);
        const QVariantList calls
            = columnValues(proxy, columnOf(ReportTableId::OpSummary, "occurrences"), ReportTableModel::SortRole);
        for (int i = 1; i < calls.size(); ++i)
            QVERIFY(calls[i - 1].toULongLong() >= calls[i].toULongLong());
        QStringList texts;
        for (const QVariant& value :
            columnValues(proxy, columnOf(ReportTableId::OpSummary, "occurrences"), Qt::DisplayRole))
            texts.append(value.toString());
        QStringList textOrder = texts;
        std::sort(textOrder.begin(), textOrder.end(), std::greater<>());
        QVERIFY2(texts != textOrder, "the test data should tell numeric from text order");
        // Durations in mixed units ("11.6 ms", "853 us").
        proxy.sort(columnOf(ReportTableId::OpSummary, "trace1_total_us"), Qt::DescendingOrder);
        const QVariantList times
            = columnValues(proxy, columnOf(ReportTableId::OpSummary, "trace1_total_us"), ReportTableModel::SortRole);
        for (int i = 1; i < times.size(); ++i)
            QVERIFY(times[i - 1].toDouble() >= times[i].toDouble());

        // owlv2's three findings: aten::linear has the most calls, aten::conv2d could save the most.
        ReportColumnsModel findings(ReportTableId::OpFindings);
        findings.setReport(m_owlv2.report);
        proxy.setSourceModel(&findings);
        proxy.sort(columnOf(ReportTableId::OpFindings, "occurrences"), Qt::DescendingOrder);
        QCOMPARE(proxy.index(0, columnOf(ReportTableId::OpFindings, "op")).data().toString(),
            QStringLiteral("aten::linear"));
        QCOMPARE(
            proxy.index(0, columnOf(ReportTableId::OpFindings, "occurrences")).data().toString(), QStringLiteral("60"));
        proxy.sort(columnOf(ReportTableId::OpFindings, "saving_us"), Qt::DescendingOrder);
        QCOMPARE(proxy.index(0, columnOf(ReportTableId::OpFindings, "op")).data().toString(),
            QStringLiteral("aten::conv2d"));
        const QVariantList savings
            = columnValues(proxy, columnOf(ReportTableId::OpFindings, "saving_us"), ReportTableModel::SortRole);
        for (int i = 1; i < savings.size(); ++i)
            QVERIFY(savings[i - 1].toDouble() >= savings[i].toDouble());
        proxy.sort(columnOf(ReportTableId::OpFindings, "trace2_time_per_call"), Qt::AscendingOrder);
        const QVariantList medians = columnValues(
            proxy, columnOf(ReportTableId::OpFindings, "trace2_time_per_call"), ReportTableModel::SortRole);
        for (int i = 1; i < medians.size(); ++i)
            QVERIFY(medians[i - 1].toDouble() <= medians[i].toDouble());

        for (const ReportTableModel* model : std::initializer_list<const ReportTableModel*> { &findings, &summary }) {
            QCOMPARE(model->headerData(0, Qt::Horizontal, Qt::InitialSortOrderRole).value<Qt::SortOrder>(),
                Qt::AscendingOrder);
            QCOMPARE(model->headerData(2, Qt::Horizontal, Qt::InitialSortOrderRole).value<Qt::SortOrder>(),
                Qt::DescendingOrder);
        }
    }

    void findingKernelsSideBySide()
    {
        // Qwen's SDPA: AMD zero-fills a buffer (Memory) before attention; NVIDIA runs attention alone.
        FindingAlignmentModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        TableFilterProxy proxy;
        proxy.setSourceModel(&model);
        QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setFinding(m_qwen.report, 0);
        const OpFinding& finding = m_qwen.report->opFindings[0];
        QCOMPARE(model.rowCount(), static_cast<int>(finding.alignment.size()));
        QCOMPARE(model.rowCount(), 2);

        const auto cell
            = [&](int row, int column, int role = Qt::DisplayRole) { return model.index(row, column).data(role); };
        QCOMPARE(cell(0, 0, FindingAlignmentModel::StatusRole).toInt(), static_cast<int>(OnlyA));
        QVERIFY(cell(0, FindingAlignmentModel::NameAColumn)
                    .toString()
                    .startsWith(QLatin1String("at::native::vectorized_elementwise_kernel<")));
        QCOMPARE(cell(0, FindingAlignmentModel::NameAColumn, Qt::ToolTipRole).toString(),
            QString::fromStdString(finding.kernels[0][0].name));
        QCOMPARE(cell(0, FindingAlignmentModel::TypeAColumn).toString(), QStringLiteral("Memory"));
        QVERIFY(cell(0, FindingAlignmentModel::NameBColumn).toString().isEmpty());
        QCOMPARE(cell(0, FindingAlignmentModel::NameAColumn, Qt::BackgroundRole).value<QColor>(), sideBackground(0));
        QCOMPARE(cell(0, FindingAlignmentModel::NameBColumn, Qt::BackgroundRole).value<QColor>(), gapBackground());
        QCOMPARE(cell(0, FindingAlignmentModel::RunColumn).toString(), QStringLiteral("A run 1"));
        QCOMPARE(cell(0, FindingAlignmentModel::RunColumn, FindingAlignmentModel::RunRole).toInt(), 0);
        QCOMPARE(cell(0, FindingAlignmentModel::RunColumn, Qt::ToolTipRole).toString(),
            QString::fromStdString(finding.extraRuns[0].explanation));
        QCOMPARE(cell(0, FindingAlignmentModel::MedianAColumn, FindingAlignmentModel::SortRole).toDouble(),
            finding.kernels[0][0].medianUs);

        QCOMPARE(cell(1, 0, FindingAlignmentModel::StatusRole).toInt(), static_cast<int>(SameType));
        QCOMPARE(cell(1, FindingAlignmentModel::TypeAColumn).toString(), QStringLiteral("Attention"));
        QCOMPARE(cell(1, FindingAlignmentModel::TypeBColumn).toString(), QStringLiteral("Attention"));
        QCOMPARE(cell(1, FindingAlignmentModel::IndexBColumn).toInt(), 1);
        QVERIFY(!cell(1, FindingAlignmentModel::NameAColumn, Qt::BackgroundRole).isValid());
        QVERIFY(cell(1, FindingAlignmentModel::RunColumn).toString().isEmpty());
        QCOMPARE(model.firstRowOfRun(0), 0);

        proxy.setFilterFixedString(QStringLiteral("run 1"));
        QCOMPARE(proxy.rowCount(), 1);
        proxy.setFilterFixedString(QString());
        model.setFinding(m_qwen.report, 5); // out of range: nothing
        QCOMPARE(model.rowCount(), 0);
        model.setFinding(m_owlv2.report, 2);
        QCOMPARE(model.rowCount(), static_cast<int>(m_owlv2.report->opFindings[2].alignment.size()));
        model.setFinding(nullptr, 0);
        QCOMPARE(model.rowCount(), 0);
    }

    void graphFindingMarksEveryRunAndItsRepeats()
    {
        const FusionReport& report = *m_syntheticGraphs.report;
        const OpFinding& finding = report.opFindings[0];
        QVERIFY(finding.isGraph);
        FindingAlignmentModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setFinding(m_syntheticGraphs.report, 0);
        QCOMPARE(model.rowCount(), static_cast<int>(finding.alignment.size()));
        QCOMPARE(alignmentError(finding.alignment, finding.kernels[0].size(), finding.kernels[1].size()), QString());

        int repeatedRows = 0;
        int expectedRepeatedRows = 0;
        bool sawX20 = false;
        for (size_t run = 0; run < finding.extraRuns.size(); ++run) {
            const ExtraRun& extra = finding.extraRuns[run];
            int rows = 0;
            for (int row = 0; row < model.rowCount(); ++row) {
                if (model.index(row, 0).data(FindingAlignmentModel::RunRole).toInt() != static_cast<int>(run))
                    continue;
                ++rows;
                const QString label = model.index(row, FindingAlignmentModel::RunColumn).data().toString();
                QCOMPARE(label.startsWith(extra.side == Side::Trace1 ? QLatin1String("A run") : QLatin1String("B run")),
                    true);
                sawX20 |= label.endsWith(QLatin1String("(x20)"));
            }
            QCOMPARE(rows, static_cast<int>(extra.kernels.size()));
            expectedRepeatedRows += static_cast<int>((extra.repeats - 1) * extra.kernels.size());
        }
        QVERIFY(sawX20);
        for (int row = 0; row < model.rowCount(); ++row) {
            const int run = model.index(row, 0).data(FindingAlignmentModel::RunRole).toInt();
            const int status = model.index(row, 0).data(FindingAlignmentModel::StatusRole).toInt();
            // Every row only one side has belongs to a run, listed or repeated.
            QCOMPARE(run != -1, status == OnlyA || status == OnlyB);
            repeatedRows += run == FindingAlignmentModel::kRepeatedRun;
        }
        QCOMPARE(repeatedRows, expectedRepeatedRows);

        const QString details = findingDetailsHtml(report, finding);
        QVERIFY(details.contains(QLatin1String("(x20)")));
        for (const ExtraRun& extra : finding.extraRuns)
            QVERIFY(details.contains(QString::fromStdString(extra.explanation).toHtmlEscaped()));
    }

    void findingDetailsShowTheStackOutermostFirst()
    {
        const FusionReport& report = *m_qwen.report;
        const OpFinding& finding = report.opFindings[0];
        QVERIFY(finding.stack.size() >= 2);
        const QString details = findingDetailsHtml(report, finding);
        qsizetype previous = -1;
        for (const std::string& frame : finding.stack) {
            const qsizetype at = details.indexOf(QString::fromStdString(frame).toHtmlEscaped(), previous + 1);
            QVERIFY2(at > previous, frame.c_str());
            previous = at;
        }
        QVERIFY(QString::fromStdString(finding.stack.front()).startsWith(QLatin1String("nn.Module")));
        QVERIFY(details.contains(QString::fromStdString(finding.extraRuns[0].explanation).toHtmlEscaped()));
        QVERIFY(details.contains(QLatin1String("166 us")));
        QVERIFY(details.contains(QLatin1String("1.3 ms")));
    }
};

QTEST_MAIN(TestGuiModels)
#include "tst_guimodels.moc"
