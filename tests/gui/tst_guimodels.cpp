// The desktop application's models on reports of real trace pairs: every model and proxy under
// QAbstractItemModelTester, rows as in the report, numbers sorted as numbers, filtering, and the
// drill-down's alignment of two kernel sequences.

#include "guitestsupport.h"

#include "classifier.h"
#include "filterlineedit.h"
#include "fusionanalysis.h"
#include "fusionreport.h"
#include "groupdiff.h"
#include "groupdiffmodel.h"
#include "grouppairsmodel.h"
#include "kernelrowalignment.h"
#include "kernelsmodel.h"
#include "kerneltypesmodel.h"
#include "mappingsmodel.h"
#include "opportunitiesmodel.h"
#include "tablefilterproxy.h"
#include "tablepage.h"
#include "traceloader.h"
#include "tracesummarymodel.h"
#include "unmatchedgroupsmodel.h"

#include <QAbstractItemModelTester>
#include <QRandomGenerator>
#include <QTest>

#include <memory>

using namespace fusiondiff;
using namespace fusiondiff::ui;

namespace {

struct Pair
{
    std::shared_ptr<const TraceStore> a;
    std::shared_ptr<const TraceStore> b;
    std::shared_ptr<const Classifier> classifier;
    std::shared_ptr<const FusionReport> report;
};

Pair analyse(const QString& a, const QString& b, const char* classifier)
{
    Pair pair;
    pair.a = std::make_shared<const TraceStore>(loadTrace(test::realTrace(a).toStdString()));
    pair.b = std::make_shared<const TraceStore>(loadTrace(test::realTrace(b).toStdString()));
    pair.classifier = std::make_shared<const Classifier>(Classifier::builtin(classifier));
    pair.report
        = std::make_shared<const FusionReport>(analyzeFusion(*pair.a, *pair.b, *pair.classifier, AnalysisOptions()));
    return pair;
}

// The proxy's column `column` read in view order through `role`.
QVariantList columnValues(const QAbstractItemModel& model, int column, int role)
{
    QVariantList values;
    for (int row = 0; row < model.rowCount(); ++row)
        values.append(model.index(row, column).data(role));
    return values;
}

size_t lcsLength(const std::vector<CategoryId>& a, const std::vector<CategoryId>& b)
{
    std::vector<std::vector<size_t>> table(a.size() + 1, std::vector<size_t>(b.size() + 1, 0));
    for (size_t i = 1; i <= a.size(); ++i) {
        for (size_t j = 1; j <= b.size(); ++j)
            table[i][j] = a[i - 1] == b[j - 1] ? table[i - 1][j - 1] + 1 : std::max(table[i - 1][j], table[i][j - 1]);
    }
    return table[a.size()][b.size()];
}

// Each index of both sequences appears once, in order; returns the rows with equal types.
size_t checkAlignment(
    const std::vector<AlignedRow>& rows, const std::vector<CategoryId>& a, const std::vector<CategoryId>& b)
{
    int nextA = 0;
    int nextB = 0;
    size_t equal = 0;
    for (const AlignedRow& row : rows) {
        if (row.a < 0 && row.b < 0)
            qFatal("an empty row");
        if (row.a >= 0) {
            if (row.a != nextA++)
                qFatal("A out of order");
        }
        if (row.b >= 0) {
            if (row.b != nextB++)
                qFatal("B out of order");
        }
        if (row.a >= 0 && row.b >= 0 && a[static_cast<size_t>(row.a)] == b[static_cast<size_t>(row.b)])
            ++equal;
    }
    if (static_cast<size_t>(nextA) != a.size() || static_cast<size_t>(nextB) != b.size())
        qFatal("not every kernel is shown");
    return equal;
}

} // namespace

