#include "model/fusionreport.h"
#include "report/csvwriter.h"
#include "report/reporttables.h"
#include "report/reportwriters.h"

#include <type_traits>
#include <variant>

namespace fusiondiff {

namespace {

void writeCell(CsvWriter& csv, const CellValue& value)
{
    std::visit(
        [&csv](const auto& cell) {
            using T = std::decay_t<decltype(cell)>;
            // Spreads are the app's columns; the CSV writes their four values in columns of their own.
            if constexpr (std::is_same_v<T, std::monostate> || std::is_same_v<T, Spread>)
                csv.empty();
            else
                csv.field(cell);
        },
        value);
}

std::string csvText(const ReportTable& table)
{
    CsvWriter csv;
    for (const TableColumn& column : table.columns) {
        if (column.inCsv)
            csv.field(column.key);
    }
    csv.endRecord();
    for (size_t row = 0; row < table.rows; ++row) {
        for (const TableColumn& column : table.columns) {
            if (column.inCsv)
                writeCell(csv, column.value(row));
        }
        csv.endRecord();
    }
    return csv.text();
}

} // namespace

std::vector<CsvTable> reportToCsv(const FusionReport& report)
{
    std::vector<CsvTable> tables;
    tables.reserve(kReportTableIds.size());
    for (const ReportTableId id : kReportTableIds)
        tables.push_back({ reportTableName(id), csvText(reportTable(id, report)) });
    if (report.job) {
        for (const ReportTableId id : kJobReportTableIds)
            tables.push_back({ reportTableName(id), csvText(reportTable(id, report)) });
    }
    return tables;
}

} // namespace fusiondiff
