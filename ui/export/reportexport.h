#pragma once

#include <QImage>
#include <QList>
#include <QString>

namespace fusiondiff {
struct FusionReport;
}

namespace fusiondiff::ui {

// A chart of the report as an image, for File > Export Report.
struct ReportChart
{
    QString name; // file-name part: "kernel_types"
    QString title;
    QImage image;
};

// The CLI's Markdown report (reportToMarkdown) followed by the charts. Markdown: the charts are
// written as PNG files beside `path` ("<stem>_<name>.png") and linked; HTML: the Markdown as HTML
// with the charts embedded (one self-contained file). Returns an error text, empty on success.
QString writeMarkdownReport(const FusionReport& report, const QList<ReportChart>& charts, const QString& path);
QString writeHtmlReport(const FusionReport& report, const QList<ReportChart>& charts, const QString& path);

} // namespace fusiondiff::ui
