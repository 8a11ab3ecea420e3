#pragma once

#include <cstddef>
#include <cstdint>

namespace fusiondiff {

// Trace 1 is the first trace given (A), trace 2 the second (B), everywhere.
enum class Side : uint8_t
{
    Trace1 = 0,
    Trace2 = 1,
};

inline Side otherSide(Side side)
{
    return side == Side::Trace1 ? Side::Trace2 : Side::Trace1;
}
inline size_t sideIndex(Side side)
{
    return static_cast<size_t>(side);
}
const char* sideKey(Side side); // "trace1" / "trace2"
inline const char* sideLetter(Side side)
{
    return side == Side::Trace1 ? "A" : "B";
}

} // namespace fusiondiff
