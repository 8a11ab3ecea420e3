#include "export/savefile.h"

#include <QCoreApplication>
#include <QSaveFile>

namespace fusiondiff::ui {

QString saveFile(const QString& path, QByteArrayView bytes)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes.data(), bytes.size()) != bytes.size() || !file.commit())
        return QCoreApplication::translate("fusiondiff::ui::SaveFile", "Cannot write %1: %2")
            .arg(path, file.errorString());
    return {};
}

} // namespace fusiondiff::ui
