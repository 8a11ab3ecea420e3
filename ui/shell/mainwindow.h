#pragma once

#include "analysis/analysisresults.h"
#include "shell/recentfiles.h"
#include "shell/resultsexports.h"
#include "shell/resultstabs.h"

#include <QMainWindow>
#include <QStringList>

class QAction;
class QDockWidget;
class QLabel;
class QLayout;
class QProgressBar;
class QPushButton;
class QStackedWidget;

namespace fusiondiff::ui {

class AnalysisController;
class AnalysisSettingsWidget;
class FittingLabel;
class TraceDropZone;
class WelcomePage;
class WindowSession;

// The FusionDiff window, which holds the rest together: drop zones A and B, progress with Cancel,
// the welcome page until the first results and then the results' tabs, the analysis settings in
// a dock, the menus and the status bar. The tabs (ResultsTabs), the exports (ResultsExports),
// the recent files (RecentFiles), the settings kept between runs (WindowSettings) and the saved
// sessions (WindowSession) are objects of their own.
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    AnalysisController* controller() const { return m_controller; }
    AnalysisSettingsWidget* settingsWidget() const { return m_settings; }
    TraceDropZone* dropZone(int side) const { return m_zones[side]; }
    ResultsTabs* tabs() const { return m_tabs; }
    QStackedWidget* stack() const { return m_stack; }
    WelcomePage* welcomePage() const { return m_welcome; }
    SummaryPage* summaryPage() const { return m_tabs->summaryPage(); }
    OperationsPage* operationsPage() const { return m_tabs->operationsPage(); }
    LayersPage* layersPage() const { return m_tabs->layersPage(); }
    OperationSummaryPage* operationSummaryPage() const { return m_tabs->operationSummaryPage(); }
    TableChartPage* opportunitiesPage() const { return m_tabs->opportunitiesPage(); }
    TablePage* mappingsPage() const { return m_tabs->mappingsPage(); }
    TableChartPage* kernelTypesPage() const { return m_tabs->kernelTypesPage(); }
    KernelsPage* kernelsTab() const { return m_tabs->kernelsTab(); }
    TablePage* kernelsPage() const { return m_tabs->kernelsPage(); } // every kernel of each trace, in kernelsTab()
    GroupsPage* groupsPage() const { return m_tabs->groupsPage(); }
    GlobalSearch* search() const { return m_tabs->search(); }
    TraceTimelinePage* timelinePage() const { return m_tabs->timelinePage(); }
    WindowSession* session() const { return m_session; }
    QPushButton* cancelButton() const { return m_cancel; }
    QProgressBar* progressBar() const { return m_progress; }
    QLabel* messageLabel() const { return m_message; }
    // The status bar's description of the pair shown (its tooltip the whole text).
    QLabel* pairLabel() const;
    QDockWidget* settingsDock() const { return m_settingsDock; }
    QStringList recentFiles() const { return m_recent->files(); }
    QStringList recentPairs() const { return m_recent->pairs(); } // "A\nB"
    QStringList recentSessions() const { return m_recent->sessions(); }
    // The capture trace last used with a trace (absolute paths; empty if none): offered again
    // whenever that trace is opened.
    QString rememberedCapture(const QString& tracePath) const { return m_recent->captureOf(tracePath); }

    // The CSV table of the current tab's main table: what Export Current Table writes.
    QString currentTableCsvName() const { return m_tabs->currentTableCsvName(); }
    // Writes every CSV table into `folder`; returns an error text, empty on success.
    QString exportAll(const QString& folder) { return m_exports->exportAll(folder); }
    // Writes the report as HTML, or as Markdown for a name ending in .md, with the charts.
    QString exportReport(const QString& path) { return m_exports->exportReport(path); }
    // The command line's --classifier, --param NAME=VALUE and --op-level (empty: unchanged).
    void applyClassifierAndParameters(
        const QString& classifier, const QStringList& parameters, const QString& opLevel = {});

public slots:
    // With the capture traces given, or else those remembered with the traces.
    void openTraces(
        const QString& pathA, const QString& pathB, const QString& captureA = {}, const QString& captureB = {});
    // A session file (.fdsession) opens as a session (WindowSession::open).
    void openTrace(int side, const QString& path);
    bool openSampleTraces();
    void showOpenDialog(int side);
    // A side as a multi-rank run: a folder of rank traces, or several rank files.
    void openRun(int side, const QStringList& inputs);
    void showOpenRunDialog(int side);
    // The side's graph-capture trace (the CLI's --capture1/--capture2); an empty path removes it.
    void setCaptureTrace(int side, const QString& path);
    void showCaptureDialog(int side);
    void swapTraces();
    void exportCurrentTableDialog();
    // Ctrl+F: the search box.
    void focusSearch();
    // Shows what the search found: its tab, its row selected (the table's filter cleared if it
    // hid the row).
    void showSearchHit(int kind, int row) { m_tabs->showSearchHit(kind, row); }

signals:
    // The pages show a new report.
    void resultsShown();

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    QLayout* createZones();
    QWidget* createProgressRow();
    void createSettingsDock();
    void createMenus();
    void addTabShortcuts();
    void connectController();
    // Shows a side as it is now (its zone, the welcome page) and remembers what loaded.
    void updateSide(int side);
    void setBusy(bool busy);
    void showResults(const AnalysisResults& results);
    void showMessage(const QString& text);
    void updateActions();
    // What a side's drop zone says of its run ("Rank 3 of 8 (dlrm_8ranks)"); empty for one trace.
    QString runText(int side) const;

    AnalysisController* m_controller;
    AnalysisSettingsWidget* m_settings;
    RecentFiles* m_recent;
    QDockWidget* m_settingsDock = nullptr;
    TraceDropZone* m_zones[2] = { nullptr, nullptr };
    QWidget* m_progressRow = nullptr;
    QProgressBar* m_progress = nullptr;
    QPushButton* m_cancel = nullptr;
    QLabel* m_message = nullptr;
    QWidget* m_searchBox = nullptr; // the search's box in the menu bar's corner
    QString m_exportError; // the last export's error, while m_message may show it
    QStackedWidget* m_stack = nullptr;
    WelcomePage* m_welcome = nullptr;
    ResultsTabs* m_tabs = nullptr;
    ResultsExports* m_exports = nullptr;
    WindowSession* m_session = nullptr;
    FittingLabel* m_resultsLabel = nullptr;
    QAction* m_exportAll = nullptr;
    QAction* m_exportTable = nullptr;
    QAction* m_exportReport = nullptr;
};

} // namespace fusiondiff::ui
