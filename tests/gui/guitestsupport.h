#pragma once

#include "testdata.h"

#include <QApplication>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QImage>
#include <QMimeData>
#include <QSettings>
#include <QStandardPaths>
#include <QUrl>
#include <QWidget>

#include <set>

namespace fusiondiff::test {

inline QString realTrace(const QString& name)
{
    return dataPath(QStringLiteral("real/") + name);
}

// Settings in a file of this run's own (`testName` and the process id): ctest may run a binary
// twice at once (tst_appdefects and tst_appdefects_scale2), and tests clear their settings.
// removeOwnSettings() at the end of the run deletes the file.
inline void useOwnSettings(const QString& testName)
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("FusionDiffTests"));
    QCoreApplication::setApplicationName(QStringLiteral("%1-%2").arg(testName).arg(QCoreApplication::applicationPid()));
}

inline void removeOwnSettings()
{
    QFile::remove(QSettings().fileName());
}

// Drags local `files` onto `target` and drops them there, as a file manager does: a drag-enter
// event and, if it is accepted, a drop event. Returns whether the drop was accepted.
inline bool dropFiles(QWidget* target, const QStringList& files)
{
    QMimeData mime;
    QList<QUrl> urls;
    for (const QString& file : files)
        urls.append(QUrl::fromLocalFile(file));
    mime.setUrls(urls);
    const QPoint position = target->rect().center();
    QDragEnterEvent enter(position, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(target, &enter);
    if (!enter.isAccepted())
        return false;
    QDropEvent drop(QPointF(position), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(target, &drop);
    return drop.isAccepted();
}

// How many different opaque colours `image` has: a saved picture that shows something has many,
// a blank or transparent one at most one.
inline size_t opaqueColours(const QImage& image)
{
    std::set<QRgb> colours;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x) {
            const QRgb pixel = image.pixel(x, y);
            if (qAlpha(pixel) == 255)
                colours.insert(pixel);
        }
    }
    return colours.size();
}

} // namespace fusiondiff::test
