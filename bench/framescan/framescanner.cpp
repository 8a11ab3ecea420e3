#include "framescanner.h"

#include <charconv>
#include <cstring>
#include <system_error>

namespace fusiondiff {

namespace {

bool isWhitespace(char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

const char* skipWhitespace(const char* p, const char* end)
{
    while (p < end && isWhitespace(*p))
        ++p;
    return p;
}

// The string whose opening quote is at `p`: the byte after its closing quote, and its content; nullptr if
// it holds an escape, a control byte or a byte outside ASCII (simdjson validates those), or ends past `end`.
const char* scanString(const char* p, const char* end, std::string_view& content)
{
    if (p >= end || *p != '"')
        return nullptr;
    const char* begin = p + 1;
    const auto* close = static_cast<const char*>(std::memchr(begin, '"', static_cast<size_t>(end - begin)));
    if (!close)
        return nullptr;
    bool plain = true;
    for (const char* c = begin; c < close; ++c) {
        const auto byte = static_cast<unsigned char>(*c);
        plain &= byte != '\\' && byte >= 0x20 && byte < 0x80;
    }
    if (!plain)
        return nullptr;
    content = { begin, static_cast<size_t>(close - begin) };
    return close + 1;
}

const char* skipDigits(const char* p, const char* end)
{
    while (p < end && isDigit(*p))
        ++p;
    return p;
}

// A number in JSON's grammar at `p`: the byte after it, nullptr if malformed. `integral`: written with
// neither a fraction nor an exponent.
const char* scanNumber(const char* p, const char* end, bool& integral)
{
    if (p < end && *p == '-')
        ++p;
    if (p >= end)
        return nullptr;
    if (*p == '0')
        ++p;
    else if (isDigit(*p))
        p = skipDigits(p, end);
    else
        return nullptr;
    integral = true;
    if (p < end && *p == '.') {
        integral = false;
        if (++p >= end || !isDigit(*p))
            return nullptr;
        p = skipDigits(p, end);
    }
    if (p < end && (*p == 'e' || *p == 'E')) {
        integral = false;
        if (++p < end && (*p == '+' || *p == '-'))
            ++p;
        if (p >= end || !isDigit(*p))
            return nullptr;
        p = skipDigits(p, end);
    }
    return p;
}

template<size_t N>
const char* scanLiteral(const char* p, const char* end, const char (&literal)[N])
{
    constexpr size_t length = N - 1;
    if (static_cast<size_t>(end - p) < length || std::memcmp(p, literal, length) != 0)
        return nullptr;
    return p + length;
}

// A string, number, true, false or null at `p`: the byte after it.
const char* scanScalar(const char* p, const char* end)
{
    if (p >= end)
        return nullptr;
    std::string_view text;
    bool integral = false;
    switch (*p) {
    case '"':
        return scanString(p, end, text);
    case 't':
        return scanLiteral(p, end, "true");
    case 'f':
        return scanLiteral(p, end, "false");
    case 'n':
        return scanLiteral(p, end, "null");
    default:
        return scanNumber(p, end, integral);
    }
}

// A number that fits an int64_t, written as an integer.
const char* scanInteger(const char* p, const char* end, int64_t& out)
{
    bool integral = false;
    const char* after = scanNumber(p, end, integral);
    if (!after || !integral)
        return nullptr;
    const auto [stop, status] = std::from_chars(p, after, out);
    return status == std::errc() && stop == after ? after : nullptr;
}

// A number the double that simdjson's get_double() gives for it (both round correctly).
const char* scanDouble(const char* p, const char* end, double& out)
{
    bool integral = false;
    const char* after = scanNumber(p, end, integral);
    if (!after)
        return nullptr;
    const auto [stop, status] = std::from_chars(p, after, out);
    return status == std::errc() && stop == after ? after : nullptr;
}

// The arguments EventDecoder reads of any event: accepted only as plain integers, so that reading them
// neither coerces nor ignores a field.
bool isDecodedArgument(std::string_view key)
{
    return key == "correlation" || key == "External id" || key == "external id" || key == "device" || key == "stream"
        || key == "In msg nelems";
}

// The object at `p` (its '{'), each member's value read by readValue(key, at), which returns the byte
// after the value or nullptr: the byte after the object's '}'.
template<typename ReadValue>
const char* scanMembers(const char* p, const char* end, ReadValue&& readValue)
{
    if (p >= end || *p != '{')
        return nullptr;
    p = skipWhitespace(p + 1, end);
    if (p < end && *p == '}')
        return p + 1;
    for (;;) {
        std::string_view key;
        if (!(p = scanString(p, end, key)))
            return nullptr;
        p = skipWhitespace(p, end);
        if (p >= end || *p != ':')
            return nullptr;
        if (!(p = readValue(key, skipWhitespace(p + 1, end))))
            return nullptr;
        p = skipWhitespace(p, end);
        if (p >= end)
            return nullptr;
        if (*p == '}')
            return p + 1;
        if (*p != ',')
            return nullptr;
        p = skipWhitespace(p + 1, end);
    }
}

// An object of scalars ("args") at `p`: the byte after its '}'.
const char* scanArguments(const char* p, const char* end)
{
    return scanMembers(p, end, [end](std::string_view key, const char* at) {
        int64_t unused = 0;
        return isDecodedArgument(key) ? scanInteger(at, end, unused) : scanScalar(at, end);
    });
}

enum Field : unsigned
{
    Category = 1,
    Name = 2,
    Ts = 4,
    Dur = 8,
    Pid = 16,
    Tid = 32,
    Args = 64,
};

// The value of the frame's field `key` at `p`: the byte after it; `seen` collects the fields read.
const char* scanField(std::string_view key, const char* p, const char* end, ScannedFrame& frame, unsigned& seen)
{
    unsigned field = 0;
    if (key == "cat")
        field = Category;
    else if (key == "name")
        field = Name;
    else if (key == "ts")
        field = Ts;
    else if (key == "dur")
        field = Dur;
    else if (key == "pid")
        field = Pid;
    else if (key == "tid")
        field = Tid;
    else if (key == "args")
        field = Args;
    if (seen & field)
        return nullptr; // which one EventDecoder keeps depends on the order: leave it to simdjson
    seen |= field;
    std::string_view text;
    switch (field) {
    case Category:
        p = scanString(p, end, text);
        return p && text == "python_function" ? p : nullptr;
    case Name:
        return scanString(p, end, frame.rawName);
    case Ts:
        return scanDouble(p, end, frame.ts);
    case Dur:
        return scanDouble(p, end, frame.dur);
    case Pid:
        return scanInteger(p, end, frame.pid);
    case Tid:
        return scanInteger(p, end, frame.tid);
    case Args:
        return scanArguments(p, end);
    default:
        return p < end && *p == '{' ? scanArguments(p, end) : scanScalar(p, end);
    }
}

} // namespace

const char* scanFrame(const char* begin, const char* end, ScannedFrame& frame)
{
    unsigned seen = 0;
    const char* after = scanMembers(
        begin, end, [&](std::string_view key, const char* at) { return scanField(key, at, end, frame, seen); });
    constexpr unsigned needed = Category | Name | Ts | Dur | Pid | Tid;
    return after && (seen & needed) == needed ? after : nullptr;
}

} // namespace fusiondiff
