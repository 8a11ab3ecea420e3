// guibench: the desktop app's goals measured in the app itself (offscreen): how long after opening
// two traces the results are on screen, the longest event-loop stall meanwhile (a 1 ms heartbeat
// on the GUI thread), and how the progress bar moves: updates, and the longest time between two.
//
//   QT_QPA_PLATFORM=offscreen guibench A B
//
// Prints one line; bench/run.sh --gui runs it on the bundled pair and on the 2 GB pair.
//
//   QT_QPA_PLATFORM=offscreen guibench --timeline A B [KERNELS]
//
// The two-lane timeline on the first KERNELS (20,000) kernels of each trace: the time of one paint
// of a 1440x240 view showing all of them, then zoomed in step by step to a few kernels, then
// panned across, each frame painted as the widget paints itself (into a raster image).

#include "analysis/analysiscontroller.h"
#include "classify/classifier.h"
#include "fusionanalysis.h"
#include "load/traceloader.h"
#include "model/tracestore.h"
#include "shell/mainwindow.h"
#include "timeline/timelinedata.h"
#include "timeline/timelineview.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QPainter>
#include <QTimer>

#include <algorithm>
#include <cstdio>

namespace {

int timelineBench(const QStringList& arguments)
{
    using namespace fusiondiff;
    if (arguments.size() < 4 || arguments.size() > 5) {
        std::fprintf(stderr, "usage: guibench --timeline A B [KERNELS]\n");
        return 2;
    }
    const size_t kernels = arguments.size() == 5 ? arguments.at(4).toULongLong() : 20000;
    const TraceStore a = loadTrace(arguments.at(2).toStdString());
    const TraceStore b = loadTrace(arguments.at(3).toStdString());
    const Classifier classifier = Classifier::builtin("default");
    // The report's step time: the lanes' idle gaps, shaded as the Timeline tab shades them.
    const FusionReport report = analyzeFusion(a, b, classifier, AnalysisOptions {});
    ui::TimelineView view;
    view.resize(1440, 240);
    view.setData(ui::timelineOfTraces({ &a, &b }, classifier, kernels, &report.stepTime));
    QImage image(view.size(), QImage::Format_ARGB32_Premultiplied);

    std::vector<double> frames;
    int drawnAtFit = 0;
    int mergedAtFit = 0;
    int gapsAtFit = 0;
    const auto frame = [&] {
        QElapsedTimer timer;
        timer.start();
        QPainter painter(&image);
        view.paint(painter, view.size());
        painter.end();
        frames.push_back(double(timer.nsecsElapsed()) / 1e6);
    };
    frame(); // warm-up: fonts, glyph caches
    frames.clear();
    view.fitAll();
    frame();
    drawnAtFit = view.drawnKernels();
    mergedAtFit = view.mergedKernels();
    gapsAtFit = view.drawnGaps();
    // Zoomed in around the middle, 1.25x a frame, until a few kernels fill the view, then panned
    // across at that zoom and at a middle one.
    const double end = view.timeline().end();
    for (int step = 0; step < 60 && view.visibleEnd() - view.visibleStart() > end / 20000; ++step) {
        view.zoomAt(1.25, 720);
        frame();
    }
    for (const double span : { end / 2000, end / 50 }) {
        for (int step = 0; step <= 40; ++step) {
            const double start = end * step / 40.0;
            view.setVisibleRange(start, start + span);
            frame();
        }
    }
    std::vector<double> sorted = frames;
    std::sort(sorted.begin(), sorted.end());
    const double median = sorted[sorted.size() / 2];
    const double p95 = sorted[std::min(sorted.size() - 1, sorted.size() * 95 / 100)];
    std::printf("guibench timeline: %zu + %zu kernels, %zu + %zu idle gaps; all in view: %.2f ms (%d drawn, %d merged "
                "into their pixel column, %d gaps drawn); %zu frames zoomed and panned: median %.2f ms, 95th "
                "percentile %.2f ms, longest %.2f ms\n",
        view.timeline().lanes[0].kernels.size(), view.timeline().lanes[1].kernels.size(),
        view.timeline().lanes[0].gaps.size(), view.timeline().lanes[1].gaps.size(), frames.front(), drawnAtFit,
        mergedAtFit, gapsAtFit, frames.size(), median, p95, sorted.back());
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    const QStringList arguments = app.arguments();
    if (arguments.size() > 1 && arguments.at(1) == QLatin1String("--timeline"))
        return timelineBench(arguments);
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
    QObject::connect(
        window.controller(), &fusiondiff::ui::AnalysisController::progressChanged, [&](int permille, const QString&) {
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
