#include "guitestsupport.h"

#include <QColor>

namespace fusiondiff::test {

QString realTrace(const QString& name)
{
    return dataPath(QStringLiteral("real/") + name);
}

void useOwnSettings(const QString& testName)
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("FusionDiffTests"));
    QCoreApplication::setApplicationName(QStringLiteral("%1-%2").arg(testName).arg(QCoreApplication::applicationPid()));
}

void removeOwnSettings()
{
    QFile::remove(QSettings().fileName());
}

bool dropFiles(QWidget* target, const QStringList& files)
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

size_t opaqueColours(const QImage& image)
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
