#pragma once

#include "model/analysisoptions.h"

class QMainWindow;
class QSettings;

namespace fusiondiff::ui {

class AnalysisController;
class AnalysisSettingsWidget;
class ResultsTabs;

// What the window keeps between runs in QSettings besides the recent files (RecentFiles): its
// geometry and docks (window/), the dividers the user placed (splitters/NAME), the classifier and
// the analysis parameters (analysis/), and how the charts are drawn (charts/).
class WindowSettings
{
public:
    WindowSettings(
        QMainWindow* window, AnalysisSettingsWidget* analysis, AnalysisController* controller, ResultsTabs* tabs);

    // Puts everything back, the classifier and parameters into the settings widget and the
    // controller; a window with no saved place on its screen is fitted to the screen.
    void restore() const;
    void save() const;

    // The analysis parameters (analysis/parameters/NAME) and the operation level
    // (analysis/opLevel); those not saved keep their defaults.
    static AnalysisOptions loadOptions(const QSettings& settings);
    static void saveOptions(QSettings& settings, const AnalysisOptions& options);
    // Sizes `window` to fit the available part of its screen, frame included, and centres it.
    static void fitToScreen(QMainWindow& window);

private:
    QMainWindow* m_window;
    AnalysisSettingsWidget* m_analysis;
    AnalysisController* m_controller;
    ResultsTabs* m_tabs;
};

} // namespace fusiondiff::ui
