#include "util/textformat.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace fusiondiff {

std::string fixed(double value, int decimals)
{
    if (std::isinf(value))
        return value > 0 ? "inf" : "-inf";
    char text[512];
    std::snprintf(text, sizeof text, "%.*f", decimals, value);
    // A value that rounds to zero has no sign ("-0.0" reads as a loss that is not there).
    if (text[0] == '-' && std::strspn(text + 1, "0.") == std::strlen(text + 1))
        return text + 1;
    return text;
}

std::string withThousands(int64_t value)
{
    const std::string digits = std::to_string(value < 0 ? -static_cast<uint64_t>(value) : static_cast<uint64_t>(value));
    std::string result;
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0)
            result.push_back(',');
        result.push_back(digits[i]);
    }
    return value < 0 ? "-" + result : result;
}

std::string countWithThousands(uint64_t value)
{
    return withThousands(static_cast<int64_t>(value));
}

std::string padLeft(const std::string& text, size_t width)
{
    return text.size() < width ? std::string(width - text.size(), ' ') + text : text;
}

std::string shortestDouble(double value)
{
    char text[64];
    const auto [end, status] = std::to_chars(text, text + sizeof text, value);
    return status == std::errc() ? std::string(text, end) : std::string("0");
}

std::string formatDuration(double microseconds)
{
    const double magnitude = std::fabs(microseconds);
    if (magnitude >= 1e6)
        return fixed(microseconds / 1e6, 2) + " s";
    if (magnitude >= 1e3)
        return fixed(microseconds / 1e3, magnitude >= 1e5 ? 0 : 1) + " ms";
    return fixed(microseconds, magnitude >= 100 ? 0 : 1) + " us";
}

std::string numberRanges(const std::vector<uint32_t>& numbers)
{
    std::string text;
    for (size_t i = 0; i < numbers.size();) {
        size_t j = i;
        while (j + 1 < numbers.size() && numbers[j + 1] == numbers[j] + 1)
            ++j;
        text += (text.empty() ? "" : ", ") + std::to_string(numbers[i])
            + (j > i ? "\xE2\x80\x93" + std::to_string(numbers[j]) : "");
        i = j + 1;
    }
    return text;
}

} // namespace fusiondiff
