#include "load/pythonframes.h"

#include <algorithm>

namespace fusiondiff {

namespace {

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

bool isHexDigit(char c)
{
    return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

// Where "(123): " starts in `name`, and its length without the ": ".
bool findLineNumber(std::string_view name, size_t& open, size_t& length)
{
    const size_t close = name.find("): ");
    if (close == std::string_view::npos || close == 0)
        return false;
    size_t first = close;
    while (first > 0 && isDigit(name[first - 1]))
        --first;
    if (first == close || first == 0 || name[first - 1] != '(')
        return false;
    open = first - 1;
    length = close + 1 - open;
    return true;
}

} // namespace

std::string_view pythonFrameKey(std::string_view name, std::string& scratch)
{
    size_t start = 0;
    for (const std::string_view packages : { std::string_view("site-packages/"), std::string_view("dist-packages/") }) {
        const size_t at = name.rfind(packages);
        if (at != std::string_view::npos && name.find("): ") > at)
            start = std::max(start, at + packages.size());
    }
    size_t open = 0;
    size_t length = 0;
    const bool hasLine = findLineNumber(name, open, length);
    const size_t address = name.find(" at 0x");
    if (start == 0 && !hasLine && address == std::string_view::npos)
        return name;

    scratch.clear();
    for (size_t i = start; i < name.size();) {
        if (hasLine && i == open) {
            i += length;
            continue;
        }
        if (i == address) {
            size_t end = i + 6;
            while (end < name.size() && isHexDigit(name[end]))
                ++end;
            i = end;
            continue;
        }
        scratch += name[i++];
    }
    return scratch;
}

} // namespace fusiondiff
