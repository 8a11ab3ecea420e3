#include "shell/windowsettings.h"

#include "analysis/analysiscontroller.h"
#include "analysis/analysissettingswidget.h"
#include "charts/barchart.h"
#include "charts/chartpanel.h"
#include "charts/layerchart.h"
#include "pages/layerspage.h"
#include "pages/resultspage.h"
#include "pages/tablechartpage.h"
#include "shell/resultstabs.h"

#include <QFile>
#include <QMainWindow>
#include <QScreen>
#include <QSettings>
#include <QSplitter>

namespace fusiondiff::ui {

namespace {

const QString kClassifierKey = QStringLiteral("analysis/classifier");
const QString kOpLevelKey = QStringLiteral("analysis/opLevel");
const QString kPeaksFileKey = QStringLiteral("analysis/peaksFile");
const QString kOpportunitiesMetricKey = QStringLiteral("charts/opportunitiesMetric");
const QString kKernelTypesMetricKey = QStringLiteral("charts/kernelTypesMetric");
const QString kKernelTypesLogKey = QStringLiteral("charts/kernelTypesLog");
const QString kLayersModeKey = QStringLiteral("charts/layersMode");

QString parameterKey(const AnalysisParameter& parameter)
{
    return QStringLiteral("analysis/parameters/")
        + QString::fromLatin1(parameter.name.data(), static_cast<qsizetype>(parameter.name.size()));
}

} // namespace

WindowSettings::WindowSettings(
    QMainWindow* window, AnalysisSettingsWidget* analysis, AnalysisController* controller, ResultsTabs* tabs)
    : m_window(window)
    , m_analysis(analysis)
    , m_controller(controller)
    , m_tabs(tabs)
{ }

void WindowSettings::restore() const
{
    const QSettings settings;
    if (!m_window->restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray())
        || !m_window->screen()->availableGeometry().contains(m_window->frameGeometry()))
        fitToScreen(*m_window);
    m_window->restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    for (QSplitter* splitter : m_window->findChildren<QSplitter*>()) {
        if (splitter->objectName().isEmpty())
            continue;
        if (splitter->restoreState(settings.value(QStringLiteral("splitters/") + splitter->objectName()).toByteArray()))
            splitter->setProperty(kUserSizedProperty, true);
        QObject::connect(splitter, &QSplitter::splitterMoved, splitter,
            [splitter] { splitter->setProperty(kUserSizedProperty, true); });
    }

    const AnalysisOptions options = loadOptions(settings);
    m_analysis->setOptions(options);
    m_controller->setOptions(m_analysis->options()); // without a peaks file that is no longer one
    if (!m_analysis->setClassifierSpec(settings.value(kClassifierKey, QStringLiteral("default")).toString()))
        m_analysis->setClassifierSpec(QStringLiteral("default"));
    m_controller->setClassifier(m_analysis->classifier());

    m_tabs->opportunitiesPage()->chartPanel()->setMetric(
        static_cast<ChartPanel::Metric>(settings.value(kOpportunitiesMetricKey, ChartPanel::Launches).toInt()));
    m_tabs->kernelTypesPage()->chartPanel()->setMetric(
        static_cast<ChartPanel::Metric>(settings.value(kKernelTypesMetricKey, ChartPanel::Launches).toInt()));
    m_tabs->kernelTypesPage()->chartPanel()->setLogarithmic(settings.value(kKernelTypesLogKey, false).toBool());
    m_tabs->layersPage()->setChartMode(
        static_cast<LayerChart::Mode>(settings.value(kLayersModeKey, LayerChart::Difference).toInt()));
}

void WindowSettings::save() const
{
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), m_window->saveGeometry());
    settings.setValue(QStringLiteral("window/state"), m_window->saveState());
    // Only the dividers the user placed: the others keep the pages' own sizing.
    for (const QSplitter* splitter : m_window->findChildren<QSplitter*>()) {
        if (!splitter->objectName().isEmpty() && splitter->property(kUserSizedProperty).toBool())
            settings.setValue(QStringLiteral("splitters/") + splitter->objectName(), splitter->saveState());
    }
    settings.setValue(kClassifierKey, m_analysis->classifierSpec());
    saveOptions(settings, m_analysis->options());
    settings.setValue(kOpportunitiesMetricKey, m_tabs->opportunitiesPage()->chartPanel()->metric());
    settings.setValue(kKernelTypesMetricKey, m_tabs->kernelTypesPage()->chartPanel()->metric());
    settings.setValue(kKernelTypesLogKey, m_tabs->kernelTypesPage()->chartPanel()->chart()->isLogarithmic());
    settings.setValue(kLayersModeKey, m_tabs->layersPage()->chart()->mode());
}

AnalysisOptions WindowSettings::loadOptions(const QSettings& settings)
{
    AnalysisOptions options;
    for (const AnalysisParameter& parameter : analysisParameters()) {
        const QString key = parameterKey(parameter);
        if (settings.contains(key))
            setAnalysisParameter(options, parameter.name, settings.value(key).toString().toStdString());
    }
    parseOpLevel(settings.value(kOpLevelKey).toString().toStdString(), options.opLevel);
    options.peaksFile = QFile::encodeName(settings.value(kPeaksFileKey).toString()).toStdString();
    return options;
}

void WindowSettings::saveOptions(QSettings& settings, const AnalysisOptions& options)
{
    for (const AnalysisParameter& parameter : analysisParameters())
        settings.setValue(parameterKey(parameter), QString::number(parameterValue(options, parameter), 'g', 17));
    settings.setValue(kOpLevelKey, QString::fromLatin1(opLevelKey(options.opLevel)));
    settings.setValue(kPeaksFileKey, QFile::decodeName(options.peaksFile.c_str()));
}

void WindowSettings::fitToScreen(QMainWindow& window)
{
    // 1440x900 where there is room, else what the screen leaves for the window's frame and the
    // desktop's panels, centred: the status bar and its confirmations stay on screen.
    const QRect available = window.screen()->availableGeometry();
    const QSize frame(48, 64); // the title bar and borders of common window managers, unknown until shown
    const QSize room = (available.size() - frame).expandedTo(QSize(320, 240));
    window.resize(QSize(1440, 900).boundedTo(room).expandedTo(window.minimumSizeHint().boundedTo(room)));
    window.move(available.center() - QPoint(window.width() / 2, window.height() / 2 + frame.height() / 4));
}

} // namespace fusiondiff::ui
