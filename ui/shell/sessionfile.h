#pragma once

#include "model/analysisoptions.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include <array>
#include <optional>

namespace fusiondiff::ui {

// A saved session (a .fdsession file, JSON): the pair and how it was compared, and what the user
// made of the results (the tab, each page's filters, sorting, selection and zoom, as the pages'
// saveState() gave them). docs/gui.md describes the fields. This file knows the format only: no
// window, no widget; WindowSession gathers and applies it.
struct Session
{
    // The version this build writes and the newest it reads. 2: the Operations and Groups pages'
    // states hold their drill-downs' ("drill_down": the kernels' table, the lanes' time range, the
    // dividers the user placed; the Groups' composition measure). A version 1 file reads as before,
    // its drill-downs as the pages choose them.
    static constexpr int kVersion = 2;

    struct Side
    {
        QString trace; // absolute path
        QString capture; // the graph-capture trace that goes with it; empty: none
    };
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
