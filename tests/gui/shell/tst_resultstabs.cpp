// The results' tabs, driven by their one list: every results tab titled from the report and
// naming the CSV table Export Current Table writes, a search hit shown in its tab and row (the
// filter that hid it cleared); and the exports of what the tabs show: the report with the charts
// the report has data for, as Markdown or HTML by the file's name, nothing without results.

#include "guitestsupport.h"

#include "analysis/analysiscontroller.h"
#include "export/csvexport.h"
#include "export/reportfilename.h"
#include "model/fusionreport.h"
#include "models/tablefilterproxy.h"
#include "pages/kernelspage.h"
#include "pages/layerspage.h"
#include "pages/operationspage.h"
#include "pages/tablechartpage.h"
#include "pages/tablepage.h"
#include "shell/globalsearch.h"
#include "shell/resultsexports.h"
#include "shell/resultstabs.h"
#include "timeline/tracetimelinepage.h"
#include "widgets/filterlineedit.h"

#include <QDir>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <set>

using namespace fusiondiff;
using namespace fusiondiff::ui;
using test::readFile;
using test::sampleA;
using test::sampleB;

namespace {

constexpr int kTimeoutMs = 120000;

// The results of the bundled pair.
AnalysisResults sampleResults()
{
    AnalysisController controller;
    QSignalSpy ready(&controller, &AnalysisController::resultsReady);
    controller.setTraces(sampleA(), sampleB());
    if (!ready.wait(kTimeoutMs))
        return {};
    return controller.results();
}

QStringList chartNames(const QList<ReportChart>& charts)
{
    QStringList names;
    for (const ReportChart& chart : charts) {
        names.append(chart.name);
        if (chart.image.isNull() || test::opaqueColours(chart.image) < 10)
            names.append(QStringLiteral("(blank)"));
    }
    return names;
}

} // namespace

