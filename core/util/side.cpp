#include "util/side.h"

namespace fusiondiff {

const char* sideKey(Side side)
{
    return side == Side::Trace1 ? "trace1" : "trace2";
}

} // namespace fusiondiff
