#include "load/jsoncursor.h"

#include "load/inputwindow.h"
#include "load/jsonstring.h"
#include "util/inputerror.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <string_view>
#include <vector>

namespace fusiondiff {

namespace {

constexpr size_t kMaxScalarLength = 1024;

bool isDelimiter(int c)
{
    return c == JsonCursor::kEnd || isJsonWhitespace(c) || c == ',' || c == ']' || c == '}' || c == ':';
}

bool isValidScalar(const std::string& text)
{
    if (text == "true" || text == "false" || text == "null")
        return true;
    // JSON number: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
    size_t i = 0;
    const size_t n = text.size();
    auto digits = [&] {
        const size_t start = i;
        while (i < n && text[i] >= '0' && text[i] <= '9')
            ++i;
        return i > start;
    };
    if (i < n && text[i] == '-')
        ++i;
    if (i < n && text[i] == '0')
        ++i;
    else if (!digits())
        return false;
    if (i < n && text[i] == '.') {
        ++i;
        if (!digits())
            return false;
    }
    if (i < n && (text[i] == 'e' || text[i] == 'E')) {
        ++i;
        if (i < n && (text[i] == '+' || text[i] == '-'))
            ++i;
        if (!digits())
            return false;
    }
    return i == n;
}

} // namespace

JsonCursor::JsonCursor(InputWindow& window, std::string path, bool compressed)
    : m_window(window)
    , m_path(std::move(path))
    , m_compressed(compressed)
{ }

int JsonCursor::peek()
{
    if (m_window.empty() && !m_window.ensure(1))
        return kEnd;
    return static_cast<unsigned char>(*m_window.begin());
}

int JsonCursor::skipWhitespace()
{
    for (;;) {
        const int c = peek();
        if (!isJsonWhitespace(c))
            return c;
        // Skip the whole run of whitespace that is in the window.
        const char* p = m_window.begin();
        const char* end = p + m_window.size();
        while (p < end && isJsonWhitespace(static_cast<unsigned char>(*p)))
            ++p;
        m_window.consume(static_cast<size_t>(p - m_window.begin()));
    }
}

bool JsonCursor::skipByteOrderMark()
{
    constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";
    m_window.ensure(kByteOrderMark.size());
    if (std::string_view(m_window.begin(), std::min(m_window.size(), kByteOrderMark.size())) != kByteOrderMark)
        return false;
    m_window.consume(kByteOrderMark.size());
    return true;
}

void JsonCursor::advance(size_t count)
{
    m_window.consume(count);
}

uint64_t JsonCursor::offset() const
{
    return m_window.offset();
}

void JsonCursor::fail(const std::string& reason) const
{
    failAt(reason, offset());
}

void JsonCursor::failAt(const std::string& reason, uint64_t offset) const
{
    throw InputError(
        m_path, reason, offset, m_compressed ? InputError::OffsetKind::Decompressed : InputError::OffsetKind::File);
}

std::string JsonCursor::describeNext()
{
    const int c = peek();
    if (c == kEnd)
        return "the end of the file";
    if (c >= 0x20 && c < 0x7f)
        return std::string("'") + static_cast<char>(c) + "'";
    char text[16];
    std::snprintf(text, sizeof text, "byte 0x%02x", c);
    return text;
}

std::string JsonCursor::readString()
{
    std::string raw;
    walkString(&raw);
    std::string scratch;
    bool ok = false;
    // `raw` holds the string with both quotes; decode what is between them.
    const std::string_view decoded = decodeJsonString(raw.data() + 1, raw.data() + raw.size(), scratch, ok);
    return std::string(decoded);
}

void JsonCursor::skipValue()
{
    walkValue(nullptr, 0);
}

std::string JsonCursor::captureValue(size_t maxBytes)
{
    std::string text;
    walkValue(&text, maxBytes);
    return text;
}

void JsonCursor::walkString(std::string* capture)
{
    advance(); // opening quote
    if (capture)
        capture->push_back('"');
    for (;;) {
        const int c = peek();
        if (c == kEnd)
            failAt("the file ends inside a string: it is truncated", offset());
        if (c < 0x20)
            fail("control character inside a string (not valid JSON)");
        advance();
        if (capture)
            capture->push_back(static_cast<char>(c));
        if (c == '"')
            return;
        if (c == '\\') {
            const int escaped = peek();
            if (escaped == kEnd)
                failAt("the file ends inside a string: it is truncated", offset());
            advance();
            if (capture)
                capture->push_back(static_cast<char>(escaped));
        }
    }
}

void JsonCursor::walkScalar(std::string* capture)
{
    const uint64_t start = offset();
    std::string text;
    for (int c = peek(); !isDelimiter(c); c = peek()) {
        text.push_back(static_cast<char>(c));
        advance();
        if (text.size() > kMaxScalarLength)
            break;
    }
    if (!isValidScalar(text))
        failAt("invalid JSON value '" + text.substr(0, 32) + "'", start);
    if (capture)
        capture->append(text);
}

// Walks one value iteratively (no recursion, so deep nesting cannot overflow the stack).
void JsonCursor::walkValue(std::string* capture, size_t maxBytes)
{
    std::vector<char> closers; // the bracket each open container expects
    enum class Expect
    {
        Value,
        ValueOrClose, // right after '['
        KeyOrClose, // right after '{'
        Key,
        Colon,
        CommaOrClose,
    };
    Expect expect = Expect::Value;
    bool captureOverflow = false;
    auto put = [&](char c) {
        if (capture && !captureOverflow)
            capture->push_back(c);
    };
    auto checkCapture = [&] {
        if (capture && !captureOverflow && capture->size() > maxBytes) {
            captureOverflow = true;
            capture->clear();
        }
    };

    for (;;) {
        const int c = skipWhitespace();
        if (c == kEnd)
            failAt("the file ends inside a JSON value: it is truncated", offset());
        switch (expect) {
        case Expect::Colon:
            if (c != ':')
                fail("expected ':' after an object key but found " + describeNext());
            advance();
            put(':');
            expect = Expect::Value;
            continue;
        case Expect::CommaOrClose:
            if (c == ',') {
                advance();
                put(',');
                expect = closers.back() == '}' ? Expect::Key : Expect::Value;
                continue;
            }
            if (c != closers.back())
                fail(std::string("expected ',' or '") + closers.back() + "' but found " + describeNext());
            advance();
            put(static_cast<char>(c));
            closers.pop_back();
            if (closers.empty()) {
                if (captureOverflow)
                    capture->clear();
                return;
            }
            continue;
        case Expect::KeyOrClose:
        case Expect::Key:
            if (c == '}' && expect == Expect::KeyOrClose) {
                expect = Expect::CommaOrClose;
                continue;
            }
            if (c != '"')
                fail("expected an object key (a string) but found " + describeNext());
            walkString(capture && !captureOverflow ? capture : nullptr);
            checkCapture();
            expect = Expect::Colon;
            continue;
        case Expect::ValueOrClose:
            if (c == ']') {
                expect = Expect::CommaOrClose;
                continue;
            }
            [[fallthrough]];
        case Expect::Value:
            break;
        }

        // A value starts here.
        if (c == '{' || c == '[') {
            if (closers.size() >= kMaxDepth)
                fail("JSON nested more than " + std::to_string(kMaxDepth) + " levels deep");
            advance();
            put(static_cast<char>(c));
            closers.push_back(c == '{' ? '}' : ']');
            expect = c == '{' ? Expect::KeyOrClose : Expect::ValueOrClose;
            continue;
        }
        if (c == '"')
            walkString(capture && !captureOverflow ? capture : nullptr);
        else if (c == ']' || c == '}' || c == ',' || c == ':')
            fail("expected a JSON value but found " + describeNext());
        else
            walkScalar(capture && !captureOverflow ? capture : nullptr);
        checkCapture();
        if (closers.empty()) {
            if (captureOverflow)
                capture->clear();
            return;
        }
        expect = Expect::CommaOrClose;
    }
}

} // namespace fusiondiff
