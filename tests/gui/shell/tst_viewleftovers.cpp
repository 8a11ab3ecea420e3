// Issue 39's left-over and low GUI defects, each driven as a user met it on the real pairs: the
// Groups tab's words on graph traces, the Operation summary's order, the Layers table's digits,
// Enter in the search, and the pages that must fit their window.

#include "mainwindowtestsupport.h"

#include "analysis/analysiscontroller.h"
#include "display/durationsapart.h"
#include "display/formatting.h"
#include "display/pairlabel.h"
#include "model/fusionreport.h"
#include "models/layertimesmodel.h"
#include "models/reportcolumnsmodel.h"
#include "models/reporttablemodel.h"
#include "models/tablefilterproxy.h"
#include "ops/timegap/significance.h"
#include "pages/groupspage.h"
#include "pages/layerspage.h"
#include "pages/operationsummarypage.h"
#include "pages/stepspage.h"
#include "pages/tablepage.h"
#include "shell/globalsearch.h"
#include "shell/helpdialog.h"
#include "shell/mainwindow.h"
#include "shell/resultstabs.h"

#include <QAbstractItemView>
#include <QCompleter>
#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QTableView>
#include <QTest>

#include <algorithm>
#include <cmath>

using namespace fusiondiff;
using namespace fusiondiff::ui;

namespace {

QString realTrace(const char* name)
{
    return test::realTrace(QString::fromLatin1(name));
}

// The widgets of `page` whose minimum width is more than `room`, deepest first, for the message.
QStringList widerThan(QWidget* page, int room)
{
    QStringList wide;
    for (QWidget* child : page->findChildren<QWidget*>()) {
        if (child->isVisibleTo(page) && child->minimumSizeHint().width() > room)
            wide.append(QStringLiteral("%1 %2 (%3 px)")
                            .arg(QString::fromLatin1(child->metaObject()->className()), child->objectName())
                            .arg(child->minimumSizeHint().width()));
    }
    return wide;
}

QString apart(double aUs, double bUs)
{
    const std::array<QString, 2> shown = formatDurationsApart(aUs, bUs);
    return shown[0] + QStringLiteral(" vs ") + shown[1];
}

} // namespace

