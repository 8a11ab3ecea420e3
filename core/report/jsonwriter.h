#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fusiondiff {

// Writes indented JSON into a string. Doubles get their shortest round-trip form; infinities and
// NaN, which JSON cannot hold, become null.
class JsonWriter
{
public:
    void beginObject();
    void endObject();
    void beginArray();
    void endArray();
    void key(std::string_view name);

    void value(std::string_view text);
    void value(const char* text) { value(std::string_view(text)); }
    void value(double number);
    void value(int64_t number);
    void value(uint64_t number);
    void value(int number) { value(static_cast<int64_t>(number)); }
    void value(uint32_t number) { value(static_cast<uint64_t>(number)); }
    void value(bool flag);
    void null();

    template<typename T>
    void field(std::string_view name, const T& v)
    {
        key(name);
        value(v);
    }

    // The finished document, with a final newline.
    std::string finish();

private:
    void beforeValue();
    void newline();

    std::string m_out;
    std::vector<bool> m_hasItems; // per open container
    bool m_afterKey = false;
};

// An array with one object per element of `rows`; `writeFields(json, row)` writes the object's fields.
template<typename Rows, typename WriteFields>
void writeObjectArray(JsonWriter& json, const Rows& rows, const WriteFields& writeFields)
{
    json.beginArray();
    for (const auto& row : rows) {
        json.beginObject();
        writeFields(json, row);
        json.endObject();
    }
    json.endArray();
}

// An array of the values in `values` (strings or numbers).
template<typename Values>
void writeValueArray(JsonWriter& json, const Values& values)
{
    json.beginArray();
    for (const auto& value : values)
        json.value(value);
    json.endArray();
}

// JSON string literal for `text`, quotes included.
std::string jsonQuoted(std::string_view text);

} // namespace fusiondiff
