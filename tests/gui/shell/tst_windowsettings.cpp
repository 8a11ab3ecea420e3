// What the window keeps between runs besides the recent files: every analysis parameter and the
// operation level as they were (those never saved, or saved unreadable, at their defaults), the
// classifier (the built-in one where the saved rule file is gone), only the dividers the user
// placed, the charts' modes, and a window without a saved place fitted to its screen.

#include "guitestsupport.h"

#include "analysis/analysiscontroller.h"
#include "analysis/analysissettingswidget.h"
#include "charts/barchart.h"
#include "charts/chartpanel.h"
#include "charts/layerchart.h"
#include "classify/classifier.h"
#include "pages/layerspage.h"
#include "pages/resultspage.h"
#include "pages/tablechartpage.h"
#include "shell/resultstabs.h"
#include "shell/windowsettings.h"

#include <QMainWindow>
#include <QScreen>
#include <QSettings>
#include <QSplitter>
#include <QTest>
#include <QVBoxLayout>

using namespace fusiondiff;
using namespace fusiondiff::ui;

namespace {

QString parameterName(const AnalysisParameter& parameter)
{
    return QString::fromLatin1(parameter.name.data(), static_cast<qsizetype>(parameter.name.size()));
}

// A window as MainWindow has it, with two named splitters of a page's.
struct Window
{
    QMainWindow window;
    AnalysisSettingsWidget* analysis = new AnalysisSettingsWidget(&window);
    AnalysisController controller;
    ResultsTabs* tabs = new ResultsTabs(&window);
    QSplitter* moved = nullptr;
    QSplitter* untouched = nullptr;

    Window()
    {
        auto* central = new QWidget(&window);
        auto* layout = new QVBoxLayout(central);
        for (QSplitter** splitter : { &moved, &untouched }) {
            *splitter = new QSplitter(central);
            (*splitter)->setObjectName(splitter == &moved ? QStringLiteral("moved") : QStringLiteral("untouched"));
            (*splitter)->addWidget(new QWidget);
            (*splitter)->addWidget(new QWidget);
            layout->addWidget(*splitter);
        }
        layout->addWidget(tabs);
        window.setCentralWidget(central);
    }
    WindowSettings settings() { return WindowSettings(&window, analysis, &controller, tabs); }
};

} // namespace

