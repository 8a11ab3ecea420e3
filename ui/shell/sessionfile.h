#pragma once

#include "model/analysisoptions.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <array>
#include <optional>

namespace fusiondiff::ui {

// A saved session (a .fdsession file, JSON): the pair and how it was compared, and what the user
// made of the results (the tab, each page's filters, sorting, selection and zoom, as the pages'
// saveState() gave them). docs/gui.md describes the fields. This file knows the format only: no
// window, no widget; WindowSession gathers and applies it.
struct Session
{
    // The newest version this build reads. 2: the Operations and Groups pages' states hold their
    // drill-downs' ("drill_down": the kernels' table, the lanes' time range, the dividers the user
    // placed; the Groups' composition measure). A version 1 file reads as before, its drill-downs as
    // the pages choose them. 3: a side may be a multi-rank run ("run", "rank"). A session is written
    // with the lowest version that holds it, so that a pair's session still opens in older builds,
    // while a run's is refused there rather than opened as its detailed pair alone.
    static constexpr int kVersion = 3;

    struct Side
    {
        QString trace; // absolute path; for a run, the detailed pair's rank trace
        QString capture; // the graph-capture trace that goes with it; empty: none
        // A multi-rank run: its folders or rank files (absolute paths); empty for a single trace.
        QStringList run;
        int rank = -1; // the detailed pair's rank in the run; -1: the job's choice (the straggler's)
    };
    bool comparesRuns() const { return !sides[0].run.isEmpty() || !sides[1].run.isEmpty(); }
    std::array<Side, 2> sides;
    QString classifier = QStringLiteral("default"); // "default", "seed" or a rule file's path
    AnalysisOptions options;
    QString tab; // the current tab's key ("operations"); empty: the first
    QJsonObject pages; // per page's key, its saved state
};

// The file name suffix of sessions, without the dot.
inline constexpr char kSessionSuffix[] = "fdsession";
bool isSessionFile(const QString& path);

QByteArray sessionToJson(const Session& session);
// The session in `bytes`, relative paths taken from `folder`; nullopt with `*error` set to the
// reason when the bytes are not a session this build can read (corrupt, a newer version, a field
// of the wrong type, an unknown parameter or operation level). Whether the files exist is not
// checked here.
std::optional<Session> sessionFromJson(const QByteArray& bytes, const QString& folder, QString* error);

struct SessionReading
{
    std::optional<Session> session;
    QString error; // names the session file and the reason; empty when `session` is set
};
// Reads and checks a session file, and that the traces and capture traces it names can be opened
// (they exist, are files, are readable).
SessionReading readSession(const QString& path);
// Writes the session whole or not at all (writeFileAtomically): a failure leaves an older file
// at `path` as it was. Returns "" or the error, naming the file.
QString writeSession(const QString& path, const Session& session);

} // namespace fusiondiff::ui
