#include "shell/recentfiles.h"

#include <QFileInfo>
#include <QSettings>

namespace fusiondiff::ui {

namespace {

const QString kFilesKey = QStringLiteral("recent/files");
const QString kPairsKey = QStringLiteral("recent/pairs");
const QString kSessionsKey = QStringLiteral("recent/sessions");
const QString kCapturesKey = QStringLiteral("recent/captures");

} // namespace

RecentFiles::RecentFiles(QObject* parent)
    : QObject(parent)
{
    m_saveTimer.setSingleShot(true);
    m_saveTimer.setInterval(2000);
    connect(&m_saveTimer, &QTimer::timeout, this, &RecentFiles::save);
}

QString RecentFiles::captureOf(const QString& tracePath) const
{
    if (tracePath.isEmpty())
        return {};
    return m_captureOf.value(QFileInfo(tracePath).absoluteFilePath()).toString();
}

namespace {

void putFirst(QStringList& list, const QString& path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    list.removeAll(absolute);
    list.prepend(absolute);
    while (list.size() > RecentFiles::kMaxRecent)
        list.removeLast();
}

} // namespace

void RecentFiles::addFile(const QString& path)
{
    if (path.isEmpty())
        return;
    putFirst(m_files, path);
    m_saveTimer.start();
}

void RecentFiles::addSession(const QString& path)
{
    if (path.isEmpty())
        return;
    putFirst(m_sessions, path);
    m_saveTimer.start();
}

void RecentFiles::addPair(const QString& pathA, const QString& pathB)
{
    const QString pair = pathA + QLatin1Char('\n') + pathB;
    m_pairs.removeAll(pair);
    m_pairs.removeAll(pathB + QLatin1Char('\n') + pathA);
    m_pairs.prepend(pair);
    while (m_pairs.size() > kMaxRecent)
        m_pairs.removeLast();
    m_saveTimer.start();
}

void RecentFiles::rememberCapture(const QString& tracePath, const QString& capturePath)
{
    if (tracePath.isEmpty() || m_captureOf.value(tracePath).toString() == capturePath)
        return;
    m_captureOf.insert(tracePath, capturePath);
    m_saveTimer.start();
}

void RecentFiles::forgetCapture(const QString& tracePath)
{
    if (!tracePath.isEmpty() && m_captureOf.remove(tracePath) > 0)
        m_saveTimer.start();
}

void RecentFiles::load()
{
    const QSettings settings;
    m_files = settings.value(kFilesKey).toStringList();
    m_pairs = settings.value(kPairsKey).toStringList();
    m_sessions = settings.value(kSessionsKey).toStringList();
    m_captureOf = settings.value(kCapturesKey).toMap();
}

void RecentFiles::save() const
{
    QSettings settings;
    settings.setValue(kFilesKey, m_files);
    settings.setValue(kPairsKey, m_pairs);
    settings.setValue(kSessionsKey, m_sessions);
    settings.setValue(kCapturesKey, m_captureOf);
}

} // namespace fusiondiff::ui
