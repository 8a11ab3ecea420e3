// What the window shows before the first results: the welcome page, which with one trace loaded
// asks for the other and shows what the loaded one holds, and what each drop zone shows of its
// side (nothing yet, the trace, why it cannot be used, its capture trace).

#include "guitestsupport.h"

#include "analysis/analysiscontroller.h"
#include "display/formatting.h"
#include "model/tracestore.h"
#include "shell/welcomepage.h"
#include "shell/zonestate.h"
#include "tracewriter.h"
#include "widgets/tracedropzone.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>

using namespace fusiondiff;
using namespace fusiondiff::ui;
using test::sampleA;
using test::sampleB;
using test::TraceWriter;

namespace {

constexpr int kTimeoutMs = 120000;

// Loads `path` as `side` and waits until it is loaded.
bool load(AnalysisController& controller, int side, const QString& path)
{
    controller.setTrace(side, path);
    return QTest::qWaitFor(
        [&] { return controller.side(side).status == AnalysisController::Status::Loaded; }, kTimeoutMs);
}

TraceError error(const QString& path, const QString& reason, std::optional<quint64> offset)
{
    TraceError result;
    result.path = path;
    result.reason = reason;
    result.byteOffset = offset;
    return result;
}

} // namespace

class TestWelcomePage : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { test::useOwnSettings(QStringLiteral("tst_welcomepage")); }

    void cleanupTestCase() { test::removeOwnSettings(); }

    void withNoTraceItAsksForTwo()
    {
        AnalysisController controller;
        WelcomePage page;
        page.showSides(controller);
        QCOMPARE(page.title()->text(), QStringLiteral("<h2>Drop two PyTorch profiler traces here</h2>"));
        QVERIFY(!page.openButton(0)->isDefault());
        QVERIFY(!page.openButton(1)->isDefault());
        QVERIFY(page.oneTraceView()->isHidden());
    }

    void withOneTraceItAsksForTheOtherAndShowsTheOne_data()
    {
        QTest::addColumn<int>("loaded");
        QTest::addColumn<QString>("title");
        QTest::newRow("A loaded") << 0 << QStringLiteral("Trace A is loaded (%1): now drop or open trace B");
        QTest::newRow("B loaded") << 1 << QStringLiteral("Trace B is loaded (%1): now drop or open trace A");
    }
    void withOneTraceItAsksForTheOtherAndShowsTheOne()
    {
        QFETCH(int, loaded);
        QFETCH(QString, title);
        const QString trace = loaded == 0 ? sampleA() : sampleB();
        AnalysisController controller;
        WelcomePage page;
        QVERIFY(load(controller, loaded, trace));
        page.showSides(controller);
        QCOMPARE(page.title()->text(), QStringLiteral("<h2>%1</h2>").arg(title.arg(QFileInfo(trace).fileName())));
        QVERIFY(page.openButton(1 - loaded)->isDefault());
        QVERIFY(!page.openButton(loaded)->isDefault());
        QVERIFY(!page.oneTraceView()->isHidden());
        const QString shown = page.oneTraceView()->toPlainText();
        const QString label = QString::fromStdString(controller.side(loaded).store->label);
        QVERIFY2(shown.startsWith(QStringLiteral("Kernel types of ") + label), qPrintable(shown));
        QVERIFY2(shown.contains(QLatin1String("The kernels that take the most GPU time")), qPrintable(shown));

        // Both loaded: the page asks for two again (the results replace it) and drops the one.
        QVERIFY(load(controller, 1 - loaded, loaded == 0 ? sampleB() : sampleA()));
        page.showSides(controller);
        QCOMPARE(page.title()->text(), QStringLiteral("<h2>Drop two PyTorch profiler traces here</h2>"));
        QVERIFY(!page.openButton(0)->isDefault() && !page.openButton(1)->isDefault());
        QVERIFY(page.oneTraceView()->isHidden());
    }

    void itsButtonsAskTheWindow()
    {
        WelcomePage page;
        QSignalSpy open(&page, &WelcomePage::openRequested);
        QSignalSpy samples(&page, &WelcomePage::sampleTracesRequested);
        QTest::mouseClick(page.openButton(1), Qt::LeftButton);
        QTest::mouseClick(page.openButton(0), Qt::LeftButton);
        QCOMPARE(open.size(), 2);
        QCOMPARE(open.at(0).at(0).toInt(), 1);
        QCOMPARE(open.at(1).at(0).toInt(), 0);
        QVERIFY(page.sampleButton()->isEnabled()); // the sample traces are in the source tree
        QTest::mouseClick(page.sampleButton(), Qt::LeftButton);
        QCOMPARE(samples.size(), 1);
    }

    void aZoneShowsTheLoadedTrace()
    {
        AnalysisController controller;
        QVERIFY(load(controller, 0, sampleA()));
        const AnalysisController::SideState& state = controller.side(0);
        TraceDropZone zone(0);
        showSideState(zone, state);
        QCOMPARE(zone.fileText(), QFileInfo(sampleA()).fileName());
        const QString details = zone.detailsText();
        QVERIFY2(details.startsWith(QStringLiteral("AMD \u00B7 ")), qPrintable(details));
        QVERIFY2(details.contains(formatCount(state.totals.kernels) + QStringLiteral(" kernels")), qPrintable(details));
        QVERIFY2(details.endsWith(formatDuration(state.totals.kernelTimeUs) + QStringLiteral(" GPU time")),
            qPrintable(details));
        QCOMPARE(zone.errorText(), QString());
        QCOMPARE(zone.captureText(), QStringLiteral("No capture trace"));
    }

    // A trace without a GPU name still has GPU time: the zone says the model is what is missing.
    void aZoneSaysTheGpuModelIsNotRecorded()
    {
        QTemporaryDir dir;
        const QString path = TraceWriter()
                                 .amd("")
                                 .launch("aten::add", { "elementwise_kernel" })
                                 .write(dir, QStringLiteral("nogpu.json"));
        AnalysisController controller;
        QVERIFY(load(controller, 0, path));
        const AnalysisController::SideState& state = controller.side(0);
        QVERIFY(state.store->gpuName.empty());
        TraceDropZone zone(0);
        showSideState(zone, state);
        const QString details = zone.detailsText();
        QVERIFY2(details.startsWith(QStringLiteral("AMD \u00B7 GPU model not recorded \u00B7 ")), qPrintable(details));
        QVERIFY2(details.endsWith(formatDuration(state.totals.kernelTimeUs) + QStringLiteral(" GPU time")),
            qPrintable(details));
    }

    // Narrow zones (the window at twice the scale) elide the file names, but keep the parts that
    // tell them apart: eliding both in the middle left "Qwen1.5-0…x.json.gz" and "Qwen1.5-0…0.json.gz".
    void narrowZonesKeepWhereTheFileNamesDiffer()
    {
        QWidget window;
        auto* layout = new QHBoxLayout(&window);
        TraceDropZone a(0);
        TraceDropZone b(1);
        layout->addWidget(&a);
        layout->addWidget(&b);
        a.setOtherZone(&b);
        b.setOtherZone(&a);
        a.showLoaded(QStringLiteral("/traces/Qwen1.5-0.5B-Chat.mi300x.json.gz"), QStringLiteral("AMD"));
        b.showLoaded(QStringLiteral("/traces/Qwen1.5-0.5B-Chat.h100.json.gz"), QStringLiteral("NVIDIA"));
        window.resize(560, 300);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QApplication::processEvents();
        for (auto* zone : { &a, &b }) {
            const QString shown = zone->shownFileText();
            QVERIFY2(shown != zone->fileText(), qPrintable(shown)); // narrow enough to elide
            QVERIFY2(shown.contains(zone == &a ? QStringLiteral("mi300x") : QStringLiteral("h100")), qPrintable(shown));
        }
    }

    void aZoneShowsWhyItsTraceCannotBeUsed()
    {
        TraceDropZone zone(1);
        AnalysisController::SideState state;
        state.status = AnalysisController::Status::Failed;
        state.path = QStringLiteral("/traces/broken.json");
        state.error = error(state.path, QStringLiteral("not a JSON object"), 1234);
        showSideState(zone, state);
        QCOMPARE(zone.fileText(), QStringLiteral("broken.json"));
        QCOMPARE(zone.errorText(), QStringLiteral("Cannot use broken.json: not a JSON object (at byte 1234)"));

        state.error = error(state.path, QStringLiteral("the file is empty"), std::nullopt);
        showSideState(zone, state);
        QCOMPARE(zone.errorText(), QStringLiteral("Cannot use broken.json: the file is empty"));

        // Emptied again: the error goes with the trace.
        showSideState(zone, AnalysisController::SideState());
        QCOMPARE(zone.errorText(), QString());
        QCOMPARE(zone.fileText(), QStringLiteral("Drop a trace here (.json or .json.gz)"));
    }

    void aZoneShowsWhyItsCaptureCannotBeUsed()
    {
        TraceDropZone zone(0);
        AnalysisController::SideState state;
        state.status = AnalysisController::Status::Cancelled;
        state.path = QStringLiteral("/traces/run.json");
        state.capturePath = QStringLiteral("/traces/capture.json");
        state.captureError = error(state.capturePath, QStringLiteral("no graphs in it"), 99);
        showSideState(zone, state);
        QVERIFY2(zone.detailsText().startsWith(QLatin1String("Loading cancelled")), qPrintable(zone.detailsText()));
        QCOMPARE(zone.captureText(), QStringLiteral("Capture trace <b>capture.json</b>: no graphs in it (at byte 99)"));
    }
};

QTEST_MAIN(TestWelcomePage)
#include "tst_welcomepage.moc"
