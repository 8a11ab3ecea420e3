#pragma once

#include <QString>
#include <QStringList>

namespace fusiondiff::ui {

class MainWindow;

// Regenerates docs/screenshots: waits for the window's results, then saves a PNG of the window
// (QWidget::grab) for each tab (the first operation finding and the first matched pair drilled
// into), the settings dock and an inline load error, as <folder>/<prefix><name>.png ("02-summary", ...). With
// `welcome`, first the start page ("01-welcome"). `only`, if not empty, lists the names to save. Returns the files
// written; empty on failure (a timeout or a file that cannot be written).
QStringList takeScreenshots(MainWindow& window, const QString& folder, const QString& prefix, bool welcome,
    const QStringList& traces, const QStringList& only = {});

} // namespace fusiondiff::ui
