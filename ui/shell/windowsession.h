#pragma once

#include "shell/sessionfile.h"

#include <QObject>

#include <optional>

class QAction;
class QMenu;
class QWidget;

namespace fusiondiff::ui {

class AnalysisController;
class AnalysisSettingsWidget;
class ResultsTabs;

// The window's sessions (shell/sessionfile.h has the format). Saving writes what the results on
// screen were computed from (the traces and capture traces, the classifier, the parameters) and
// what the user made of them: the current tab and each page's saveState(). Opening checks the
// file and its traces first (an error names the file and changes nothing), then sets the
// classifier and parameters, opens the traces and, once their results are shown, restores the tab
// and the pages. With "Reopen the Last Session at Start-up" (the setting session/reopenLast, off by
// default) the window's session is saved when it closes and opened at the next start.
class WindowSession : public QObject
{
    Q_OBJECT
public:
    WindowSession(AnalysisController* controller, AnalysisSettingsWidget* settings, ResultsTabs* tabs, QWidget* window);

    // Open Session..., Save Session... (Ctrl+Shift+S) and Reopen the Last Session at Start-up.
    void addActions(QMenu* menu);

    // Whether results are shown, and so a session to save.
    bool hasResults() const { return m_shown.has_value(); }
    // The session on screen; the default one without results.
    Session current() const;
    // Writes current() to `path`; false with failed() emitted when it cannot.
    bool save(const QString& path);
    // Opens the session at `path`: false, with failed() emitted and nothing changed, when the
    // file cannot be used; true when its traces are being opened (restored() follows their results).
    bool open(const QString& path);
    // True from open() until its results are shown (or their loading failed or was cancelled).
    bool isRestoring() const { return m_pending.has_value(); }

    // The session the window saves when it closes and reopens at start-up (in the app's data folder).
    static QString lastSessionPath();
    static bool reopensLastSession();
    static void setReopensLastSession(bool reopen);
    // With the setting on: saves the session shown (when the window closes) / opens the last one.
    void saveLastSession();
    void openLastSession();

public slots:
    void openDialog();
    void saveDialog();
    // The window shows new results: what they came from becomes the session to save, and a
    // session waiting for them is restored.
    void resultsShown();

signals:
    void opened(const QString& path);
    void restored(const QString& path);
    void written(const QString& text);
    void failed(const QString& error);

private:
    // Gives up a session still waiting for its results, saying why.
    void abandon(const QString& reason);
    void restorePages(const Session& session);
    // Whether the results on screen come from the pending session's inputs (its traces, or its runs).
    bool showsPendingInputs(const Session& shown) const;

    AnalysisController* m_controller;
    AnalysisSettingsWidget* m_settings;
    ResultsTabs* m_tabs;
    QWidget* m_window;
    QAction* m_saveAction = nullptr;
    std::optional<Session> m_shown; // what the results on screen were computed from (no pages)
    std::optional<Session> m_pending; // opened, waiting for its results
    QString m_pendingPath;
    bool m_pendingRanksAsked = false; // the pending session's rank pair was asked of the runs
};

} // namespace fusiondiff::ui
