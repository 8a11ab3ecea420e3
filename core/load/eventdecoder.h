#pragma once

#include <simdjson.h>

#include <string>

namespace fusiondiff {

struct TraceStore;

// Turns one element of a trace's event array into a row of the TraceStore, reading only the
// fields the analyses use. Events of other categories (python_function, flows, ...) are left as
// soon as their `cat` is known. Fields of the wrong type are coerced or ignored and counted in the
// store's LoadStatistics; only malformed JSON is an error.
class EventDecoder
{
public:
    explicit EventDecoder(TraceStore& store);

    // Decodes `element` and sets `end` to the first byte after it (the ',' or ']' that follows,
    // possibly preceded by whitespace). Returns the simdjson error if the element is malformed,
    // and INCOMPLETE_ARRAY_OR_OBJECT, recording nothing, if it would end past `limit`: an array
    // left open in the data that the bracket closing the parsed chunk closed instead.
    simdjson::error_code decode(simdjson::ondemand::value element, const char* limit, const char*& end);

private:
    TraceStore& m_store;
    std::string m_scratch;
    std::string m_frameKey; // a Python frame's name as pythonFrameKey() writes it
};

} // namespace fusiondiff
