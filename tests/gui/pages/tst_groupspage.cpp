// The Groups tab's drill-down agrees with the graph comparison: where the seed pairs a graph launch
// with one launch of the other trace that it covers among others (Pi0: the MI350's one graph and
// the H200's 1,510-kernel prefix graph), only the covered launch's part of it is aligned, and the
// title says which part and what the covering launch does the work of.

#include "mainwindowtestsupport.h"

#include "model/fusionreport.h"
#include "models/groupdiffmodel.h"
#include "models/reportcolumnsmodel.h"
#include "models/tablefilterproxy.h"
#include "pages/groupspage.h"
#include "pages/tablepage.h"
#include "report/reportwriters.h"
#include "shell/mainwindow.h"
#include "shell/resultstabs.h"
#include "util/phaseorder.h"

#include <QSettings>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>

#include <algorithm>

using namespace fusiondiff;
using namespace fusiondiff::ui;
using test::compare;

namespace {

// Shows `window`, compares `a` with `b`, opens the Groups tab and drills into its first matched
// pair: the page once the drill-down is shown, nullptr if a step did not happen in time.
GroupsPage* firstPairDrilledInto(MainWindow& window, const QString& a, const QString& b)
{
    window.show();
    if (!compare(window, a, b))
        return nullptr;
    GroupsPage* groups = window.groupsPage();
    window.tabs()->setCurrentWidget(groups);
    QSignalSpy ready(groups, &GroupsPage::drillDownReady);
    groups->pairsTable()->selectSourceRows({ 0 });
    if (ready.count() == 0 && !ready.wait(test::kResultsTimeoutMs))
        return nullptr;
    return groups;
}

// The CSV table `name` of `report`: its header's keys and each row's cells (split on commas up to
// `lastPlainColumn`, whose cells hold none; the last cell is the rest of the line's last field).
struct CsvRows
{
    QStringList header;
    QList<QStringList> rows;
};

CsvRows csvRows(const FusionReport& report, const std::string& name)
{
    CsvRows out;
    for (const CsvTable& table : reportToCsv(report)) {
        if (table.name != name)
            continue;
        QStringList lines = QString::fromStdString(table.text).split(QStringLiteral("\r\n"), Qt::SkipEmptyParts);
        out.header = lines.takeFirst().split(QLatin1Char(','));
        for (const QString& line : lines)
            out.rows.append(line.split(QLatin1Char(',')));
    }
    return out;
}

} // namespace

