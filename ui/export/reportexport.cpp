#include "export/reportexport.h"

#include "export/savefile.h"
#include "model/fusionreport.h"
#include "report/reportwriters.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QTextDocument>

namespace fusiondiff::ui {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("ReportExport", text);
}

QByteArray pngBytes(const QImage& image)
{
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    if (!image.save(&buffer, "PNG"))
        return {};
    return png;
}

} // namespace

QString writeMarkdownReport(const FusionReport& report, const QList<ReportChart>& charts, const QString& path)
{
    const QFileInfo info(path);
    QString markdown = QString::fromStdString(reportToMarkdown(report));
    if (!charts.isEmpty())
        markdown += QStringLiteral("\n## ") + tr("Charts") + QStringLiteral("\n\n");
    for (const ReportChart& chart : charts) {
        const QString file = info.completeBaseName() + QLatin1Char('_') + chart.name + QStringLiteral(".png");
        const QByteArray png = pngBytes(chart.image);
        if (png.isEmpty())
            return tr("Cannot write %1.").arg(info.dir().filePath(file));
        if (QString error = saveFile(info.dir().filePath(file), png); !error.isEmpty())
            return error;
        markdown += QStringLiteral("![%1](%2)\n\n").arg(chart.title, file);
    }
    return saveFile(path, markdown.toUtf8());
}

QString writeHtmlReport(const FusionReport& report, const QList<ReportChart>& charts, const QString& path)
{
    QTextDocument document;
    document.setMarkdown(QString::fromStdString(reportToMarkdown(report)));
    QString html = document.toHtml();
    QString images;
    if (!charts.isEmpty())
        images += QStringLiteral("<h2>") + tr("Charts") + QStringLiteral("</h2>\n");
    for (const ReportChart& chart : charts) {
        const QByteArray png = pngBytes(chart.image);
        images += QStringLiteral("<h3>%1</h3>\n<p><img alt=\"%1\" src=\"data:image/png;base64,%2\"></p>\n")
                      .arg(chart.title.toHtmlEscaped(), QString::fromLatin1(png.toBase64()));
    }
    const qsizetype end = html.lastIndexOf(QStringLiteral("</body>"));
    html.insert(end < 0 ? html.size() : end, images);
    return saveFile(path, html.toUtf8());
}

} // namespace fusiondiff::ui
