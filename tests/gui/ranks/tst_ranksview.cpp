// The app on multi-rank runs: two folders dropped are compared as jobs, the Ranks view shows each
// rank's step time, wait and transfer as the CLI's job_steps and rank_times tables give them,
// choosing a rank compares that pair in every view, and a bad rank set is an error beside its side
// that leaves the report on screen.

#include "mainwindowtestsupport.h"

#include "analysis/analysiscontroller.h"
#include "model/fusionreport.h"
#include "model/jobreport.h"
#include "ranks/rankheatmap.h"
#include "ranks/rankspage.h"
#include "ranks/rankwaitbars.h"
#include "report/reportwriters.h"
#include "shell/resultstabs.h"
#include "widgets/tracedropzone.h"

#include <QComboBox>
#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <map>

using namespace fusiondiff;
using namespace fusiondiff::test;
using namespace fusiondiff::ui;

namespace {

// A CSV table of the report, as the CLI writes it: its rows by column name.
std::vector<std::map<QString, QString>> csvRows(const FusionReport& report, const std::string& name)
{
    std::vector<std::map<QString, QString>> rows;
    for (const CsvTable& table : reportToCsv(report)) {
        if (table.name != name)
            continue;
        const QStringList lines = QString::fromStdString(table.text).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        const QStringList header = lines.value(0).split(QLatin1Char(','));
        for (qsizetype line = 1; line < lines.size(); ++line) {
            const QStringList fields = lines[line].split(QLatin1Char(','));
            std::map<QString, QString> row;
            for (qsizetype column = 0; column < header.size(); ++column)
                row[header[column]] = fields.value(column);
            rows.push_back(row);
        }
    }
    return rows;
}

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    const size_t n = values.size();
    return n == 0 ? 0 : n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

QString dlrmFolder()
{
    return realTrace(QStringLiteral("dlrm_8ranks"));
}

QStringList dlrmFiles()
{
    QStringList files;
    for (const QString& name : QDir(dlrmFolder()).entryList({ QStringLiteral("*.json.gz") }, QDir::Files, QDir::Name))
        files << QDir(dlrmFolder()).filePath(name);
    return files;
}

} // namespace

