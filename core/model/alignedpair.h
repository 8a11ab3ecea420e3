#pragma once

#include <cstdint>

namespace fusiondiff {

// One column of an alignment: an element of each sequence, or of one and a gap (-1) in the other.
struct AlignedPair
{
    int64_t first = -1;
    int64_t second = -1;

    bool isMatch() const { return first >= 0 && second >= 0; }
    bool operator==(const AlignedPair&) const = default;
};

} // namespace fusiondiff
