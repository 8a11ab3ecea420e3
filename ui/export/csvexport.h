#pragma once

#include <QString>
#include <QStringList>

namespace fusiondiff {
struct FusionReport;
}

namespace fusiondiff::ui {

// The core's CSV tables (reportToCsv), written byte for byte as fusiondiff-cli --csv writes them.
QStringList csvTableNames();
// Writes one table to `path`; returns an error text, empty on success.
QString writeCsvTable(const FusionReport& report, const QString& name, const QString& path);
// Writes every table as <folder>/<name>.csv (creating the folder); returns an error text or "".
QString writeAllCsvTables(const FusionReport& report, const QString& folder);

} // namespace fusiondiff::ui
