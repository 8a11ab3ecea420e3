#include "util/phaseorder.h"

#include <charconv>
#include <limits>

namespace fusiondiff {

int64_t phaseOrder(std::string_view phase)
{
    constexpr std::string_view kPrefix = "phase ";
    if (phase.empty() || phase == "whole trace")
        return 0;
    if (phase.starts_with(kPrefix)) {
        const std::string_view digits = phase.substr(kPrefix.size());
        int64_t number = 0;
        const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), number);
        if (error == std::errc() && end == digits.data() + digits.size())
            return number;
    }
    // Any other name ("not compared") after every numbered phase.
    return std::numeric_limits<int64_t>::max();
}

bool phaseLayerBefore(const std::pair<std::string, uint32_t>& a, const std::pair<std::string, uint32_t>& b)
{
    const int64_t phaseA = phaseOrder(a.first);
    const int64_t phaseB = phaseOrder(b.first);
    if (phaseA != phaseB)
        return phaseA < phaseB;
    if (a.first != b.first)
        return a.first < b.first;
    return a.second < b.second;
}

} // namespace fusiondiff
