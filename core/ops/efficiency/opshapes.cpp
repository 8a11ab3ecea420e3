#include "ops/efficiency/opshapes.h"

#include <charconv>

namespace fusiondiff {

namespace {

// A tiny reader of the JSON the profiler writes in these args: lists of integers, lists of lists of
// integers, lists of strings. Whitespace anywhere between tokens.
class ListReader
{
public:
    explicit ListReader(std::string_view text)
        : m_text(text)
    { }

    bool consume(char c)
    {
        skipSpace();
        if (m_at < m_text.size() && m_text[m_at] == c) {
            ++m_at;
            return true;
        }
        return false;
    }
    bool peek(char c)
    {
        skipSpace();
        return m_at < m_text.size() && m_text[m_at] == c;
    }
    bool integer(int64_t& out)
    {
        skipSpace();
        const char* begin = m_text.data() + m_at;
        const auto [end, status] = std::from_chars(begin, m_text.data() + m_text.size(), out);
        if (status != std::errc())
            return false;
        m_at += static_cast<size_t>(end - begin);
        return true;
    }
    // A string's raw content (escapes kept: the values read here hold none that matter).
    bool string(std::string& out)
    {
        if (!consume('"'))
            return false;
        const size_t begin = m_at;
        while (m_at < m_text.size() && m_text[m_at] != '"')
            m_at += m_text[m_at] == '\\' ? 2 : 1;
        if (m_at >= m_text.size())
            return false;
        out.assign(m_text.substr(begin, m_at - begin));
        ++m_at;
        return true;
    }
    // Skips one value of any kind (a number, a string, a list, null).
    bool skipValue()
    {
        skipSpace();
        if (peek('"')) {
            std::string ignored;
            return string(ignored);
        }
        if (consume('[')) {
            if (consume(']'))
                return true;
            do {
                if (!skipValue())
                    return false;
            } while (consume(','));
            return consume(']');
        }
        const size_t begin = m_at;
        while (m_at < m_text.size() && m_text[m_at] != ',' && m_text[m_at] != ']' && m_text[m_at] != ' ')
            ++m_at;
        return m_at > begin;
    }

private:
    void skipSpace()
    {
        while (m_at < m_text.size()
            && (m_text[m_at] == ' ' || m_text[m_at] == '\n' || m_text[m_at] == '\r' || m_text[m_at] == '\t'))
            ++m_at;
    }

