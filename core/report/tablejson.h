#pragma once

#include <initializer_list>
#include <string_view>

namespace fusiondiff {

class JsonWriter;
struct ReportTable;
struct Spread;

// The rows of `table` as a JSON array of objects, for the JSON arrays that have the CSV table's
// flat shape: one field per column named in `keys` (every CSV column, in the CSV's order, when
// `keys` is empty), each with the value the CSV writes, null where the CSV field is empty.
void writeTableJson(JsonWriter& json, const ReportTable& table, std::initializer_list<std::string_view> keys = {});

// {"count", "total", "median", "q1", "q3"}
void writeSpreadJson(JsonWriter& json, const Spread& spread);

} // namespace fusiondiff
