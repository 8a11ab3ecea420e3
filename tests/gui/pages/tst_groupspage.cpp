// The Groups tab's drill-down agrees with the graph comparison: where the seed pairs a graph launch
// with one launch of the other trace that it covers among others (Pi0: the MI350's one graph and
// the H200's 1,510-kernel prefix graph), only the covered launch's part of it is aligned, and the
// title says which part and what the covering launch does the work of.

#include "mainwindowtestsupport.h"

#include "model/fusionreport.h"
#include "models/groupdiffmodel.h"
#include "pages/groupspage.h"
#include "pages/tablepage.h"
#include "shell/mainwindow.h"
#include "shell/resultstabs.h"

#include <QSettings>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>

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
    }
};

QTEST_MAIN(TestGroupsPage)
#include "tst_groupspage.moc"
