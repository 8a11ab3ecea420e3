#pragma once

#include <QByteArrayView>
#include <QString>

namespace fusiondiff::ui {

// Writes `bytes` to `path` through QSaveFile: to a temporary file that replaces `path` only once it
// is complete and on disk, so a failure leaves an earlier file as it was. Returns "" or the error,
// naming the file.
QString saveFile(const QString& path, QByteArrayView bytes);

} // namespace fusiondiff::ui