class TestRanksView : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { useOwnSettings(QStringLiteral("tst_ranksview")); }
    void cleanupTestCase() { removeOwnSettings(); }

    // Two folders dropped on the window: the Ranks tab after the Summary, its numbers those of the
    // CLI's tables, the default pair the straggler's, the ranks in the title.
    void droppedFoldersShowTheRanksAsTheTablesDo()
    {
        MainWindow window;
        window.resize(1440, 900);
        window.show();
        QSignalSpy shown(&window, &MainWindow::resultsShown);
        QVERIFY(dropFiles(&window, { dlrmFolder(), realTrace(QStringLiteral("dlrm_8ranks_rank2_slow5x")) }));
        QVERIFY(shown.wait(kResultsTimeoutMs));
        const FusionReport& report = *window.controller()->results().report;
        QVERIFY(report.job);
        const JobReport& job = *report.job;
        RanksPage* page = window.tabs()->ranksPage();
        QCOMPARE(window.tabs()->indexOf(page), 1);
        // B's rank 2 is the slowed one: the default pair, marked on B, named in the title.
        QCOMPARE(job.detailedPair, (std::array<int32_t, 2> { 2, 2 }));
        QCOMPARE(page->waitBars(1)->rankOfRow(page->waitBars(1)->stragglerRow()), 2);
        QVERIFY2(window.windowTitle().contains(QStringLiteral("dlrm_8ranks_rank2_slow5x rank 2")),
            qPrintable(window.windowTitle()));
        QVERIFY(window.dropZone(1)->detailsText().startsWith(QStringLiteral("Rank 2 of 8")));

        window.tabs()->setCurrentWidget(page);
        const auto rankTimes = csvRows(report, "rank_times");
        const auto jobSteps = csvRows(report, "job_steps");
        QCOMPARE(rankTimes.size(), size_t(8));
        QVERIFY(!jobSteps.empty());
        for (int side = 0; side < 2; ++side) {
            const QString prefix = side == 0 ? QStringLiteral("trace1_") : QStringLiteral("trace2_");
            RankWaitBars* bars = page->waitBars(side);
            RankHeatmap* heatmap = page->heatmap(side);
            QCOMPARE(bars->rows(), 8);
            QCOMPARE(heatmap->rows(), 8);
            QCOMPARE(size_t(heatmap->steps()), jobSteps.size());
            page->setHeatmapValue(RanksPage::HeatmapValue::StepTime);
            for (int row = 0; row < 8; ++row) {
                const auto& csv = rankTimes[size_t(row)];
                QCOMPARE(csv.at(prefix + QStringLiteral("rank")).toInt(), bars->rankOfRow(row));
                QVERIFY(
                    qAbs(csv.at(prefix + QStringLiteral("collective_wait_us")).toDouble() - bars->waitAt(row)) < 0.5);
                QVERIFY(
                    qAbs(csv.at(prefix + QStringLiteral("collective_transfer_us")).toDouble() - bars->transferAt(row))
                    < 0.5);
                std::vector<double> times;
                for (int step = 0; step < heatmap->steps(); ++step)
                    times.push_back(heatmap->valueAt(row, step));
                QVERIFY(qAbs(csv.at(prefix + QStringLiteral("step_median_us")).toDouble() - median(times)) < 0.5);
            }
            for (int step = 0; step < heatmap->steps(); ++step) {
                const int straggler = jobSteps[size_t(step)].at(prefix + QStringLiteral("straggler")).toInt();
                const int row = heatmap->stragglerRowOfStep(step);
                QCOMPARE(row < 0 ? -1 : heatmap->rankOfRow(row), straggler);
            }
            // The wait heatmap's rows add up to the bars' waits.
            page->setHeatmapValue(RanksPage::HeatmapValue::CollectiveWait);
            for (int row = 0; row < 8; ++row) {
                double sum = 0;
                for (int step = 0; step < heatmap->steps(); ++step)
                    sum += heatmap->valueAt(row, step);
                QVERIFY(qAbs(sum - bars->waitAt(row)) < 0.5);
            }
            // The straggler marked is the first straggler of its side.
            for (const Straggler& straggler : job.stragglers) {
                if (int(sideIndex(straggler.slowerSide)) == side) {
                    QCOMPARE(bars->rankOfRow(bars->stragglerRow()), straggler.rank);
                    break;
                }
            }
        }
    }

    // A rank clicked in a heatmap is compared with its pair in every view; a single pair afterwards
    // has no Ranks tab.
    void choosingARankComparesThatPair()
    {
        MainWindow window;
        window.resize(1440, 900);
        window.show();
        QVERIFY(compare(window, dlrmFolder(), dlrmFolder()));
        RanksPage* page = window.tabs()->ranksPage();
        window.tabs()->setCurrentWidget(page);
        const int chosen = window.controller()->results().report->job->detailedPair[0] == 2 ? 5 : 2;
        RankHeatmap* heatmap = page->heatmap(0);
        QTRY_VERIFY(heatmap->isVisible() && heatmap->height() > 0);
        QSignalSpy shown(&window, &MainWindow::resultsShown);
        QTest::mouseClick(heatmap, Qt::LeftButton, {}, heatmap->cellCenter(chosen, 0));
        QVERIFY(shown.wait(kResultsTimeoutMs));
        const FusionReport& report = *window.controller()->results().report;
        QCOMPARE(report.job->detailedPair[0], chosen);
        QCOMPARE(report.job->detailedPair[1], chosen); // paired by number
        for (size_t side = 0; side < 2; ++side)
            QVERIFY(QString::fromStdString(report.traces[side].path).contains(QStringLiteral("worker%1").arg(chosen)));
        QVERIFY(window.windowTitle().contains(QStringLiteral("rank %1").arg(chosen)));
        QCOMPARE(page->heatmap(0)->selectedRow(), chosen);
        QVERIFY(page->pairCombo()->currentText().contains(QStringLiteral("A rank %1").arg(chosen)));

        QVERIFY(compare(window, dlrmFiles()[0], dlrmFiles()[1]));
        QVERIFY(!window.controller()->results().report->job);
        QCOMPARE(window.tabs()->indexOf(page), -1);
    }

    // A rank set with a rank missing: the core's error beside B, naming the rank; the report that
    // was on screen stays.
    void aBadRankSetKeepsTheReportOnScreen()
    {
        QTemporaryDir seven;
        QVERIFY(seven.isValid());
        const QStringList files = dlrmFiles();
        for (qsizetype r = 0; r < 7; ++r)
            QVERIFY(QFile::copy(files[r], seven.filePath(QFileInfo(files[r]).fileName())));
        MainWindow window;
        window.resize(1440, 900);
        window.show();
        QVERIFY(compare(window, dlrmFolder(), dlrmFolder()));
        const std::shared_ptr<const FusionReport> before = window.controller()->results().report;

        QSignalSpy busy(window.controller(), &AnalysisController::busyChanged);
        window.openTraces(dlrmFolder(), seven.path());
        QTRY_VERIFY_WITH_TIMEOUT(!window.controller()->isBusy(), kResultsTimeoutMs);
        QCOMPARE(window.controller()->side(1).status, AnalysisController::Status::Failed);
        const QString error = window.dropZone(1)->errorText();
        QVERIFY2(error.contains(QStringLiteral("missing")), qPrintable(error));
        QCOMPARE(window.tabs()->results().report, before);
        QVERIFY(window.tabs()->indexOf(window.tabs()->ranksPage()) >= 0);
        QCOMPARE(window.controller()->side(0).status, AnalysisController::Status::Loaded);
    }

    // Several rank files dropped on one zone make that side a run.
    void severalFilesDroppedOnAZoneAreARun()
    {
        MainWindow window;
        window.resize(1440, 900);
        window.show();
        QSignalSpy shown(&window, &MainWindow::resultsShown);
        window.openRun(0, { dlrmFolder() });
        QVERIFY(dropFiles(window.dropZone(1), dlrmFiles()));
        QVERIFY(shown.wait(kResultsTimeoutMs));
        const FusionReport& report = *window.controller()->results().report;
        QVERIFY(report.job);
        QCOMPARE(report.job->sides[1].ranks.size(), size_t(8));
        QVERIFY(window.dropZone(1)->detailsText().contains(QStringLiteral("of 8")));
    }
};

QTEST_MAIN(TestRanksView)
#include "tst_ranksview.moc"