class TestViewLeftovers : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { test::useOwnSettings(QStringLiteral("tst_viewleftovers")); }
    void cleanupTestCase() { test::removeOwnSettings(); }

    // Pi0's pages fit a 1440-pixel window. Its Steps page was wider: a tab widget is as wide as its
    // widest page, and the Fusion opportunities' title, the reference analysis's caveat, did not wrap.
    void pi0PagesFitA1440Window()
    {
        MainWindow window;
        window.resize(1440, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(test::compare(window, realTrace("pi0_torchcompile_hipgraph.mi350.json.gz"),
            realTrace("pi0_torchcompile_cudagraph.h200.json.gz")));
        auto* scroll = qobject_cast<QScrollArea*>(window.centralWidget());
        QVERIFY(scroll);
        const int room = 1440 - scroll->verticalScrollBar()->sizeHint().width();
        QStringList tooWide;
        for (int tab = 0; tab < window.tabs()->count(); ++tab) {
            window.tabs()->setCurrentIndex(tab);
            QWidget* page = window.tabs()->widget(tab);
            if (page->minimumSizeHint().width() > room)
                tooWide.append(window.tabs()->tabText(tab) + QStringLiteral(": ")
                    + widerThan(page, room).join(QStringLiteral(", ")));
        }
        QVERIFY2(tooWide.isEmpty(), qPrintable(tooWide.join(QStringLiteral("; "))));
        window.tabs()->setCurrentWidget(window.tabs()->stepsPage());
        QTRY_VERIFY(scroll->widget()->width() <= room + scroll->verticalScrollBar()->sizeHint().width());
        QVERIFY(!scroll->horizontalScrollBar()->isVisible());
    }

    // Graph traces whose graphs are smaller than the group size: the Groups tab gives the core's
    // reason, not "recorded in eager mode"; eager traces keep it.
    void groupsTabSaysWhyThereAreNoGroups()
    {
        MainWindow window;
        window.show();
        QVERIFY(test::compare(window, realTrace("pi0_torchcompile_hipgraph.mi350.json.gz"),
            realTrace("pi0_torchcompile_cudagraph.h200.json.gz")));
        AnalysisOptions options = window.controller()->options();
        options.minGroupSize = 5000; // above Pi0's largest graph (1,520 kernels)
        QSignalSpy shown(&window, &MainWindow::resultsShown);
        window.controller()->setOptions(options);
        QVERIFY(shown.wait(test::kResultsTimeoutMs));
        QLabel* empty = window.groupsPage()->findChild<QLabel*>(QStringLiteral("groups_empty_text"));
        QVERIFY(empty);
        QVERIFY2(!empty->text().contains(QStringLiteral("eager")), qPrintable(empty->text()));
        QVERIFY2(empty->text().contains(QStringLiteral("launch CUDA/HIP graphs")), qPrintable(empty->text()));
        QVERIFY2(empty->text().contains(QStringLiteral("5000 or more kernels")), qPrintable(empty->text()));

        QVERIFY(test::compare(window, test::sampleA(), test::sampleB()));
        QVERIFY2(empty->text().contains(QStringLiteral("recorded in eager mode")), qPrintable(empty->text()));
    }

    // The Operation summary opens sorted by B - A, the operation adding most to the slower side's
    // time first, and not in the order of what fusion could save.
    void operationSummaryOpensByTheGap()
    {
        MainWindow window;
        window.show();
        QVERIFY(test::compare(window, realTrace("owlv2-large-patch14-ensemble.mi300x.json.gz"),
            realTrace("owlv2-large-patch14-ensemble.h100.json.gz")));
        const FusionReport& report = *window.controller()->results().report;
        TablePage* table = window.operationSummaryPage()->summaryTable();
        const double sign = report.timeGap.headline().deltaUs > 0 ? -1 : 1; // B - A's sign on the slower side
        std::vector<double> shown;
        for (int row = 0; row < table->proxy()->rowCount(); ++row) {
            const int source = table->proxy()->index(row, 0).data(ReportTableModel::SourceRowRole).toInt();
            const OpSummary& op = report.opSummary[static_cast<size_t>(source)];
            shown.push_back(sign * (op.timeUs[1].total - op.timeUs[0].total));
        }
        QVERIFY(shown.size() > 10);
        QVERIFY(std::is_sorted(shown.begin(), shown.end(), std::greater<>()));
        // The core's order (by what fusion could save) is another one on this pair.
        std::vector<double> core;
        for (const OpSummary& op : report.opSummary)
            core.push_back(sign * (op.timeUs[1].total - op.timeUs[0].total));
        QVERIFY(!std::is_sorted(core.begin(), core.end(), std::greater<>()));
    }

    // Two durations whose difference the usual one decimal hides get the decimals it needs.
    void durationsShowTheirDifference()
    {
        QCOMPARE(apart(1234, 1300), QStringLiteral("1.234 ms vs 1.300 ms"));
        QCOMPARE(apart(1200, 1341), QStringLiteral("1.20 ms vs 1.34 ms"));
        QCOMPARE(apart(1200, 2900), QStringLiteral("1.2 ms vs 2.9 ms"));
        QCOMPARE(apart(1200.2, 1200.4), QStringLiteral("1.200 ms vs 1.200 ms"));
        QCOMPARE(apart(350, 420), QStringLiteral("350 us vs 420 us"));
        QCOMPARE(apart(2.5e6, 2.51e6), QStringLiteral("2.500 s vs 2.510 s"));
    }

    // On the bundled pair's 24 layers, every row of the Layers table shows its A and B times so
    // that their difference reads from them, within a unit of the last digit shown.
    void layersTableShowsTheDifference()
    {
        MainWindow window;
        window.show();
        QVERIFY(test::compare(window, test::sampleA(), test::sampleB()));
        const FusionReport& report = *window.controller()->results().report;
        QVERIFY(report.layerTimes.size() >= 20);
        QAbstractItemModel* model = window.layersPage()->layersTable()->sourceModel();
        auto* columns = qobject_cast<ReportColumnsModel*>(model);
        QVERIFY(columns);
        const int a = columns->column("trace1_time_us");
        const int b = columns->column("trace2_time_us");
        for (int row = 0; row < model->rowCount(); ++row) {
            const LayerTimes& layer = report.layerTimes[static_cast<size_t>(row)];
            const QString textA = model->index(row, a).data().toString();
            const QString textB = model->index(row, b).data().toString();
            QVERIFY2(textA.endsWith(QStringLiteral(" ms")) && textB.endsWith(QStringLiteral(" ms")), qPrintable(textA));
            const double shownA = textA.chopped(3).toDouble() * 1000;
            const double shownB = textB.chopped(3).toDouble() * 1000;
            const int decimals = static_cast<int>(textA.chopped(3).section(QLatin1Char('.'), 1).size());
            const double step = 1000 * std::pow(10.0, -decimals);
            const double delta = layer.timeUs[1] - layer.timeUs[0];
            // Two significant digits of the difference (down to 1 us), and it reads from the two times.
            QVERIFY2(
                step <= std::max(1.0, std::fabs(delta) / 10 * 1.0001) && std::fabs((shownB - shownA) - delta) <= step,
                qPrintable(QStringLiteral("layer %1: %2 vs %3, B - A %4 us")
                               .arg(row)
                               .arg(textA, textB)
                               .arg(layer.timeUs[1] - layer.timeUs[0])));
        }
    }

    // Enter in the search box opens the first match while the list is open, nothing chosen in it.
    void enterOpensTheFirstMatch()
    {
        MainWindow window;
        window.resize(1440, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(test::compare(window, test::sampleA(), test::sampleB()));
        GlobalSearch* search = window.search();
        const QList<GlobalSearch::Hit> hits = search->find(QStringLiteral("gemm"), 1);
        QVERIFY(!hits.isEmpty());
        QList<GlobalSearch::Hit> activated;
        connect(search, &GlobalSearch::hitActivated, this,
            [&activated](const GlobalSearch::Hit& hit) { activated.append(hit); });
        search->setFocus();
        QTest::keyClicks(search, QStringLiteral("gemm"));
        QAbstractItemView* popup = search->completer()->popup();
        QVERIFY(QTest::qWaitFor([&] { return popup->isVisible(); }, 5000));
        QVERIFY(!popup->currentIndex().isValid());
        QTest::keyClick(popup, Qt::Key_Return);
        QCOMPARE(activated.count(), 1);
        const GlobalSearch::Hit& hit = activated.first();
        QCOMPARE(hit.kind, hits.first().kind);
        QCOMPARE(hit.row, hits.first().row);
        QVERIFY(!popup->isVisible());
    }

    // Two traces with alike labels (the core names them "A: x" and "B: x"): the status bar says
    // "A:" once a side.
    void alikeLabelsSayTheirSideOnce()
    {
        FusionReport report;
        report.traces[0].label = "A: pi0.h200 (NVIDIA H200)";
        report.traces[1].label = "B: pi0.h200 (NVIDIA H200)";
        const PairDescription pair = describePair(report);
        const QString whole = wholePairText(pair);
        QVERIFY2(
            !whole.contains(QStringLiteral("A: A:")) && !whole.contains(QStringLiteral("B: B:")), qPrintable(whole));
        QVERIFY2(whole.contains(QStringLiteral("A: pi0.h200 (NVIDIA H200)  vs  B: pi0.h200 (NVIDIA H200)")),
            qPrintable(whole));
    }

    // The glossary's "within noise" gives both bounds the verdict uses: the spread and the floor.
    void glossaryGivesTheNoiseFloor()
    {
        QWidget window;
        const QString help = HelpDialog::html(&window);
        const QString floor = QStringLiteral("%1% of the faster side").arg(std::lround(kNoiseFloorShare * 100));
        QVERIFY2(help.contains(floor), qPrintable(help));
        QVERIFY(help.contains(QStringLiteral("standard error")));
    }
};

QTEST_MAIN(TestViewLeftovers)
#include "tst_viewleftovers.moc"
