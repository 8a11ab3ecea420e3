// How responsive the window stays while it loads and analyses: a heartbeat timer on the GUI thread
// measures the longest gap between its ticks (the longest event-loop stall) from the moment the
// traces are opened until the results are on screen. The figures are printed for
// docs/performance.md and docs/gui.md; the test fails only on an absurd stall (a sanity bound),
// timing lives in the docs.

#include "guitestsupport.h"

#include "analysis/analysiscontroller.h"
#include "shell/mainwindow.h"

#include <QElapsedTimer>
#include <QEventLoop>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTest>
#include <QTimer>

using namespace fusiondiff;
using namespace fusiondiff::ui;

namespace {

// Runs the event loop for `milliseconds`. Not QTest::qWait: it sleeps 10 ms between its rounds
// of event processing, which the heartbeat would count as stalls.
void spin(int milliseconds)
{
    QEventLoop loop;
    QTimer::singleShot(milliseconds, &loop, &QEventLoop::quit);
    loop.exec();
}

} // namespace

class TestResponsiveness : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { test::useOwnSettings(QStringLiteral("tst_responsiveness")); }
    void cleanupTestCase() { test::removeOwnSettings(); }

    void longestStallWhileAnalysing_data()
    {
        QTest::addColumn<QString>("a");
        QTest::addColumn<QString>("b");
        QTest::addColumn<QString>("classifier");
        QTest::addColumn<QStringList>("parameters");
        QTest::addRow("bundled Qwen pair") << test::sampleA() << test::sampleB() << QString() << QStringList();
        QTest::addRow("xdit vs hta, seed rules") << test::realTrace(QStringLiteral("xdit_flux_aiter.mi300x.json.gz"))
                                                 << test::realTrace(QStringLiteral("hta_trace_diff_test.v100.json.gz"))
                                                 << QStringLiteral("seed") << QStringList();
        // A graph finding of 544 against 421 kernels, shown side by side as the results arrive.
        QTest::addRow("sglang vs vllm graphs, size tolerance 0.3")
            << test::realTrace(QStringLiteral("sglang_qwen3-8b_decode.mi300x.json.gz"))
            << test::realTrace(QStringLiteral("vllm_decode_full_graph.mi300x.json.gz")) << QString()
            << QStringList { QStringLiteral("size_tolerance=0.3") };
    }

    void longestStallWhileAnalysing()
    {
        QFETCH(QString, a);
        QFETCH(QString, b);
        QFETCH(QString, classifier);
        QFETCH(QStringList, parameters);

        MainWindow window;
        window.resize(1440, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        if (!classifier.isEmpty() || !parameters.isEmpty())
            window.applyClassifierAndParameters(classifier, parameters);
        QTest::qWait(100);

        QElapsedTimer clock;
        qint64 last = 0;
        qint64 longest = 0;
        QTimer heartbeat;
        heartbeat.setTimerType(Qt::PreciseTimer);
        heartbeat.setInterval(1);
        connect(&heartbeat, &QTimer::timeout, this, [&] {
            const qint64 now = clock.nsecsElapsed();
            longest = std::max(longest, now - last);
            last = now;
        });

        QSignalSpy shown(&window, &MainWindow::resultsShown);
        clock.start();
        heartbeat.start();
        window.openTraces(a, b); // validation, then loading and analysis on the worker thread
        QVERIFY(shown.wait(120000));
        const qint64 toResults = clock.nsecsElapsed();
        // Let the result pages paint, then visit every tab as a user would.
        spin(100);
        for (int tab = 0; tab < window.tabs()->count(); ++tab) {
            window.tabs()->setCurrentIndex(tab);
            spin(50);
        }
        const qint64 stall = std::max(longest, clock.nsecsElapsed() - last);
        heartbeat.stop();

        qInfo("%s: results on screen after %.1f ms; longest event-loop stall %.1f ms (heartbeat every 1 ms, "
              "from opening the traces until every tab was shown)",
            QTest::currentDataTag(), static_cast<double>(toResults) / 1e6, static_cast<double>(stall) / 1e6);
        // A sanity bound only: the figure that matters is printed above and kept in the docs.
        QVERIFY2(stall < 2'000'000'000, "the window froze for more than two seconds");
    }
};

QTEST_MAIN(TestResponsiveness)
#include "tst_responsiveness.moc"
