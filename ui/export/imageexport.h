#pragma once

#include <QSize>
#include <QString>

#include <functional>

class QPainter;
class QWidget;

namespace fusiondiff::ui {

// A picture to save: its size in logical pixels, the device pixel ratio a PNG is drawn at, the
// title an SVG carries, and what draws it (onto a painter of `size` logical pixels).
struct ImageSource
{
    QSize size;
    qreal devicePixelRatio = 1;
    QString title;
    std::function<void(QPainter&)> paint;
};

// Writes `source` to `path`: SVG when the name ends in .svg (any case), PNG otherwise. Written
// through QSaveFile: the image goes to a temporary file that replaces `path` only once it is
// complete and on disk, so a failure leaves an earlier image as it was. Returns "" or the error,
// naming the file.
QString writeImage(const QString& path, const ImageSource& source);

// The "Save Chart" and "Save Timeline" buttons: asks where to save a PNG or SVG image (suggesting
// `baseName`.png), calls `save` with that path and shows the error it returns, if any.
void askAndSaveImage(QWidget* parent, const QString& caption, const QString& baseName,
    const std::function<QString(const QString& path)>& save);

} // namespace fusiondiff::ui
