#pragma once

#include <QString>
#include <QStringList>

class QWidget;

namespace fusiondiff::ui {

// File dialogs that start in the folder the user last used (kept in QSettings).
QString lastFolder();
void rememberFolder(const QString& fileOrFolder);
QStringList openTraceFiles(QWidget* parent, const QString& caption);
QString openFileName(QWidget* parent, const QString& caption, const QString& filter);
QString saveFileName(QWidget* parent, const QString& caption, const QString& suggestedName, const QString& filter);
QString existingFolder(QWidget* parent, const QString& caption);

} // namespace fusiondiff::ui
