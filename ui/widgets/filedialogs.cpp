#include "widgets/filedialogs.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QSettings>

namespace fusiondiff::ui {

namespace {
const QString kLastFolderKey = QStringLiteral("files/lastFolder");
}

QString lastFolder()
{
    const QString folder = QSettings().value(kLastFolderKey).toString();
    return !folder.isEmpty() && QFileInfo(folder).isDir() ? folder : QDir::homePath();
}

void rememberFolder(const QString& fileOrFolder)
{
    const QFileInfo info(fileOrFolder);
    QSettings().setValue(kLastFolderKey, info.isDir() ? info.absoluteFilePath() : info.absolutePath());
}

QStringList openTraceFiles(QWidget* parent, const QString& caption)
{
    QStringList files = QFileDialog::getOpenFileNames(parent, caption, lastFolder(),
        QFileDialog::tr("PyTorch profiler traces (*.json *.json.gz *.gz);;All files (*)"));
    if (!files.isEmpty())
        rememberFolder(files.first());
    return files;
}

QString openFileName(QWidget* parent, const QString& caption, const QString& filter)
{
    QString file = QFileDialog::getOpenFileName(parent, caption, lastFolder(), filter);
    if (!file.isEmpty())
        rememberFolder(file);
    return file;
}

QString saveFileName(QWidget* parent, const QString& caption, const QString& suggestedName, const QString& filter)
{
    QString file = QFileDialog::getSaveFileName(parent, caption, QDir(lastFolder()).filePath(suggestedName), filter);
    if (!file.isEmpty())
        rememberFolder(file);
    return file;
}

QString existingFolder(QWidget* parent, const QString& caption)
{
    QString folder = QFileDialog::getExistingDirectory(parent, caption, lastFolder());
    if (!folder.isEmpty())
        rememberFolder(folder);
    return folder;
}

} // namespace fusiondiff::ui
