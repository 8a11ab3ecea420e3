#include "export/imageexport.h"

#include "widgets/filedialogs.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QImage>
#include <QMessageBox>
#include <QPainter>
#include <QRect>
#include <QSaveFile>
#include <QSvgGenerator>

namespace fusiondiff::ui {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("fusiondiff::ui::ImageExport", text);
}

bool isSvg(const QString& path)
{
    return QFileInfo(path).suffix().compare(QLatin1String("svg"), Qt::CaseInsensitive) == 0;
}

} // namespace

QString writeImage(const QString& path, const ImageSource& source)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return tr("Cannot write %1: %2").arg(path, file.errorString());
    if (isSvg(path)) {
        QSvgGenerator generator;
        generator.setOutputDevice(&file);
        generator.setSize(source.size);
        generator.setViewBox(QRect(QPoint(0, 0), source.size));
        generator.setTitle(source.title);
        QPainter painter;
        if (!painter.begin(&generator)) {
            file.cancelWriting();
            return tr("Cannot write %1.").arg(path);
        }
        source.paint(painter);
        painter.end();
    } else {
        QImage image(source.size * source.devicePixelRatio, QImage::Format_ARGB32_Premultiplied);
        image.setDevicePixelRatio(source.devicePixelRatio);
        image.fill(Qt::transparent);
        QPainter painter(&image);
        source.paint(painter);
        painter.end();
        if (!image.save(&file, "PNG")) {
            file.cancelWriting();
            return tr("Cannot write %1: %2").arg(path, file.errorString());
        }
    }
    if (!file.commit())
        return tr("Cannot write %1: %2").arg(path, file.errorString());
    return {};
}

void askAndSaveImage(QWidget* parent, const QString& caption, const QString& baseName,
    const std::function<QString(const QString& path)>& save)
{
    const QString path
        = saveFileName(parent, caption, baseName + QStringLiteral(".png"), tr("PNG image (*.png);;SVG image (*.svg)"));
    if (path.isEmpty())
        return;
    const QString error = save(path);
    if (!error.isEmpty())
        QMessageBox::warning(parent, caption, error);
}

} // namespace fusiondiff::ui
