#include "export/csvexport.h"

#include "export/savefile.h"
#include "model/fusionreport.h"
#include "report/reporttables.h"
#include "report/reportwriters.h"

#include <QCoreApplication>
#include <QDir>

namespace fusiondiff::ui {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("fusiondiff::ui::CsvExport", text);
}

} // namespace

QStringList csvTableNames()
{
    QStringList names;
    for (const ReportTableId table : kReportTableIds)
        names.append(QString::fromLatin1(reportTableName(table)));
    return names;
}

QString writeCsvTable(const FusionReport& report, const QString& name, const QString& path)
{
    for (const CsvTable& table : reportToCsv(report)) {
        if (QString::fromStdString(table.name) == name)
            return saveFile(path, table.text);
    }
    return tr("There is no table named %1.").arg(name);
}

QString writeAllCsvTables(const FusionReport& report, const QString& folder)
{
    if (!QDir().mkpath(folder))
        return tr("Cannot create the folder %1.").arg(folder);
    for (const CsvTable& table : reportToCsv(report)) {
        QString error
            = saveFile(QDir(folder).filePath(QString::fromStdString(table.name) + QStringLiteral(".csv")), table.text);
        if (!error.isEmpty())
            return error;
    }
    return {};
}

} // namespace fusiondiff::ui
