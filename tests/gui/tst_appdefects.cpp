// The defects a first session with the app ran into (issue 13), each driven as a user meets it:
// a dark theme, a new pair over an old one, the window's size on small screens, the keyboard,
// kernel and trace names, cancelling and the recent files.

#include "guitestsupport.h"

#include "analysiscontroller.h"
#include "barchart.h"
#include "chartpanel.h"
#include "colors.h"
#include "findingalignmentmodel.h"
#include "mainwindow.h"
#include "model/fusionreport.h"
#include "operationspage.h"
#include "tablechartpage.h"
#include "tablefilterproxy.h"
#include "tablepage.h"

#include <QAbstractAxis>
#include <QChart>
#include <QLegend>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTest>

using namespace fusiondiff;
using namespace fusiondiff::ui;

namespace {

constexpr int kTimeoutMs = 120000;
constexpr double kMinimumContrast = 4.5; // WCAG AA for body text

QString sampleA()
{
    return test::sourcePath(QStringLiteral("resources/samples/Qwen1.5-0.5B-Chat.mi300x.json.gz"));
}
QString sampleB()
{
    return test::sourcePath(QStringLiteral("resources/samples/Qwen1.5-0.5B-Chat.h100.json.gz"));
}

// Shows `window`, opens `a` and `b` in it and waits for their results.
bool compare(MainWindow& window, const QString& a, const QString& b)
{
    QSignalSpy shown(&window, &MainWindow::resultsShown);
    window.openTraces(a, b);
    return shown.wait(kTimeoutMs);
}

QString realTrace(const char* name)
{
    return test::realTrace(QString::fromLatin1(name));
}

QString contrastText(const QColor& a, const QColor& b)
{
    return QStringLiteral("%1 on %2: %3").arg(a.name(), b.name()).arg(contrastRatio(a, b));
}

} // namespace

class TestAppDefects : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("FusionDiffTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_appdefects"));
    }

    void init() { QSettings().clear(); }

    // Highlighted rows, legend chips and charts keep the palette's text readable, in a light and
    // in a dark theme.
    void highlightsAndChartsFollowThePalette_data()
    {
        QTest::addColumn<bool>("dark");
        QTest::newRow("light") << false;
        QTest::newRow("dark") << true;
    }
    void highlightsAndChartsFollowThePalette()
    {
        QFETCH(bool, dark);
        const QPalette original = QApplication::palette();
        QApplication::setPalette(dark ? darkPalette() : QPalette(QColor(0xEF, 0xEF, 0xEF)));
        const auto restore = qScopeGuard([&] { QApplication::setPalette(original); });
        QCOMPARE(isDarkPalette(), dark);

        MainWindow window;
        window.show();
        QVERIFY(compare(window, sampleA(), sampleB()));
        const QColor text = QApplication::palette().color(QPalette::Text);
        for (const QColor& background :
            { sideBackground(0), sideBackground(1), differenceBackground(), gapBackground() })
            QVERIFY2(contrastRatio(text, background) >= kMinimumContrast, qPrintable(contrastText(text, background)));
        // The chips of the legends draw the palette's text on those backgrounds.
        QVERIFY(colorChip(sideBackground(0), QStringLiteral("x")).contains(text.name()));

        // The highlighted rows of the side-by-side view, as the model gives them.
        window.tabs()->setCurrentWidget(window.operationsPage());
        QAbstractItemModel* rows = window.operationsPage()->alignmentTable()->proxy();
        QVERIFY(rows->rowCount() > 0);
        int highlighted = 0;
        for (int row = 0; row < rows->rowCount(); ++row) {
            for (int column = 0; column < rows->columnCount(); ++column) {
                const QModelIndex index = rows->index(row, column);
                const QVariant background = index.data(Qt::BackgroundRole);
                if (!background.isValid())
                    continue;
                const QVariant foreground = index.data(Qt::ForegroundRole);
                const QColor shown = foreground.isValid() ? foreground.value<QColor>() : text;
                ++highlighted;
                QVERIFY2(contrastRatio(shown, background.value<QColor>()) >= kMinimumContrast,
                    qPrintable(contrastText(shown, background.value<QColor>())));
            }
        }
        QVERIFY(highlighted > 0);

        // The charts: their background is the palette's, their labels its text.
        window.tabs()->setCurrentWidget(window.kernelTypesPage());
        QChart* chart = window.kernelTypesPage()->chartPanel()->chart()->chart();
        const QColor chartBackground = chart->backgroundBrush().color();
        QVERIFY2(contrastRatio(chart->legend()->labelColor(), chartBackground) >= kMinimumContrast,
            qPrintable(contrastText(chart->legend()->labelColor(), chartBackground)));
        QVERIFY2(contrastRatio(chart->titleBrush().color(), chartBackground) >= kMinimumContrast,
            qPrintable(contrastText(chart->titleBrush().color(), chartBackground)));
        const QList<QAbstractAxis*> axes = chart->axes();
        QVERIFY(!axes.isEmpty());
        for (QAbstractAxis* axis : axes)
            QVERIFY2(contrastRatio(axis->labelsColor(), chartBackground) >= kMinimumContrast,
                qPrintable(contrastText(axis->labelsColor(), chartBackground)));
        QCOMPARE(chartBackground.lightnessF() < 0.5, dark);
    }

    // A pair without fusion opportunities shown on their tab, then a pair with some: the chart
    // takes its share of the page again, its labels whole.
    void chartAfterAnEmptyOpportunitiesTabIsFullSize()
    {
        MainWindow window;
        window.resize(1440, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(compare(window, sampleA(), sampleB()));
        TableChartPage* page = window.opportunitiesPage();
        window.tabs()->setCurrentWidget(page);
        QTest::qWait(50);
        QVERIFY(!page->chartPanel()->chart()->isVisible());

        QVERIFY(compare(
            window, realTrace("vllm_decode_full_graph.mi300x.json.gz"), realTrace("hta_trace_diff_test.v100.json.gz")));
        QTest::qWait(50);
        BarChart* chart = page->chartPanel()->chart();
        QVERIFY(chart->isVisible());
        QVERIFY2(chart->height() >= page->height() / 3, qPrintable(QString::number(chart->height())));
        QVERIFY2(chart->chart()->plotArea().width() >= chart->width() / 3,
            qPrintable(QString::number(chart->chart()->plotArea().width())));
    }
};

QTEST_MAIN(TestAppDefects)
#include "tst_appdefects.moc"
