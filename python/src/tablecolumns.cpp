#include "tablecolumns.h"

#include <pybind11/numpy.h>

#include <cmath>
#include <limits>
#include <type_traits>
#include <variant>
#include <vector>

namespace py = pybind11;

namespace fusiondiff::python {

namespace {

enum class Kind
{
    Integer,
    NullableInteger,
    Float,
    Text,
    Mixed,
};

bool isEmpty(const CellValue& value)
{
    return std::holds_alternative<std::monostate>(value) || std::holds_alternative<Spread>(value);
}

Kind kindOfUnit(Unit unit)
{
    switch (unit) {
    case Unit::Count:
    case Unit::Integer:
    case Unit::Identifier:
    case Unit::SignedCount:
        return Kind::NullableInteger;
    case Unit::Microseconds:
    case Unit::Milliseconds:
    case Unit::Ratio:
    case Unit::Decimal:
    case Unit::SignedMicroseconds:
    case Unit::Spread:
        return Kind::Float;
    case Unit::Text:
    case Unit::KernelName:
    case Unit::SideName:
    case Unit::SideText:
        break;
    }
    return Kind::Text;
}

Kind kindOfValues(const std::vector<CellValue>& values, Unit unit)
{
    bool text = false;
    bool integer = false;
    bool real = false;
    bool empty = false;
    for (const CellValue& value : values) {
        if (isEmpty(value))
            empty = true;
        else if (std::holds_alternative<std::string>(value))
            text = true;
        else if (std::holds_alternative<double>(value))
            real = true;
        else
            integer = true;
    }
    if (text)
        return integer || real ? Kind::Mixed : Kind::Text;
    if (real)
        return Kind::Float;
    if (integer)
        return empty ? Kind::NullableInteger : Kind::Integer;
    return kindOfUnit(unit);
}

// Text as Python str; bytes that are not UTF-8 (a kernel name cut by the trace's writer) become
// U+FFFD rather than failing the whole table.
py::object textObject(const std::string& text)
{
    PyObject* object = PyUnicode_DecodeUTF8(text.data(), static_cast<Py_ssize_t>(text.size()), "replace");
    if (!object)
        throw py::error_already_set();
    return py::reinterpret_steal<py::object>(object);
}

double asDouble(const CellValue& value)
{
    if (const auto* real = std::get_if<double>(&value))
        return *real;
    if (const auto* integer = std::get_if<int64_t>(&value))
        return static_cast<double>(*integer);
    if (const auto* count = std::get_if<uint64_t>(&value))
        return static_cast<double>(*count);
    return std::numeric_limits<double>::quiet_NaN();
}

int64_t asInt64(const CellValue& value)
{
    if (const auto* integer = std::get_if<int64_t>(&value))
        return *integer;
    if (const auto* count = std::get_if<uint64_t>(&value))
        return static_cast<int64_t>(*count);
    return 0;
}

bool exceedsInt64(const std::vector<CellValue>& values)
{
    for (const CellValue& value : values) {
        const auto* count = std::get_if<uint64_t>(&value);
        if (count && *count > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
            return true;
    }
    return false;
}

py::object cellObject(const CellValue& value)
{
    return std::visit(
        [](const auto& cell) -> py::object {
            using T = std::decay_t<decltype(cell)>;
            if constexpr (std::is_same_v<T, std::string>)
                return textObject(cell);
            else if constexpr (std::is_same_v<T, std::monostate> || std::is_same_v<T, Spread>)
                return py::none();
            else
                return py::cast(cell);
        },
        value);
}

py::tuple columnTuple(const TableColumn& column, const std::vector<CellValue>& values)
{
    const auto rows = static_cast<py::ssize_t>(values.size());
    const Kind kind = kindOfValues(values, column.unit);
    switch (kind) {
    case Kind::Integer:
    case Kind::NullableInteger: {
        if (kind == Kind::Integer && exceedsInt64(values)) {
            py::array_t<uint64_t> counts(rows);
            auto out = counts.mutable_unchecked<1>();
            for (py::ssize_t row = 0; row < rows; ++row)
                out(row) = std::get<uint64_t>(values[static_cast<size_t>(row)]);
            return py::make_tuple(column.key, "int", counts, py::none());
        }
        py::array_t<int64_t> numbers(rows);
        py::array_t<bool> mask(rows);
        auto out = numbers.mutable_unchecked<1>();
        auto empty = mask.mutable_unchecked<1>();
        for (py::ssize_t row = 0; row < rows; ++row) {
            const CellValue& value = values[static_cast<size_t>(row)];
            out(row) = asInt64(value);
            empty(row) = isEmpty(value);
        }
        if (kind == Kind::Integer)
            return py::make_tuple(column.key, "int", numbers, py::none());
        return py::make_tuple(column.key, "Int64", numbers, mask);
    }
    case Kind::Float: {
        py::array_t<double> numbers(rows);
        auto out = numbers.mutable_unchecked<1>();
        for (py::ssize_t row = 0; row < rows; ++row)
            out(row) = asDouble(values[static_cast<size_t>(row)]);
        return py::make_tuple(column.key, "float", numbers, py::none());
    }
    case Kind::Text:
    case Kind::Mixed: {
        py::list objects(rows);
        for (py::ssize_t row = 0; row < rows; ++row)
            objects[static_cast<size_t>(row)] = cellObject(values[static_cast<size_t>(row)]);
        return py::make_tuple(column.key, kind == Kind::Text ? "str" : "object", objects, py::none());
    }
    }
    return py::tuple();
}

} // namespace

py::list tableColumns(const ReportTable& table)
{
    py::list columns;
    std::vector<CellValue> values;
    for (const TableColumn& column : table.columns) {
        if (!column.inCsv)
            continue;
        values.clear();
        values.reserve(table.rows);
        for (size_t row = 0; row < table.rows; ++row)
            values.push_back(column.value(row));
        columns.append(columnTuple(column, values));
    }
    return columns;
}

} // namespace fusiondiff::python
