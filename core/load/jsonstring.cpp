#include "load/jsonstring.h"

#include <cstdint>
#include <cstring>

namespace fusiondiff {

namespace {

int hexValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

bool readHex4(const char* p, const char* limit, uint32_t& out)
{
    if (limit - p < 4)
        return false;
    out = 0;
    for (int i = 0; i < 4; ++i) {
        const int digit = hexValue(p[i]);
        if (digit < 0)
            return false;
        out = out * 16 + static_cast<uint32_t>(digit);
    }
    return true;
}

void appendUtf8(std::string& out, uint32_t codePoint)
{
    if (codePoint < 0x80) {
        out.push_back(static_cast<char>(codePoint));
    } else if (codePoint < 0x800) {
        out.push_back(static_cast<char>(0xC0 | (codePoint >> 6)));
        out.push_back(static_cast<char>(0x80 | (codePoint & 0x3F)));
    } else if (codePoint < 0x10000) {
        out.push_back(static_cast<char>(0xE0 | (codePoint >> 12)));
        out.push_back(static_cast<char>(0x80 | ((codePoint >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (codePoint & 0x3F)));
    } else {
        out.push_back(static_cast<char>(0xF0 | (codePoint >> 18)));
        out.push_back(static_cast<char>(0x80 | ((codePoint >> 12) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | ((codePoint >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (codePoint & 0x3F)));
    }
}

// Decodes one escape sequence starting after the backslash; advances `p` past it.
bool decodeEscape(const char*& p, const char* limit, std::string& out)
{
    if (p >= limit)
        return false;
    const char kind = *p++;
    switch (kind) {
    case '"':
    case '\\':
    case '/':
        out.push_back(kind);
        return true;
    case 'b':
        out.push_back('\b');
        return true;
    case 'f':
        out.push_back('\f');
        return true;
    case 'n':
        out.push_back('\n');
        return true;
    case 'r':
        out.push_back('\r');
        return true;
    case 't':
        out.push_back('\t');
        return true;
    case 'u': {
        uint32_t unit = 0;
        if (!readHex4(p, limit, unit))
            return false;
        p += 4;
        if (unit >= 0xD800 && unit <= 0xDBFF) {
            uint32_t low = 0;
            if (limit - p >= 6 && p[0] == '\\' && p[1] == 'u' && readHex4(p + 2, limit, low) && low >= 0xDC00
                && low <= 0xDFFF) {
                p += 6;
                appendUtf8(out, 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00));
                return true;
            }
            appendUtf8(out, 0xFFFD); // a lone surrogate has no UTF-8 form: U+FFFD stands in for it
            return true;
        }
        if (unit >= 0xDC00 && unit <= 0xDFFF)
            unit = 0xFFFD;
        appendUtf8(out, unit);
        return true;
    }
    default:
        return false;
    }
}

} // namespace

std::string_view decodeJsonString(const char* raw, const char* limit, std::string& scratch, bool& ok)
{
    ok = false;
    const char* p = raw;
    while (p < limit && *p != '"' && *p != '\\') {
        if (static_cast<unsigned char>(*p) < 0x20)
            return {};
        ++p;
    }
    if (p >= limit)
        return {};
    if (*p == '"') {
        ok = true;
        return { raw, static_cast<size_t>(p - raw) };
    }
    scratch.assign(raw, p);
    while (p < limit) {
        const char c = *p;
        if (c == '"') {
            ok = true;
            return scratch;
        }
        if (static_cast<unsigned char>(c) < 0x20)
            return {};
        if (c == '\\') {
            ++p;
            if (!decodeEscape(p, limit, scratch))
                return {};
            continue;
        }
        scratch.push_back(c);
        ++p;
    }
    return {};
}

std::string_view decodeJsonStringContent(std::string_view content, std::string& scratch, bool& ok)
{
    // One pass the compiler vectorises: any byte below 0x20 or a backslash needs the slow path.
    unsigned char special = 0;
    for (const char c : content) {
        const auto byte = static_cast<unsigned char>(c);
        special |= static_cast<unsigned char>((byte < 0x20) | (byte == '\\'));
    }
    if (!special) {
        ok = true;
        return content;
    }
    // The slow path reads up to the closing quote, which follows the content in the input.
    return decodeJsonString(content.data(), content.data() + content.size() + 1, scratch, ok);
}

bool nestsDeeperThan(std::string_view json, size_t limit)
{
    size_t depth = 0;
    bool inString = false;
    for (size_t i = 0; i < json.size(); ++i) {
        const char c = json[i];
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            if (++depth > limit)
                return true;
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;
        }
    }
    return false;
}

size_t firstInvalidUtf8(std::string_view text)
{
    const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
    const size_t size = text.size();
    size_t i = 0;
    while (i < size) {
        const unsigned char lead = bytes[i];
        if (lead < 0x80) {
            ++i;
            continue;
        }
        size_t length = 0;
        uint32_t minimum = 0;
        uint32_t codePoint = 0;
        if ((lead & 0xE0) == 0xC0) {
            length = 2;
            minimum = 0x80;
            codePoint = lead & 0x1F;
        } else if ((lead & 0xF0) == 0xE0) {
            length = 3;
            minimum = 0x800;
            codePoint = lead & 0x0F;
        } else if ((lead & 0xF8) == 0xF0) {
            length = 4;
            minimum = 0x10000;
            codePoint = lead & 0x07;
        } else {
            return i;
        }
        if (i + length > size)
            return i;
        for (size_t k = 1; k < length; ++k) {
            if ((bytes[i + k] & 0xC0) != 0x80)
                return i;
            codePoint = (codePoint << 6) | (bytes[i + k] & 0x3F);
        }
        if (codePoint < minimum || codePoint > 0x10FFFF || (codePoint >= 0xD800 && codePoint <= 0xDFFF))
            return i;
        i += length;
    }
    return size;
}

} // namespace fusiondiff
