#include "report/jsonwriter.h"

#include "util/textformat.h"

#include <cmath>
#include <cstdio>

namespace fusiondiff {

std::string jsonQuoted(std::string_view text)
{
    std::string out;
    out.reserve(text.size() + 2);
    out.push_back('"');
    for (const char c : text) {
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        default:
            if (static_cast<unsigned char>(c) < 0x20) {
                char escaped[8];
                std::snprintf(escaped, sizeof escaped, "\\u%04x", static_cast<unsigned>(c));
                out += escaped;
            } else {
                out.push_back(c);
            }
        }
    }
    out.push_back('"');
    return out;
}

void JsonWriter::newline()
{
    m_out.push_back('\n');
    m_out.append(m_hasItems.size() * 2, ' ');
}

void JsonWriter::beforeValue()
{
    if (m_afterKey) {
        m_afterKey = false;
        return;
    }
    if (m_hasItems.empty())
        return;
    if (m_hasItems.back())
        m_out.push_back(',');
    m_hasItems.back() = true;
    newline();
}

void JsonWriter::beginObject()
{
    beforeValue();
    m_out.push_back('{');
    m_hasItems.push_back(false);
}

void JsonWriter::endObject()
{
    const bool hadItems = m_hasItems.back();
    m_hasItems.pop_back();
    if (hadItems)
        newline();
    m_out.push_back('}');
}

void JsonWriter::beginArray()
{
    beforeValue();
    m_out.push_back('[');
    m_hasItems.push_back(false);
}

void JsonWriter::endArray()
{
    const bool hadItems = m_hasItems.back();
    m_hasItems.pop_back();
    if (hadItems)
        newline();
    m_out.push_back(']');
}

void JsonWriter::key(std::string_view name)
{
    beforeValue();
    m_out += jsonQuoted(name);
    m_out += ": ";
    m_afterKey = true;
}

void JsonWriter::value(std::string_view text)
{
    beforeValue();
    m_out += jsonQuoted(text);
}

void JsonWriter::value(double number)
{
    beforeValue();
    if (!std::isfinite(number))
        m_out += "null";
    else
        m_out += shortestDouble(number);
}

void JsonWriter::value(int64_t number)
{
    beforeValue();
    m_out += std::to_string(number);
}

void JsonWriter::value(uint64_t number)
{
    beforeValue();
    m_out += std::to_string(number);
}

void JsonWriter::value(bool flag)
{
    beforeValue();
    m_out += flag ? "true" : "false";
}

void JsonWriter::null()
{
    beforeValue();
    m_out += "null";
}

std::string JsonWriter::finish()
{
    m_out.push_back('\n');
    return std::move(m_out);
}

} // namespace fusiondiff
