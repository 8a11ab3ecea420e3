#include "reportexport.h"

#include "model/fusionreport.h"
#include "report/reportwriters.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QTextDocument>

namespace fusiondiff::ui {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("ReportExport", text);
}

QString writeText(const QString& path, const QByteArray& bytes)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit())
        return tr("Cannot write %1: %2").arg(path, file.errorString());
    return {};
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
        QByteArray png;
        QBuffer buffer(&png);
        buffer.open(QIODevice::WriteOnly);
        if (!chart.image.save(&buffer, "PNG"))
            return tr("Cannot write %1.").arg(info.dir().filePath(file));
        if (QString error = writeText(info.dir().filePath(file), png); !error.isEmpty())
            return error;
        markdown += QStringLiteral("![%1](%2)\n\n").arg(chart.title, file);
    }
    return writeText(path, markdown.toUtf8());
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
        QByteArray png;
        QBuffer buffer(&png);
        buffer.open(QIODevice::WriteOnly);
        chart.image.save(&buffer, "PNG");
        images += QStringLiteral("<h3>%1</h3>\n<p><img alt=\"%1\" src=\"data:image/png;base64,%2\"></p>\n")
                      .arg(chart.title.toHtmlEscaped(), QString::fromLatin1(png.toBase64()));
    }
    const qsizetype end = html.lastIndexOf(QStringLiteral("</body>"));
    html.insert(end < 0 ? html.size() : end, images);
    return writeText(path, html.toUtf8());
}

} // namespace fusiondiff::ui