class TestWindowSettings : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { test::useOwnSettings(QStringLiteral("tst_windowsettings")); }

    void cleanupTestCase() { test::removeOwnSettings(); }

    void init() { QSettings().clear(); }

    void everyParameterAndTheOperationLevelComeBack()
    {
        AnalysisOptions changed;
        for (const AnalysisParameter& parameter : analysisParameters()) {
            const double value = parameterValue(changed, parameter);
            const std::string text = parameter.isInteger ? std::to_string(static_cast<int64_t>(value) + 3)
                                                         : QString::number(value * 1.5 + 0.1, 'g', 17).toStdString();
            QCOMPARE(setAnalysisParameter(changed, parameter.name, text), std::string());
        }
        changed.opLevel = OpLevel::Module;
        {
            QSettings settings;
            WindowSettings::saveOptions(settings, changed);
        }
        const QSettings settings;
        const AnalysisOptions loaded = WindowSettings::loadOptions(settings);
        const AnalysisOptions defaults;
        for (const AnalysisParameter& parameter : analysisParameters()) {
            QVERIFY2(parameterValue(loaded, parameter) == parameterValue(changed, parameter),
                qPrintable(parameterName(parameter)));
            QVERIFY(parameterValue(loaded, parameter) != parameterValue(defaults, parameter));
        }
        QCOMPARE(loaded.opLevel, OpLevel::Module);
    }

    void whatWasNotSavedOrCannotBeReadKeepsItsDefault()
    {
        const std::span<const AnalysisParameter> parameters = analysisParameters();
        QVERIFY(parameters.size() >= 2);
        QSettings settings;
        settings.setValue(QStringLiteral("analysis/parameters/") + parameterName(parameters[0]), QStringLiteral("-5"));
        settings.setValue(QStringLiteral("analysis/opLevel"), QStringLiteral("layer"));
        const AnalysisOptions loaded = WindowSettings::loadOptions(settings);
        const AnalysisOptions defaults;
        for (const AnalysisParameter& parameter : parameters)
            QCOMPARE(parameterValue(loaded, parameter), parameterValue(defaults, parameter));
        QCOMPARE(loaded.opLevel, defaults.opLevel);
    }

    void theSettingsWidgetAndTheControllerGetThemBack()
    {
        {
            Window first;
            QVERIFY(first.analysis->setClassifierSpec(QStringLiteral("seed")));
            first.analysis->setOpLevel(OpLevel::LaunchingOperator);
            first.settings().save();
        }
        Window second;
        second.settings().restore();
        QCOMPARE(second.analysis->classifierSpec(), QStringLiteral("seed"));
        QCOMPARE(second.controller.classifier()->name(), std::string("seed"));
        QCOMPARE(second.analysis->options().opLevel, OpLevel::LaunchingOperator);
        QCOMPARE(second.controller.options().opLevel, OpLevel::LaunchingOperator);
    }

    void aRuleFileThatIsGoneGivesTheBuiltInClassifier()
    {
        QSettings().setValue(QStringLiteral("analysis/classifier"), QStringLiteral("/nonexistent/rules.json"));
        Window window;
        window.settings().restore();
        QCOMPARE(window.analysis->classifierSpec(), QStringLiteral("default"));
        QCOMPARE(window.controller.classifier()->name(), std::string("default"));
    }

    void onlyTheDividersTheUserPlacedAreKept()
    {
        {
            Window first;
            first.settings().restore();
            QVERIFY(!first.moved->property(kUserSizedProperty).toBool());
            first.moved->setSizes({ 30, 70 });
            emit first.moved->splitterMoved(30, 1); // as when the user drags the divider
            QVERIFY(first.moved->property(kUserSizedProperty).toBool());
            first.settings().save();
        }
        QVERIFY(QSettings().contains(QStringLiteral("splitters/moved")));
        QVERIFY(!QSettings().contains(QStringLiteral("splitters/untouched")));
        Window second;
        second.settings().restore();
        QVERIFY(second.moved->property(kUserSizedProperty).toBool());
        QVERIFY(!second.untouched->property(kUserSizedProperty).toBool());
    }

    void theChartsAreDrawnAsTheyWere()
    {
        {
            Window first;
            first.settings().restore();
            QCOMPARE(first.tabs->kernelTypesPage()->chartPanel()->metric(), ChartPanel::Launches);
            QCOMPARE(first.tabs->layersPage()->chart()->mode(), LayerChart::Difference);
            first.tabs->kernelTypesPage()->chartPanel()->setMetric(ChartPanel::GpuTime);
            first.tabs->kernelTypesPage()->chartPanel()->setLogarithmic(true);
            first.tabs->opportunitiesPage()->chartPanel()->setMetric(ChartPanel::GpuTime);
            first.tabs->layersPage()->setChartMode(LayerChart::PerSide);
            first.settings().save();
        }
        Window second;
        second.settings().restore();
        QCOMPARE(second.tabs->kernelTypesPage()->chartPanel()->metric(), ChartPanel::GpuTime);
        QVERIFY(second.tabs->kernelTypesPage()->chartPanel()->chart()->isLogarithmic());
        QCOMPARE(second.tabs->opportunitiesPage()->chartPanel()->metric(), ChartPanel::GpuTime);
        QCOMPARE(second.tabs->layersPage()->chart()->mode(), LayerChart::PerSide);
    }

    void aWindowWithNoSavedPlaceIsFittedToItsScreen()
    {
        Window window;
        window.window.resize(4000, 3000);
        window.settings().restore();
        const QRect available = window.window.screen()->availableGeometry();
        QVERIFY(window.window.width() <= 1440 && window.window.height() <= 900);
        QVERIFY2(available.contains(window.window.geometry()),
            qPrintable(QStringLiteral("%1x%2 at %3,%4 in %5x%6")
                           .arg(window.window.width())
                           .arg(window.window.height())
                           .arg(window.window.x())
                           .arg(window.window.y())
                           .arg(available.width())
                           .arg(available.height())));
    }
};

QTEST_MAIN(TestWindowSettings)
#include "tst_windowsettings.moc"
