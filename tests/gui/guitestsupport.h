#pragma once

// What every GUI suite shares (mainwindowtestsupport.h adds what needs a whole window).

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

QString realTrace(const QString& name);

// Settings in a file of this run's own (`testName` and the process id): ctest may run a binary
// twice at once (tst_appdefects and tst_appdefects_scale2), and tests clear their settings.
// removeOwnSettings() at the end of the run deletes the file.
void useOwnSettings(const QString& testName);

void removeOwnSettings();

// Drags local `files` onto `target` and drops them there, as a file manager does: a drag-enter
// event and, if it is accepted, a drop event. Returns whether the drop was accepted.
bool dropFiles(QWidget* target, const QStringList& files);

// How many different opaque colours `image` has: a saved picture that shows something has many,
// a blank or transparent one at most one.
size_t opaqueColours(const QImage& image);

} // namespace fusiondiff::test
