#pragma once

#include <cstdint>
#include <string_view>

namespace fusiondiff {

// A Python frame read by scanFrame(): the fields EventDecoder stores of one.
struct ScannedFrame
{
    std::string_view rawName; // between the quotes; never holds an escape
    double ts = 0;
    double dur = 0;
    int64_t pid = 0;
    int64_t tid = 0;
};

// An experiment for docs/performance.md (suggestion 8), not used by the core: a scalar reader of the
// Python frames that would take them past simdjson. bench/framescan.sh times it against the loader.
//
// Reads the event object at `begin` (its '{') if it is a Python frame in the plain form profilers
// write, without simdjson: returns the byte after its '}', or nullptr if the object is anything
// else or would end past `end`. "Anything else" is deliberately broad (escapes, non-ASCII bytes, arrays,
// strings or fractions where numbers belong, a repeated field, a missing one): simdjson then reads the
// object, so that whatever the scanner accepts, EventDecoder would have stored the same frame from it with no
// field coerced or ignored.
const char* scanFrame(const char* begin, const char* end, ScannedFrame& frame);

} // namespace fusiondiff
