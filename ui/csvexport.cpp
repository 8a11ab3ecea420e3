#include "csvexport.h"

#include "model/fusionreport.h"
#include "report/reporttables.h"
#include "report/reportwriters.h"

#include <QCoreApplication>
#include <QDir>
#include <QSaveFile>

namespace fusiondiff::ui {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("fusiondiff::ui::CsvExport", text);
}

QString writeBytes(const std::string& text, const QString& path)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return tr("Cannot write %1: %2").arg(path, file.errorString());
    if (file.write(text.data(), static_cast<qint64>(text.size())) != static_cast<qint64>(text.size()) || !file.commit())
        return tr("Cannot write %1: %2").arg(path, file.errorString());
    return {};
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
            return writeBytes(table.text, path);
    }
    return tr("There is no table named %1.").arg(name);
}

QString writeAllCsvTables(const FusionReport& report, const QString& folder)
{
    if (!QDir().mkpath(folder))
        return tr("Cannot create the folder %1.").arg(folder);
    for (const CsvTable& table : reportToCsv(report)) {
        QString error = writeBytes(
            table.text, QDir(folder).filePath(QString::fromStdString(table.name) + QStringLiteral(".csv")));
        if (!error.isEmpty())
            return error;
    }
    return {};
}

} // namespace fusiondiff::ui