class TestGuiModels : public QObject
{
    Q_OBJECT

private:
    Pair m_graphs; // vLLM decode (MI300X, HIP graph) vs HTA (V100, CUDA graphs): a matched group pair
    Pair m_seed; // xDiT (MI300X) vs HTA, seed rules: many opportunities and mappings

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
    }

    void everyModelAndProxyPassesTheTester_data()
    {
        QTest::addColumn<int>("model");
        for (int model = 0; model < 7; ++model)
            QTest::addRow("model %d", model) << model;
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
            source = std::make_unique<OpportunitiesModel>();
            break;
        case 2:
            source = std::make_unique<MappingsModel>();
            break;
        case 3:
            source = std::make_unique<KernelTypesModel>();
            break;
        case 4:
            source = std::make_unique<KernelsModel>();
            break;
        case 5:
            source = std::make_unique<GroupPairsModel>();
            break;
        case 6:
            source = std::make_unique<UnmatchedGroupsModel>();
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
        source->setReport(nullptr);
        QCOMPARE(source->rowCount(), 0);
        source->setReport(m_graphs.report);
        QVERIFY(source->rowCount() > 0);
    }

    void tablesHaveTheReportsRows()
    {
        const FusionReport& report = *m_seed.report;
        OpportunitiesModel opportunities;
        opportunities.setReport(m_seed.report);
        QCOMPARE(opportunities.rowCount(), static_cast<int>(report.opportunities.size()));
        QCOMPARE(opportunities.columnCount(), static_cast<int>(OpportunitiesModel::NumColumns));
        for (int row = 0; row < opportunities.rowCount(); ++row) {
            const FusionOpportunity& o = report.opportunities[static_cast<size_t>(row)];
            QCOMPARE(opportunities.index(row, OpportunitiesModel::KernelTypeColumn).data().toString(),
                QString::fromStdString(report.typeName(o.kernelType)));
            QCOMPARE(opportunities.index(row, OpportunitiesModel::TotalAColumn)
                         .data(ReportTableModel::SortRole)
                         .toULongLong(),
                o.total[0]);
            QCOMPARE(
                opportunities.index(row, OpportunitiesModel::TimeBColumn).data(ReportTableModel::SortRole).toDouble(),
                o.timeMs[1]);
            QCOMPARE(
                opportunities.index(row, OpportunitiesModel::ImpactColumn).data(ReportTableModel::SortRole).toDouble(),
                o.impact());
        }

        MappingsModel mappings;
        mappings.setReport(m_seed.report);
        QCOMPARE(mappings.rowCount(), static_cast<int>(report.mappings.size()));
        QCOMPARE(mappings.index(0, MappingsModel::EvidenceColumn).data().toString(),
            QString::fromStdString(report.mappings[0].evidence));

        KernelTypesModel types;
        types.setReport(m_seed.report);
        QCOMPARE(types.rowCount(), static_cast<int>(report.globalCounts.size()));

        KernelsModel kernels;
        kernels.setReport(m_seed.report);
        QCOMPARE(kernels.rowCount(), static_cast<int>(report.kernels.size()));
        const QString name = QString::fromStdString(report.kernels[0].name);
        QCOMPARE(kernels.index(0, KernelsModel::NameColumn).data(ReportTableModel::FullTextRole).toString(), name);
        QCOMPARE(kernels.index(0, KernelsModel::NameColumn).data(Qt::ToolTipRole).toString(), name);
        QCOMPARE(kernels.index(0, KernelsModel::NameColumn).data(ReportTableModel::SortRole).toString(), name);
        // A template name of thousands of characters is shown by its start.
        const QString shown = kernels.index(0, KernelsModel::NameColumn).data().toString();
        QVERIFY(shown.size() <= 241);
        QVERIFY(name.startsWith(shown.chopped(shown.endsWith(QChar(0x2026)) ? 1 : 0)));

        GroupPairsModel pairs;
        pairs.setReport(m_graphs.report);
        QCOMPARE(pairs.rowCount(), static_cast<int>(m_graphs.report->groupPairs.size()));
        const LargeGroup& first = m_graphs.report->largeGroups[0][m_graphs.report->groupPairs[0].group1];
        QCOMPARE(
            pairs.index(0, GroupPairsModel::CorrelationAColumn).data().toString(), QString::number(first.correlation));

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
        KernelsModel kernels;
        kernels.setReport(m_seed.report);
        TableFilterProxy proxy;
        proxy.setSourceModel(&kernels);
        proxy.sort(KernelsModel::CountBColumn, Qt::DescendingOrder);
        const QVariantList values = columnValues(proxy, KernelsModel::CountBColumn, ReportTableModel::SortRole);
        for (int i = 1; i < values.size(); ++i)
            QVERIFY2(values[i - 1].toULongLong() >= values[i].toULongLong(), qPrintable(QString::number(i)));
        uint64_t largest = 0;
        for (const KernelNameRow& row : m_seed.report->kernels)
            largest = std::max(largest, row.count[1]);
        QCOMPARE(values.first().toULongLong(), largest);
        const QVariantList shown = columnValues(proxy, KernelsModel::CountBColumn, Qt::DisplayRole);
        QStringList texts;
        for (const QVariant& value : shown)
            texts.append(value.toString());
        QStringList textOrder = texts;
        std::sort(textOrder.begin(), textOrder.end(), std::greater<>());
        QVERIFY2(texts != textOrder, "the test data should tell numeric from text order");

        // Infinite ratios sort above every finite one.
        OpportunitiesModel opportunities;
        opportunities.setReport(m_seed.report);
        proxy.setSourceModel(&opportunities);
        proxy.sort(OpportunitiesModel::RatioColumn, Qt::AscendingOrder);
        const QVariantList ratios = columnValues(proxy, OpportunitiesModel::RatioColumn, ReportTableModel::SortRole);
        for (int i = 1; i < ratios.size(); ++i)
            QVERIFY(ratios[i - 1].toDouble() <= ratios[i].toDouble());
        QVERIFY(std::isinf(ratios.last().toDouble()));
        QCOMPARE(proxy.index(proxy.rowCount() - 1, OpportunitiesModel::RatioColumn).data().toString(),
            QString(QChar(0x221E)));

        // Durations in mixed units ("12.8 ms", "853 us") sort by their value.
        proxy.setSourceModel(&kernels);
        proxy.sort(KernelsModel::TimeBColumn, Qt::DescendingOrder);
        const QVariantList times = columnValues(proxy, KernelsModel::TimeBColumn, ReportTableModel::SortRole);
        for (int i = 1; i < times.size(); ++i)
            QVERIFY(times[i - 1].toDouble() >= times[i].toDouble());
    }

    void costColumnsSortDescendingFirst()
    {
        OpportunitiesModel model;
        QCOMPARE(model.headerData(OpportunitiesModel::KernelTypeColumn, Qt::Horizontal, Qt::InitialSortOrderRole)
                     .value<Qt::SortOrder>(),
            Qt::AscendingOrder);
        QCOMPARE(model.headerData(OpportunitiesModel::TotalAColumn, Qt::Horizontal, Qt::InitialSortOrderRole)
                     .value<Qt::SortOrder>(),
            Qt::DescendingOrder);
        QCOMPARE(model.headerData(OpportunitiesModel::ImpactColumn, Qt::Horizontal, Qt::InitialSortOrderRole)
                     .value<Qt::SortOrder>(),
            Qt::DescendingOrder);
        KernelsModel kernels;
        QCOMPARE(kernels.headerData(KernelsModel::TimeAColumn, Qt::Horizontal, Qt::InitialSortOrderRole)
                     .value<Qt::SortOrder>(),
            Qt::DescendingOrder);
    }

    void filterMatchesAnyColumnIgnoringCase()
    {
        KernelsModel kernels;
        kernels.setReport(m_seed.report);
        TablePage page(&kernels, QStringLiteral("kernels"));
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
        KernelTypesModel types;
        types.setReport(m_seed.report);
        TablePage page(&types, QStringLiteral("global_counts"));
        page.selectSourceRows({ 0, 2 });
        const QStringList lines = page.selectedRowsText().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 3);
        QCOMPARE(lines[0].split(QLatin1Char('\t')).size(), static_cast<int>(KernelTypesModel::NumColumns));
        QVERIFY(
            lines[1].startsWith(QString::fromStdString(m_seed.report->typeName(m_seed.report->globalCounts[0].type))));
        QCOMPARE(page.selectedSourceRows(), QList<int>({ 0, 2 }));
    }

    void alignmentOfTwoSequences_data()
    {
        QTest::addColumn<QList<int>>("a");
        QTest::addColumn<QList<int>>("b");
        QTest::addRow("equal") << QList<int> { 1, 2, 3 } << QList<int> { 1, 2, 3 };
        QTest::addRow("one side empty") << QList<int> { 1, 2 } << QList<int> {};
        QTest::addRow("both empty") << QList<int> {} << QList<int> {};
        QTest::addRow("fused in B") << QList<int> { 1, 2, 3, 4 } << QList<int> { 1, 5, 4 };
        QTest::addRow("substituted") << QList<int> { 1, 2, 3 } << QList<int> { 1, 4, 3 };
        QTest::addRow("inserted in A") << QList<int> { 7, 1, 2, 7, 3 } << QList<int> { 1, 2, 3 };
        QTest::addRow("reordered") << QList<int> { 1, 2, 3, 4, 5 } << QList<int> { 5, 4, 3, 2, 1 };
    }

    void alignmentOfTwoSequences()
    {
        QFETCH(QList<int>, a);
        QFETCH(QList<int>, b);
        const std::vector<CategoryId> typesA(a.begin(), a.end());
        const std::vector<CategoryId> typesB(b.begin(), b.end());
        const std::vector<AlignedRow> rows = alignKernelRows(typesA, typesB);
        QCOMPARE(checkAlignment(rows, typesA, typesB), lcsLength(typesA, typesB));
        // Kernels only one side has are paired up with the other side's between equal rows, so the
        // view is as short as the longer sequence whenever the differences line up.
        QVERIFY(rows.size() >= static_cast<size_t>(std::max(a.size(), b.size())));
        QVERIFY(rows.size() <= static_cast<size_t>(a.size() + b.size()));
    }

    void alignmentIsALongestCommonSubsequence()
    {
        QRandomGenerator random(42);
        for (int round = 0; round < 200; ++round) {
            std::vector<CategoryId> a(random.bounded(0, 40));
            std::vector<CategoryId> b(random.bounded(0, 40));
            for (CategoryId& type : a)
                type = static_cast<CategoryId>(random.bounded(0, 5));
            for (CategoryId& type : b)
                type = static_cast<CategoryId>(random.bounded(0, 5));
            QCOMPARE(checkAlignment(alignKernelRows(a, b), a, b), lcsLength(a, b));
            // Too large for the table: paired by position, still every kernel once and in order.
            checkAlignment(alignKernelRows(a, b, 4), a, b);
        }
    }

    void drillDownOfAMatchedPair()
    {
        const FusionReport& report = *m_graphs.report;
        const GroupPair& pair = report.groupPairs[0];
        const LargeGroup& groupA = report.largeGroups[0][pair.group1];
        const LargeGroup& groupB = report.largeGroups[1][pair.group2];
        GroupDiff diff = computeGroupDiff(
            { m_graphs.a.get(), m_graphs.b.get() }, { groupA.correlation, groupB.correlation }, *m_graphs.classifier);
        QCOMPARE(diff.kernels[0].size(), size_t(groupA.size));
        QCOMPARE(diff.kernels[1].size(), size_t(groupB.size));

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
            case GroupDiffModel::Same:
                QCOMPARE(typeA, typeB);
                QVERIFY(!model.index(row, GroupDiffModel::NameAColumn).data(Qt::BackgroundRole).isValid());
                break;
            case GroupDiffModel::Different:
                QVERIFY(typeA != typeB && !typeA.isEmpty() && !typeB.isEmpty());
                QVERIFY(model.index(row, GroupDiffModel::NameAColumn).data(Qt::BackgroundRole).isValid());
                break;
            case GroupDiffModel::OnlyA:
                QVERIFY(typeB.isEmpty());
                QVERIFY(model.index(row, GroupDiffModel::NameAColumn).data(Qt::BackgroundRole).isValid());
                break;
            case GroupDiffModel::OnlyB:
                QVERIFY(typeA.isEmpty());
                break;
            }
        }
        QCOMPARE(kernelsA, static_cast<int>(groupA.size));
        QCOMPARE(kernelsB, static_cast<int>(groupB.size));
        QVERIFY(model.rowsWithStatus(GroupDiffModel::Same) > 0);
        QCOMPARE(model.rowsWithStatus(GroupDiffModel::Same) + model.rowsWithStatus(GroupDiffModel::Different)
                + model.rowsWithStatus(GroupDiffModel::OnlyA) + model.rowsWithStatus(GroupDiffModel::OnlyB),
            model.rowCount());
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }
};

QTEST_MAIN(TestGuiModels)
#include "tst_guimodels.moc"
