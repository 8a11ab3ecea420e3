#include "shell/resultsexports.h"

#include "charts/barchart.h"
#include "charts/chartpanel.h"
#include "charts/layerchart.h"
#include "export/csvexport.h"
#include "export/reportfilename.h"
#include "model/fusionreport.h"
#include "pages/layerspage.h"
#include "pages/tablechartpage.h"
#include "shell/resultstabs.h"
#include "widgets/filedialogs.h"

#include <QFileInfo>

namespace fusiondiff::ui {

ResultsExports::ResultsExports(ResultsTabs* tabs, QWidget* dialogParent)
    : QObject(dialogParent)
    , m_tabs(tabs)
    , m_dialogParent(dialogParent)
{ }

QString ResultsExports::exportAll(const QString& folder) const
{
    if (!m_tabs->results().report)
        return tr("There are no results to export yet.");
    return writeAllCsvTables(*m_tabs->results().report, folder);
}

QList<ReportChart> ResultsExports::reportCharts() const
{
    const FusionReport& report = *m_tabs->results().report;
    // At a size that reads well on a page.
    QList<ReportChart> charts;
    const QSize size(1000, 620);
    charts.append({ QStringLiteral("kernel_types"), tr("Kernels per type"),
        m_tabs->kernelTypesPage()->chartPanel()->chart()->image(size) });
    if (!report.opportunities.empty())
        charts.append({ QStringLiteral("fusion_opportunities"), tr("Kernels of each fusion opportunity's type"),
            m_tabs->opportunitiesPage()->chartPanel()->chart()->image(size) });
    if (!report.layerTimes.empty())
        charts.append(
            { QStringLiteral("layer_times"), tr("GPU time of each layer (B \u2212 A, or as the Layers tab shows it)"),
                m_tabs->layersPage()->chart()->image(size) });
    return charts;
}

QString ResultsExports::exportReport(const QString& path) const
{
    if (!m_tabs->results().report)
        return tr("There are no results to export yet.");
    const FusionReport& report = *m_tabs->results().report;
    const QList<ReportChart> charts = reportCharts();
    const bool markdown = QFileInfo(path).suffix().compare(QLatin1String("md"), Qt::CaseInsensitive) == 0;
    return markdown ? writeMarkdownReport(report, charts, path) : writeHtmlReport(report, charts, path);
}

QString ResultsExports::reportFileName() const
{
    if (!m_tabs->results().report)
        return {};
    const FusionReport& report = *m_tabs->results().report;
    return defaultReportFileName(
        QString::fromStdString(report.traces[0].fileName), QString::fromStdString(report.traces[1].fileName));
}

void ResultsExports::exportAllDialog()
{
    if (!m_tabs->results().report)
        return;
    const QString folder = existingFolder(m_dialogParent, tr("Export All Tables as CSV into Folder"));
    if (folder.isEmpty())
        return;
    report(exportAll(folder), tr("Wrote %1 CSV tables to %2").arg(csvTableNames().size()).arg(folder));
}

void ResultsExports::exportReportDialog()
{
    if (!m_tabs->results().report)
        return;
    const QString file = saveFileName(m_dialogParent, tr("Export Report"), reportFileName(),
        tr("HTML, charts embedded (*.html);;Markdown, charts as PNG files beside it (*.md)"));
    if (file.isEmpty())
        return;
    report(exportReport(file), tr("Wrote %1").arg(file));
}

void ResultsExports::exportCsvDialog(const QString& csvName)
{
    if (!m_tabs->results().report)
        return;
    const QString file = saveFileName(m_dialogParent, tr("Export Table as CSV"), csvName + QStringLiteral(".csv"),
        tr("CSV files (*.csv);;All files (*)"));
    if (file.isEmpty())
        return;
    report(writeCsvTable(*m_tabs->results().report, csvName, file), tr("Wrote %1").arg(file));
}

void ResultsExports::report(const QString& error, const QString& confirmation)
{
    if (error.isEmpty())
        emit written(confirmation);
    else
        emit failed(error);
}

} // namespace fusiondiff::ui
