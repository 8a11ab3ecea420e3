// Renders the SVG application icon to the PNG sizes desktops look for, at build time.
// Usage: fusiondiff-iconrender ICON.svg OUTPUT_DIR SIZE... (writes OUTPUT_DIR/<size>/fusiondiff.png)

#include <QDir>
#include <QGuiApplication>
#include <QImage>
#include <QPainter>
#include <QSvgRenderer>

#include <cstdio>

int main(int argc, char** argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QGuiApplication app(argc, argv);
    const QStringList arguments = app.arguments();
    if (arguments.size() < 4) {
        std::fprintf(stderr, "usage: fusiondiff-iconrender ICON.svg OUTPUT_DIR SIZE...\n");
        return 2;
    }
    QSvgRenderer renderer(arguments.at(1));
    if (!renderer.isValid()) {
        std::fprintf(stderr, "fusiondiff-iconrender: %s: not a valid SVG file\n", qPrintable(arguments.at(1)));
        return 2;
    }
    for (qsizetype i = 3; i < arguments.size(); ++i) {
        const int size = arguments.at(i).toInt();
        QImage image(size, size, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::transparent);
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        renderer.render(&painter);
        painter.end();
        const QString folder = arguments.at(2) + QLatin1Char('/') + QString::number(size);
        QDir().mkpath(folder);
        if (!image.save(folder + QStringLiteral("/fusiondiff.png"))) {
            std::fprintf(stderr, "fusiondiff-iconrender: cannot write %s\n", qPrintable(folder));
            return 1;
        }
    }
    return 0;
}
