#include "util/textmatch.h"

#include <algorithm>

namespace fusiondiff {

std::string asciiLower(std::string_view text)
{
    std::string lower(text);
    for (char& c : lower) {
        if (c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
    }
    return lower;
}

bool containsAny(std::string_view text, std::initializer_list<std::string_view> parts)
{
    return std::any_of(
        parts.begin(), parts.end(), [&](std::string_view part) { return text.find(part) != std::string_view::npos; });
}

} // namespace fusiondiff
