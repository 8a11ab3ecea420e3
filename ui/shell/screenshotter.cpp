#include "shell/screenshotter.h"

#include "efficiency/efficiencypage.h"
#include "efficiency/rooflinechart.h"
#include "ranks/rankspage.h"

#include "analysis/analysiscontroller.h"
#include "model/fusionreport.h"
#include "models/groupdiffmodel.h"
#include "pages/groupspage.h"
#include "pages/kernelspage.h"
#include "pages/layerspage.h"
#include "pages/operationspage.h"
#include "pages/operationsummarypage.h"
#include "pages/stepspage.h"
#include "pages/summarypage.h"
#include "pages/tablechartpage.h"
#include "pages/tablepage.h"
#include "shell/mainwindow.h"
#include "shell/timelinelinks.h"
#include "timeline/timelinepanel.h"
#include "timeline/timelineview.h"
#include "timeline/tracetimelinepage.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QDockWidget>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTimer>

namespace fusiondiff::ui {

namespace {

// Lets layouts, charts and queued signals settle. Deletions that Qt defers (a chart's removed
// axis items) wait for the event loop they were posted from, the app's own, which does not run
// while the screenshots are taken: run them here, as that loop would have by now.
void settle(int milliseconds)
{
    QEventLoop loop;
    QTimer::singleShot(milliseconds, &loop, &QEventLoop::quit);
    loop.exec();
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
}

template<typename Sender, typename Signal>
bool waitFor(Sender* sender, Signal signal, int timeoutMs)
{
    QEventLoop loop;
    bool arrived = false;
    QObject::connect(sender, signal, &loop, [&] {
        arrived = true;
        loop.quit();
    });
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    loop.exec();
    return arrived;
}

} // namespace

QStringList takeScreenshots(MainWindow& window, const QString& folder, const QString& prefix, bool welcome,
    const QStringList& traces, const QStringList& only)
{
    QStringList written;
    QDir().mkpath(folder);
    const auto save = [&](const QString& name) {
        if (!only.isEmpty() && !only.contains(name))
            return true;
        settle(400);
        const QString path = QDir(folder).filePath(prefix + name + QStringLiteral(".png"));
        if (!window.grab().save(path, "PNG")) {
            qWarning("cannot write %s", qPrintable(path));
            return false;
        }
        written.append(path);
        return true;
    };

    settle(300);
    if (welcome && !save(QStringLiteral("01-welcome")))
        return {};

    if (traces.size() == 2)
        window.openTraces(traces[0], traces[1]);
    else
        window.openSampleTraces();
    if (!waitFor(&window, &MainWindow::resultsShown, 300000)) {
        qWarning("no results within 5 minutes");
        return {};
    }

    const struct
    {
        QWidget* page;
        const char* name;
    } tabs[] = {
        { window.summaryPage(), "02-summary" },
        { window.opportunitiesPage(), "03-fusion-opportunities" },
        { window.mappingsPage(), "04-fusion-mappings" },
        { window.kernelTypesPage(), "05-kernel-types" },
        { window.kernelsTab(), "06-kernels" },
        { window.groupsPage(), "07-correlation-groups" },
        { window.operationsPage(), "11-operations" },
        { window.operationSummaryPage(), "12-operation-summary" },
        { window.timelinePage(), "13-timeline" },
        { window.layersPage(), "14-layers" },
        { window.tabs()->stepsPage(), "15-steps" },
        { window.tabs()->efficiencyPage(), "17-efficiency" },
    };
    for (const auto& tab : tabs) {
        window.tabs()->setCurrentWidget(tab.page);
        if (tab.page == window.opportunitiesPage())
            window.opportunitiesPage()->table()->selectSourceRows({ 0 });
        if (tab.page == window.kernelTypesPage())
            window.kernelTypesPage()->table()->selectSourceRows({ 0 });
        if (tab.page == window.tabs()->efficiencyPage()
            && !window.tabs()->efficiencyPage()->chart()->plottedRows().isEmpty())
            window.tabs()->efficiencyPage()->table()->selectSourceRows(
                { window.tabs()->efficiencyPage()->chart()->plottedRows().first() });
        if (tab.page == window.groupsPage() && window.groupsPage()->diffModel()->rowCount() == 0
            && window.groupsPage()->pairsTable()->sourceModel()->rowCount() > 0) {
            waitFor(window.groupsPage(), &GroupsPage::drillDownReady, 60000);
        }
        if (!save(QString::fromLatin1(tab.name)))
            return {};
    }

    // Multi-rank runs: the Ranks view, with either heatmap and either bar layout.
    if (window.controller()->results().report->job) {
        RanksPage* ranks = window.tabs()->ranksPage();
        window.tabs()->setCurrentWidget(ranks);
        if (!save(QStringLiteral("17-ranks")))
            return {};
        ranks->setHeatmapValue(RanksPage::HeatmapValue::CollectiveWait);
        ranks->setStackedBars(false);
        if (!save(QStringLiteral("18-ranks-wait")))
            return {};
        ranks->setHeatmapValue(RanksPage::HeatmapValue::StepTime);
        ranks->setStackedBars(true);
    }

    // The largest host, sync or launch entry of where to look first, its idle gaps selected on the
    // Timeline (as its link on the Summary does), then Back.
    const FusionReport& report = *window.controller()->results().report;
    for (size_t entry = 0; entry < report.whereToLookFirst.size(); ++entry) {
        const LookFirstKind kind = report.whereToLookFirst[entry].kind;
        if (kind != LookFirstKind::Host && kind != LookFirstKind::Sync && kind != LookFirstKind::Launch)
            continue;
        window.tabs()->timelineLinks()->showLookFirstEntry(static_cast<int>(entry));
        if (!save(QStringLiteral("16-timeline-idle")))
            return {};
        window.tabs()->timelineLinks()->back();
        break;
    }

    // Step 2 of A drawn with step 2 of B (the first is often a warm-up), where both have it.
    if (window.timelinePage()->stepAlignment()->findData(2) >= 0) {
        window.tabs()->setCurrentWidget(window.timelinePage());
        window.timelinePage()->alignSteps(2);
        if (!save(QStringLiteral("19-timeline-steps")))
            return {};
        window.timelinePage()->alignSteps(0);
        window.timelinePage()->timeline()->view()->fitAll();
    }

    window.tabs()->setCurrentWidget(window.kernelTypesPage());
    window.kernelTypesPage()->chartPanel()->setLogarithmic(true);
    if (!save(QStringLiteral("08-kernel-types-log-scale")))
        return {};
    window.kernelTypesPage()->chartPanel()->setLogarithmic(false);

    window.tabs()->setCurrentWidget(window.summaryPage());
    window.settingsDock()->show();
    if (!save(QStringLiteral("09-analysis-settings")))
        return {};
    window.settingsDock()->hide();

    // A trace that cannot be read: the first half of B's file. Its error shows beside B, and A
    // and the results stay.
    if (only.isEmpty() || only.contains(QStringLiteral("10-inline-error"))) {
        QTemporaryDir temporary;
        const QString source = window.controller()->side(1).path;
        QFile in(source);
        const QString broken = temporary.filePath(QFileInfo(source).fileName());
        QFile out(broken);
        if (!temporary.isValid() || !in.open(QIODevice::ReadOnly) || !out.open(QIODevice::WriteOnly))
            return {};
        out.write(in.read(in.size() / 2));
        out.close();
        window.openTrace(1, broken);
        if (window.controller()->isBusy() && !waitFor(window.controller(), &AnalysisController::busyChanged, 60000))
            return {};
        if (!save(QStringLiteral("10-inline-error")))
            return {};
    }
    return written;
}

} // namespace fusiondiff::ui
