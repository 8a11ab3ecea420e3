#pragma once

#include <QObject>
#include <QStringList>
#include <QTimer>
#include <QVariantMap>

namespace fusiondiff::ui {

// The traces, the pairs and the sessions opened before, most recent first (at most kMaxRecent of
// each), and the capture trace last used with each trace, kept in QSettings (recent/files,
// recent/pairs, recent/sessions, recent/captures). A change is written a little later, not while the user waits for
// results.
class RecentFiles : public QObject
{
    Q_OBJECT
public:
    static constexpr int kMaxRecent = 10;

    explicit RecentFiles(QObject* parent = nullptr);

    QStringList files() const { return m_files; } // absolute paths
    QStringList pairs() const { return m_pairs; } // "A\nB"
    QStringList sessions() const { return m_sessions; } // absolute paths of .fdsession files
    // The capture trace last used with a trace (absolute paths; empty if none).
    QString captureOf(const QString& tracePath) const;

    // `path` made absolute, first in the list.
    void addFile(const QString& path);
    // The pair first in the list; the pair swapped is the same pair.
    void addPair(const QString& pathA, const QString& pathB);
    // `path` made absolute, first in the sessions.
    void addSession(const QString& path);
    // The capture a trace was used with, offered again whenever the trace is opened.
    void rememberCapture(const QString& tracePath, const QString& capturePath);
    void forgetCapture(const QString& tracePath);

    void load();
    // At once (the window calls it when it closes).
    void save() const;

private:
    QStringList m_files;
    QStringList m_pairs;
    QStringList m_sessions;
    QVariantMap m_captureOf; // trace path -> capture trace path
    QTimer m_saveTimer;
};

} // namespace fusiondiff::ui
