#include "shell/samplefiles.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace fusiondiff::ui {

QStringList sampleTracePaths()
{
    const QStringList names = {
        QStringLiteral("Qwen1.5-0.5B-Chat.mi300x.json.gz"),
        QStringLiteral("Qwen1.5-0.5B-Chat.h100.json.gz"),
    };
    const QStringList folders = {
        QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("../share/fusiondiff/samples")),
        QStringLiteral(FUSIONDIFF_SOURCE_SAMPLES_DIR),
    };
    for (const QString& folder : folders) {
        QStringList paths;
        for (const QString& name : names) {
            const QFileInfo file(QDir(folder).filePath(name));
            if (file.isFile())
                paths.append(file.canonicalFilePath());
        }
        if (paths.size() == names.size())
            return paths;
    }
    return {};
}

} // namespace fusiondiff::ui
