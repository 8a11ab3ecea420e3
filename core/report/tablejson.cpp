#include "report/tablejson.h"

#include "report/jsonwriter.h"
#include "report/reporttables.h"

#include <type_traits>
#include <variant>

namespace fusiondiff {

namespace {

void writeCellJson(JsonWriter& json, const CellValue& value)
{
    std::visit(
        [&json](const auto& cell) {
            using T = std::decay_t<decltype(cell)>;
            if constexpr (std::is_same_v<T, std::monostate>)
                json.null();
            else if constexpr (std::is_same_v<T, Spread>)
                writeSpreadJson(json, cell);
            else
                json.value(cell);
        },
        value);
}

} // namespace

void writeTableJson(JsonWriter& json, const ReportTable& table, std::initializer_list<std::string_view> keys)
{
    std::vector<const TableColumn*> columns;
    if (keys.size() == 0) {
        for (const TableColumn& column : table.columns) {
            if (column.inCsv)
                columns.push_back(&column);
        }
    } else {
        for (const std::string_view key : keys)
            columns.push_back(&table.columns.at(static_cast<size_t>(table.columnIndex(std::string(key)))));
    }
    json.beginArray();
    for (size_t row = 0; row < table.rows; ++row) {
        json.beginObject();
        for (const TableColumn* column : columns) {
            json.key(column->key);
            writeCellJson(json, column->value(row));
        }
        json.endObject();
    }
    json.endArray();
}

void writeSpreadJson(JsonWriter& json, const Spread& spread)
{
    json.beginObject();
    json.field("count", spread.count);
    json.field("total", spread.total);
    json.field("median", spread.median);
    json.field("q1", spread.q1);
    json.field("q3", spread.q3);
    json.endObject();
}

} // namespace fusiondiff