class TestGroupsPage : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { test::useOwnSettings(QStringLiteral("tst_groupspage")); }

    void cleanupTestCase() { test::removeOwnSettings(); }

    void init() { QSettings().clear(); }

    void aCoveringGraphIsDrilledIntoByThePartThatDoesThePairedWork()
    {
        MainWindow window;
        GroupsPage* groups
            = firstPairDrilledInto(window, test::realTrace(QStringLiteral("pi0_torchcompile_hipgraph.mi350.json.gz")),
                test::realTrace(QStringLiteral("pi0_torchcompile_cudagraph.h200.json.gz")));
        QVERIFY(groups);
        const GroupDiff& diff = groups->diffModel()->diff();
        // The seed's pair: A's 1,520-kernel graph (correlation 5) with B's 1,510-kernel one (78).
        QCOMPARE(diff.correlation[0], std::optional<int64_t>(5));
        QCOMPARE(diff.correlation[1], std::optional<int64_t>(78));
        // Not all 1,520 against 1,510: the 674 kernels (3-676) of A that do the work of B's launch 2.
        QCOMPARE(diff.kernels[0].size(), size_t(674));
        QCOMPARE(diff.firstKernel[0], uint32_t(2));
        QCOMPARE(diff.kernels[1].size(), size_t(1510));
        const QString title = groups->detailText();
        QVERIFY2(title.contains(QStringLiteral("A's group is its graph launch 1, which does the work of B's graph "
                                               "launches 1\u201312")),
            qPrintable(title));
        QVERIFY2(title.contains(QStringLiteral("its work is A's kernels 3\u2013676 (674 kernels")), qPrintable(title));
        // A's one graph covers B's: kinds on both sides, no pair of kinds, the tabs say so.
        const FusionReport& report = *window.tabs()->results().report;
        QCOMPARE(groups->graphKindsTable()->proxy()->rowCount(), 4);
        QVERIFY(report.graphComparison.pairs.empty());
        QCOMPARE(groups->listTabs()->tabText(3), QStringLiteral("Graph pairs (0)"));
    }

    void aPairOfWholeGraphsIsDrilledIntoWhole()
    {
        // Two runs of the same H200 build: their prefix graphs pair one to one, whole.
        MainWindow window;
        GroupsPage* groups
            = firstPairDrilledInto(window, test::realTrace(QStringLiteral("pi0_torchcompile_cudagraph.h200.json.gz")),
                test::realTrace(QStringLiteral("pi0_torchcompile_cudagraph_rerun.h200.json.gz")));
        QVERIFY(groups);
        const GroupDiff& diff = groups->diffModel()->diff();
        QCOMPARE(diff.firstKernel, (std::array<uint32_t, 2> { 0, 0 }));
        const FusionReport& report = *window.tabs()->results().report;
        const GroupPair& pair = report.groupPairs[0];
        QCOMPARE(diff.kernels[0].size(), size_t(report.largeGroups[0][pair.group1].size));
        QCOMPARE(diff.kernels[1].size(), size_t(report.largeGroups[1][pair.group2].size));
        QVERIFY(!groups->detailText().contains(QStringLiteral("only those are aligned")));

        // The graph comparison beside the groups: its kinds and its pairs phase by phase, row for
        // row the CSV's graph_kinds and graph_pairs, with the numbers the CSV writes.
        const size_t kinds = report.graphComparison.kinds[0].size() + report.graphComparison.kinds[1].size();
        QVERIFY(kinds > 0);
        const CsvRows kindRows = csvRows(report, "graph_kinds");
        QCOMPARE(groups->graphKindsTable()->proxy()->rowCount(), kindRows.rows.size());
        QCOMPARE(static_cast<size_t>(kindRows.rows.size()), kinds);
        const CsvRows pairRows = csvRows(report, "graph_pairs");
        QVERIFY(!pairRows.rows.isEmpty());
        auto* pairs = qobject_cast<ReportColumnsModel*>(groups->graphPairsTable()->sourceModel());
        QVERIFY(pairs);
        QCOMPARE(pairs->rowCount(), pairRows.rows.size());
        QTabWidget* lists = groups->listTabs();
        QCOMPARE(lists->tabText(lists->indexOf(groups->graphKindsTable())),
            QStringLiteral("Graph kinds (%1)").arg(kindRows.rows.size()));
        QCOMPARE(lists->tabText(lists->indexOf(groups->graphPairsTable())),
            QStringLiteral("Graph pairs (%1)").arg(pairRows.rows.size()));
        // Before the finding column (its text may hold commas), each number as the CSV writes it.
        const qsizetype finding = pairRows.header.indexOf(QStringLiteral("finding"));
        QVERIFY(finding > 0);
        int compared = 0;
        for (qsizetype csvColumn = 0; csvColumn < finding; ++csvColumn) {
            const int column = pairs->column(pairRows.header[csvColumn].toUtf8().constData());
            if (column < 0)
                continue; // not shown in the app
            for (int row = 0; row < pairs->rowCount(); ++row) {
                const QVariant shown = pairs->index(row, column).data(ReportTableModel::SortRole);
                const QString written = pairRows.rows[row][csvColumn];
                bool isNumber = false;
                const double value = written.toDouble(&isNumber);
                if (isNumber)
                    QVERIFY2(qAbs(shown.toDouble() - value) <= 1e-6 * std::max(1.0, qAbs(value)),
                        qPrintable(pairRows.header[csvColumn]
                            + QStringLiteral(": %1 against %2").arg(shown.toString(), written)));
                else
                    QCOMPARE(shown.toString(), written);
                ++compared;
            }
        }
        QVERIFY(compared >= 8 * pairs->rowCount());
        // The phase, the last column, shown as written and sorted by its number (util/phaseorder.h).
        const int phase = pairs->column("phase");
        QVERIFY(phase >= 0);
        for (int row = 0; row < pairs->rowCount(); ++row) {
            QCOMPARE(pairs->index(row, phase).data(Qt::DisplayRole).toString(), pairRows.rows[row].last());
            QCOMPARE(pairs->index(row, phase).data(ReportTableModel::SortRole).toLongLong(),
                static_cast<qlonglong>(phaseOrder(pairRows.rows[row].last().toStdString())));
        }
    }
};

QTEST_MAIN(TestGroupsPage)
#include "tst_groupspage.moc"
