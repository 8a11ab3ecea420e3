#pragma once

#include "analysis/analysisresults.h"

#include <QMainWindow>
#include <QStringList>
#include <QTimer>
#include <QVariantMap>

#include <functional>
#include <vector>

class QAction;
class QDockWidget;
class QLabel;
class QMenu;
class QProgressBar;
class QPushButton;
class QStackedWidget;
class QTabWidget;
class QTextBrowser;
class QToolButton;

namespace fusiondiff {
struct TraceStore;
struct FusionReport;
} // namespace fusiondiff

namespace fusiondiff::ui {

class AnalysisController;
class AnalysisSettingsWidget;
class GlobalSearch;
class GroupsPage;
class OperationSummaryPage;
class OperationsPage;
class ResultsPage;
class SummaryPage;
class TableChartPage;
class TablePage;
class KernelsPage;
class LayersPage;
class TraceDropZone;
class TraceTimelinePage;

// The FusionDiff window: drop zones A and B, progress with Cancel, a welcome page until the first
// results, then one tab per report table; the analysis settings in a dock. Settings (last
// folder, window layout, classifier, parameters, recent files) persist in QSettings.
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    AnalysisController* controller() const { return m_controller; }
    AnalysisSettingsWidget* settingsWidget() const { return m_settings; }
    TraceDropZone* dropZone(int side) const { return m_zones[side]; }
    QTabWidget* tabs() const { return m_tabs; }
    QStackedWidget* stack() const { return m_stack; }
    SummaryPage* summaryPage() const { return m_summary; }
    OperationsPage* operationsPage() const { return m_operations; }
    LayersPage* layersPage() const { return m_layers; }
    OperationSummaryPage* operationSummaryPage() const { return m_operationSummary; }
    TableChartPage* opportunitiesPage() const { return m_opportunities; }
    TablePage* mappingsPage() const { return m_mappings; }
    TableChartPage* kernelTypesPage() const { return m_kernelTypes; }
    KernelsPage* kernelsTab() const { return m_kernelsTab; }
    TablePage* kernelsPage() const { return m_kernels; } // every kernel of each trace, in kernelsTab()
    GroupsPage* groupsPage() const { return m_groups; }
    GlobalSearch* search() const { return m_search; }
    TraceTimelinePage* timelinePage() const { return m_timeline; }
    QPushButton* cancelButton() const { return m_cancel; }
    QProgressBar* progressBar() const { return m_progress; }
    QLabel* messageLabel() const { return m_message; }
    QDockWidget* settingsDock() const { return m_settingsDock; }
    QStringList recentFiles() const;
    QStringList recentPairs() const; // "A\nB"
    // The capture trace last used with a trace (absolute paths; empty if none): offered again
    // whenever that trace is opened.
    QString rememberedCapture(const QString& tracePath) const;

    // The CSV table of the current tab's main table: what Export Current Table writes.
    QString currentTableCsvName() const;
    // Writes every CSV table into `folder`; returns an error text, empty on success.
    QString exportAll(const QString& folder);
    // Writes the report as HTML, or as Markdown for a name ending in .md, with the charts.
    QString exportReport(const QString& path);
    // The command line's --classifier, --param NAME=VALUE and --op-level (empty: unchanged).
    void applyClassifierAndParameters(
        const QString& classifier, const QStringList& parameters, const QString& opLevel = {});

public slots:
    // With the capture traces given, or else those remembered with the traces.
    void openTraces(
        const QString& pathA, const QString& pathB, const QString& captureA = {}, const QString& captureB = {});
    void openTrace(int side, const QString& path);
    bool openSampleTraces();
    void showOpenDialog(int side);
    // The side's graph-capture trace (the CLI's --capture1/--capture2); an empty path removes it.
    void setCaptureTrace(int side, const QString& path);
    void showCaptureDialog(int side);
    void swapTraces();
    void exportAllDialog();
    void exportReportDialog();
    void exportCsvDialog(const QString& csvName);
    void exportCurrentTableDialog();
    // Ctrl+F: the search box.
    void focusSearch();
    // Shows what the search found: its tab, its row selected (the table's filter cleared if it
    // hid the row).
    void showSearchHit(int kind, int row);

signals:
    // The pages show a new report.
    void resultsShown();

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    // The tab's title for a report ("Operations (3)").
    using TabTitle = std::function<QString(const FusionReport& report)>;
    struct ResultsTab
    {
        QWidget* widget;
        ResultsPage* page;
        TabTitle title;
    };

    template<typename Page>
    void addResultsTab(Page* page, const QString& name, TabTitle title);
    void createPages();
    void createMenus();
    QWidget* createWelcomePage();
    void updateZone(int side);
    void updateCapture(int side);
    void setBusy(bool busy);
    void showResults(const AnalysisResults& results);
    void showMessage(const QString& text);
    void addRecentFile(const QString& path);
    void addRecentPair(const QString& pathA, const QString& pathB);
    void rebuildRecentMenu();
    void restoreSettings();
    // Sizes the window to fit the available part of its screen, frame included, and centres it.
    void fitToScreen();
    void saveSettings() const;
    void saveRecent() const;
    void updateActions();
    void updateWelcome();
    void addTabShortcuts();

    AnalysisController* m_controller;
    AnalysisSettingsWidget* m_settings;
    QDockWidget* m_settingsDock = nullptr;
    TraceDropZone* m_zones[2] = { nullptr, nullptr };
    QToolButton* m_swap = nullptr;
    QWidget* m_progressRow = nullptr;
    QProgressBar* m_progress = nullptr;
    QPushButton* m_cancel = nullptr;
    QLabel* m_message = nullptr;
    QStackedWidget* m_stack = nullptr;
    QTabWidget* m_tabs = nullptr;
    SummaryPage* m_summary = nullptr;
    OperationsPage* m_operations = nullptr;
    LayersPage* m_layers = nullptr;
    OperationSummaryPage* m_operationSummary = nullptr;
    TableChartPage* m_opportunities = nullptr;
    TablePage* m_mappings = nullptr;
    TableChartPage* m_kernelTypes = nullptr;
    KernelsPage* m_kernelsTab = nullptr;
    TablePage* m_kernels = nullptr; // in m_kernelsTab
    GroupsPage* m_groups = nullptr;
    TraceTimelinePage* m_timeline = nullptr;
    GlobalSearch* m_search = nullptr;
    std::vector<ResultsTab> m_resultsTabs; // in tab order
    QLabel* m_resultsLabel = nullptr;
    QMenu* m_recentMenu = nullptr;
    QAction* m_exportAll = nullptr;
    QAction* m_exportTable = nullptr;
    QAction* m_exportReport = nullptr;
    QAction* m_sampleAction = nullptr;
    QPushButton* m_sampleButton = nullptr;
    QLabel* m_welcomeTitle = nullptr;
    QPushButton* m_welcomeOpen[2] = { nullptr, nullptr };
    QTextBrowser* m_oneTrace = nullptr; // the one trace loaded
    const TraceStore* m_oneTraceStore = nullptr; // shown in m_oneTrace
    AnalysisResults m_results;
    QStringList m_recentFiles;
    QStringList m_recentPairs; // "A\nB"
    QVariantMap m_captureOf; // absolute trace path -> absolute capture trace path
    QTimer m_saveRecentTimer;
};

} // namespace fusiondiff::ui