    std::string_view m_text;
    size_t m_at = 0;
};

bool readDims(std::string_view text, std::vector<std::vector<int64_t>>& out)
{
    ListReader reader(text);
    if (!reader.consume('['))
        return false;
    if (reader.consume(']'))
        return true;
    do {
        std::vector<int64_t>& dims = out.emplace_back();
        if (!reader.consume('['))
            return false;
        if (reader.consume(']'))
            continue;
        do {
            int64_t extent = 0;
            if (!reader.integer(extent) || extent < 0)
                return false;
            dims.push_back(extent);
        } while (reader.consume(','));
        if (!reader.consume(']'))
            return false;
    } while (reader.consume(','));
    return reader.consume(']');
}

// A list of strings; other values become "".
void readStrings(std::string_view text, std::vector<std::string>& out)
{
    ListReader reader(text);
    if (!reader.consume('[') || reader.consume(']'))
        return;
    do {
        std::string& value = out.emplace_back();
        if (!reader.peek('"')) {
            if (!reader.skipValue())
                return;
            continue;
        }
        if (!reader.string(value))
            return;
    } while (reader.consume(','));
}

} // namespace

const std::vector<int64_t>& OpInputs::dimsOf(size_t i) const
{
    static const std::vector<int64_t> kNone;
    return i < dims.size() ? dims[i] : kNone;
}

std::string_view OpInputs::typeOf(size_t i) const
{
    return i < types.size() ? std::string_view(types[i]) : std::string_view();
}

std::string_view OpInputs::concreteOf(size_t i) const
{
    return i < concrete.size() ? std::string_view(concrete[i]) : std::string_view();
}

bool OpInputs::isTensor(size_t i) const
{
    // A 0-d tensor records no dims but a tensor type.
    return !dimsOf(i).empty() || (i < dims.size() && !dtypeName(typeOf(i)).empty());
}

int64_t OpInputs::elements(size_t i) const
{
    if (!isTensor(i))
        return 0;
    int64_t product = 1;
    for (const int64_t extent : dims[i])
        product *= extent;
    return product;
}

std::optional<OpInputs> parseOpInputs(std::string_view text)
{
    const size_t first = text.find('\x1f');
    const size_t second = first == std::string_view::npos ? first : text.find('\x1f', first + 1);
    OpInputs inputs;
    if (!readDims(text.substr(0, first), inputs.dims))
        return std::nullopt;
    if (first != std::string_view::npos)
        readStrings(
            text.substr(first + 1, second == std::string_view::npos ? second : second - first - 1), inputs.types);
    if (second != std::string_view::npos)
        readStrings(text.substr(second + 1), inputs.concrete);
    return inputs;
}

std::optional<std::vector<int64_t>> concreteIntegers(std::string_view text)
{
    std::vector<int64_t> values;
    ListReader reader(text);
    const bool list = reader.consume('[');
    if (list && reader.consume(']'))
        return values;
    do {
        int64_t value = 0;
        if (!reader.integer(value))
            return std::nullopt;
        values.push_back(value);
    } while (list && reader.consume(','));
    if (list && !reader.consume(']'))
        return std::nullopt;
    return values;
}

std::optional<bool> concreteBool(std::string_view text)
{
    if (text == "True" || text == "true" || text == "1")
        return true;
    if (text == "False" || text == "false" || text == "0")
        return false;
    return std::nullopt;
}

std::optional<std::vector<bool>> concreteBools(std::string_view text)
{
    if (text.size() < 2 || text.front() != '[' || text.back() != ']')
        return std::nullopt;
    text = text.substr(1, text.size() - 2);
    std::vector<bool> values;
    while (!text.empty()) {
        const size_t comma = text.find(',');
        std::string_view item = text.substr(0, comma);
        while (!item.empty() && item.front() == ' ')
            item.remove_prefix(1);
        while (!item.empty() && item.back() == ' ')
            item.remove_suffix(1);
        const std::optional<bool> value = concreteBool(item);
        if (!value)
            return std::nullopt;
        values.push_back(*value);
        text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
    }
    return values;
}

std::string dtypeName(std::string_view inputType)
{
    if (inputType.starts_with("c10::"))
        inputType.remove_prefix(5);
    static constexpr std::pair<std::string_view, std::string_view> kNames[]
        = { { "BFloat16", "bf16" }, { "Half", "fp16" }, { "float", "fp32" }, { "Float", "fp32" }, { "double", "fp64" },
              { "Double", "fp64" }, { "Float8_e4m3fn", "fp8" }, { "Float8_e5m2", "fp8" }, { "Float8_e4m3fnuz", "fp8" },
              { "Float8_e5m2fnuz", "fp8" }, { "signed char", "int8" }, { "Char", "int8" }, { "unsigned char", "uint8" },
              { "Byte", "uint8" }, { "int", "int32" }, { "Int", "int32" }, { "long int", "int64" }, { "Long", "int64" },
              { "bool", "bool" }, { "Bool", "bool" } };
    for (const auto& [type, name] : kNames) {
        if (inputType == type)
            return std::string(name);
    }
    return {};
}

double dtypeNameBytes(std::string_view dtype)
{
    static constexpr std::pair<std::string_view, double> kBytes[] = { { "bf16", 2 }, { "fp16", 2 }, { "fp32", 4 },
        { "fp64", 8 }, { "fp8", 1 }, { "int8", 1 }, { "uint8", 1 }, { "int32", 4 }, { "int64", 8 }, { "bool", 1 } };
    for (const auto& [name, bytes] : kBytes) {
        if (dtype == name)
            return bytes;
    }
    return 0;
}

} // namespace fusiondiff