class TestResultsTabs : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        test::useOwnSettings(QStringLiteral("tst_resultstabs"));
        m_results = sampleResults();
        QVERIFY(m_results.report);
        // The sample pair has layers and no fusion opportunity; the tests add or take them away.
        QVERIFY(!m_results.report->layerTimes.empty());
        QVERIFY(m_results.report->opportunities.empty());
    }

    void cleanupTestCase() { test::removeOwnSettings(); }

    void everyResultsTabIsTitledFromTheReport()
    {
        ResultsTabs tabs;
        const FusionReport& report = *m_results.report;
        tabs.setResults(m_results);
        const QStringList titles = {
            QStringLiteral("Summary"),
            QStringLiteral("Operations (%1)").arg(report.opFindings.size()),
            QStringLiteral("Layers (%1)").arg(report.layerTimes.size()),
            QStringLiteral("Steps (%1)")
                .arg(std::max(report.stepTime.sides[0].steps.size(), report.stepTime.sides[1].steps.size())),
            QStringLiteral("Operation summary (%1)").arg(report.opSummary.size()),
            QStringLiteral("Fusion opportunities (0)"),
            QStringLiteral("Fusion mappings (%1)").arg(report.mappings.size()),
            QStringLiteral("Kernel types (%1)").arg(report.globalCounts.size()),
            QStringLiteral("Kernels (%1)").arg(report.kernels.size()),
            QStringLiteral("Groups (%1 matched)").arg(report.groupPairs.size()),
            QStringLiteral("Efficiency (%1)").arg(report.efficiency.rows.size()),
            QStringLiteral("Timeline"),
        };
        QCOMPARE(tabs.count(), titles.size());
        for (int tab = 0; tab < tabs.count(); ++tab)
            QCOMPARE(tabs.tabText(tab), titles[tab]);

        // A new report retitles them.
        auto fewer = std::make_shared<FusionReport>(report);
        fewer->layerTimes.clear();
        fewer->opFindings.clear();
        AnalysisResults results = m_results;
        results.report = fewer;
        tabs.setResults(results);
        QCOMPARE(tabs.tabText(tabs.indexOf(tabs.operationsPage())), QStringLiteral("Operations (0)"));
        QCOMPARE(tabs.tabText(tabs.indexOf(tabs.layersPage())), QStringLiteral("Layers (none)"));
    }

    void eachResultsTabNamesItsCsvTable()
    {
        ResultsTabs tabs;
        tabs.setResults(m_results);
        const QStringList tables = csvTableNames();
        std::set<QString> named;
        for (int tab = 0; tab < tabs.count(); ++tab) {
            tabs.setCurrentIndex(tab);
            const QString name = tabs.currentTableCsvName();
            if (tabs.currentWidget() == tabs.timelinePage()) {
                QCOMPARE(name, QString()); // not a table
                continue;
            }
            QVERIFY2(tables.contains(name), qPrintable(tabs.tabText(tab) + QStringLiteral(": ") + name));
            named.insert(name);
        }
        QCOMPARE(named.size(), size_t(tabs.count() - 1)); // a table of its own each
    }

    void aSearchHitIsShownInItsTabAndRow()
    {
        ResultsTabs tabs;
        tabs.show();
        QVERIFY(QTest::qWaitForWindowExposed(&tabs));
        tabs.setResults(m_results);
        TablePage* types = tabs.kernelTypesPage()->table();
        types->filterEdit()->setText(QStringLiteral("no such kernel type"));
        types->filterEdit()->applyNow();
        QCOMPARE(types->proxy()->rowCount(), 0);

        tabs.showSearchHit(GlobalSearch::KernelType, 1);
        QCOMPARE(tabs.currentWidget(), tabs.kernelTypesPage());
        QCOMPARE(types->filterEdit()->text(), QString());
        QCOMPARE(types->selectedSourceRows(), QList<int>({ 1 }));

        tabs.showSearchHit(GlobalSearch::Kernel, 2);
        QCOMPARE(tabs.currentWidget(), tabs.kernelsTab());
        QCOMPARE(tabs.kernelsPage()->selectedSourceRows(), QList<int>({ 2 }));
    }

    void theReportTakesTheChartsItHasDataFor()
    {
        ResultsTabs tabs;
        ResultsExports exports(&tabs, nullptr);
        tabs.setResults(m_results);
        QCOMPARE(chartNames(exports.reportCharts()),
            QStringList({ QStringLiteral("kernel_types"), QStringLiteral("layer_times") }));

        auto other = std::make_shared<FusionReport>(*m_results.report);
        other->layerTimes.clear();
        FusionOpportunity opportunity;
        opportunity.kernelType = other->globalCounts.front().type;
        opportunity.total = { 40, 20 };
        opportunity.timeMs = { 2.0, 1.0 };
        other->opportunities.push_back(opportunity);
        AnalysisResults results = m_results;
        results.report = other;
        tabs.setResults(results);
        QCOMPARE(chartNames(exports.reportCharts()),
            QStringList({ QStringLiteral("kernel_types"), QStringLiteral("fusion_opportunities") }));
    }

    void theReportIsMarkdownOrHtmlByItsName()
    {
        ResultsTabs tabs;
        ResultsExports exports(&tabs, nullptr);
        tabs.setResults(m_results);
        QTemporaryDir dir;
        const QString markdown = dir.filePath(QStringLiteral("report.MD"));
        QCOMPARE(exports.exportReport(markdown), QString());
        QVERIFY(readFile(markdown).startsWith("# "));
        QVERIFY(readFile(markdown).contains("report_layer_times.png"));
        QCOMPARE(test::filesIn(dir.path()),
            QStringList({ QStringLiteral("report.MD"), QStringLiteral("report_kernel_types.png"),
                QStringLiteral("report_layer_times.png") }));

        const QString html = dir.filePath(QStringLiteral("report.html"));
        QCOMPARE(exports.exportReport(html), QString());
        const QByteArray page = readFile(html);
        QVERIFY(page.contains("<html") || page.contains("<!DOCTYPE"));
        QCOMPARE(page.count("src=\"data:image/png;base64,"), 2); // the charts inside the one file
    }

    // The report's default name tells the pair apart (it was "fusiondiff-report.html" for every pair).
    void theReportIsNamedAfterThePair()
    {
        ResultsTabs tabs;
        ResultsExports exports(&tabs, nullptr);
        QCOMPARE(exports.reportFileName(), QString());
        tabs.setResults(m_results);
        QCOMPARE(exports.reportFileName(), QStringLiteral("fusiondiff-Qwen1.5-0.5B-Chat.mi300x-vs-h100.html"));

        QCOMPARE(defaultReportFileName(QStringLiteral("pi0_torchcompile_hipgraph.mi350.json.gz"),
                     QStringLiteral("pi0_torchcompile_cudagraph.h200.json.gz")),
            QStringLiteral("fusiondiff-pi0_torchcompile_hipgraph.mi350-vs-cudagraph.h200.html"));
        QCOMPARE(defaultReportFileName(QStringLiteral("dlrm_worker0.v100.pt.trace.json"),
                     QStringLiteral("resnet50.worker0.pt.trace.json.gz")),
            QStringLiteral("fusiondiff-dlrm_worker0.v100-vs-resnet50.worker0.html"));
        // Unsafe characters become one '-', and no part starts with a dot (a hidden file).
        QCOMPARE(defaultReportFileName(QStringLiteral("..my run: A/B?.json"), QStringLiteral("run \"2\" *.json")),
            QStringLiteral("fusiondiff-my-run-A-B-vs-run-2.html"));
        // The same name twice stays whole on both sides; a name without usable characters falls back.
        QCOMPARE(defaultReportFileName(QStringLiteral("trace.json"), QStringLiteral("trace.json")),
            QStringLiteral("fusiondiff-trace-vs-trace.html"));
        QCOMPARE(defaultReportFileName(QStringLiteral("???.json"), QStringLiteral("b.json")),
            QStringLiteral("fusiondiff-report.html"));
        // Long names are cut: the whole name stays a valid file name.
        const QString longName = defaultReportFileName(QString(200, u'a'), QString(200, u'b'));
        QVERIFY2(longName.size() < 160, qPrintable(longName));
    }

    void withoutResultsNothingIsWritten()
    {
        ResultsTabs tabs;
        ResultsExports exports(&tabs, nullptr);
        QTemporaryDir dir;
        QCOMPARE(exports.exportAll(dir.filePath(QStringLiteral("csv"))),
            QStringLiteral("There are no results to export yet."));
        QCOMPARE(exports.exportReport(dir.filePath(QStringLiteral("report.html"))),
            QStringLiteral("There are no results to export yet."));
        QCOMPARE(test::filesIn(dir.path()), QStringList());
    }

private:
    AnalysisResults m_results;
};

QTEST_MAIN(TestResultsTabs)
#include "tst_resultstabs.moc"
