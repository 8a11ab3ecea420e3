// guibench: the desktop app's goals measured in the app itself (offscreen): how long after opening
// two traces the results are on screen, the longest event-loop stall meanwhile (a 1 ms heartbeat
// on the GUI thread), and how the progress bar moves: updates, and the longest time between two.
//
//   QT_QPA_PLATFORM=offscreen guibench A B
//
// Prints one line; bench/run.sh --gui runs it on the bundled pair and on the 2 GB pair.

#include "analysiscontroller.h"
#include "mainwindow.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QTimer>

#include <algorithm>
#include <cstdio>

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    const QStringList arguments = app.arguments();
    if (arguments.size() != 3) {
        std::fprintf(stderr, "usage: guibench A B\n");
        return 2;
    }
    QApplication::setOrganizationName(QStringLiteral("FusionDiffBench"));
    fusiondiff::ui::MainWindow window;
    window.resize(1440, 900);
    window.show();

    QElapsedTimer clock;
    qint64 lastBeat = 0;
    qint64 longestStall = 0;
    QTimer heartbeat;
    heartbeat.setTimerType(Qt::PreciseTimer);
    heartbeat.setInterval(1);
    QObject::connect(&heartbeat, &QTimer::timeout, [&] {
        const qint64 now = clock.nsecsElapsed();
        longestStall = std::max(longestStall, now - lastBeat);
        lastBeat = now;
    });

    int updates = 0;
    int lastPermille = -1;
    qint64 lastUpdate = 0;
    qint64 longestGap = 0; // between two progress updates while loading
    bool backwards = false;
    QObject::connect(window.controller(), &fusiondiff::ui::AnalysisController::progressChanged,
        [&](int permille, const QString&) {
            const qint64 now = clock.nsecsElapsed();
            if (permille <= 900 && updates > 0)
                longestGap = std::max(longestGap, now - lastUpdate);
            backwards = backwards || permille < lastPermille;
            lastPermille = permille;
            lastUpdate = now;
            ++updates;
        });
    qint64 toResults = -1;
    QObject::connect(&window, &fusiondiff::ui::MainWindow::resultsShown, [&] {
        toResults = clock.nsecsElapsed();
        QTimer::singleShot(200, &app, &QApplication::quit); // let the pages paint
    });
    QObject::connect(window.controller(), &fusiondiff::ui::AnalysisController::analysisFailed, [&](const QString& m) {
        std::fprintf(stderr, "guibench: %s\n", qPrintable(m));
        app.exit(1);
    });

    QTimer::singleShot(100, [&] {
        clock.start();
        heartbeat.start();
        window.openTraces(arguments.at(1), arguments.at(2));
    });
    const int status = app.exec();
    if (status != 0 || toResults < 0)
        return 1;
    std::printf("guibench: results on screen after %.3f s; longest event-loop stall %.1f ms; %d progress updates, "
                "longest gap between two while loading %.0f ms%s\n",
        double(toResults) / 1e9, double(std::max(longestStall, clock.nsecsElapsed() - lastBeat)) / 1e6, updates,
        double(longestGap) / 1e6, backwards ? "; the bar went backwards" : "");
    return 0;
}
