#pragma once

#include <simdjson.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace fusiondiff {

class EventDecoder;

// Puts "[" before and "] " after a run of events, so that simdjson reads it as one array, and
// restores the two bytes it overwrote behind them when it goes out of scope (the byte before is
// spare: it is not restored).
class ChunkFrame
{
public:
    ChunkFrame(char* begin, size_t length);
    ~ChunkFrame();
    ChunkFrame(const ChunkFrame&) = delete;
    ChunkFrame& operator=(const ChunkFrame&) = delete;

private:
    char* m_end;
    char m_saved[2];
};

// Where a run of events may end: just after the last '}' before `before` that is followed by
// ", {" or "]" (whitespace allowed), or by the end of the data once `exhausted` says nothing comes
// after it. 0 if there is none. Such a cut may still fall inside a string or a nested object:
// parseChunk() tells.
size_t findChunkCut(const char* data, size_t size, size_t before, bool exhausted);

// What parsing a run of events (a chunk) came to.
struct ChunkOutcome
{
    enum class Kind
    {
        Done, // `consumed` bytes were read: all events up to the cut, or up to the last good one
        CutInsideString, // simdjson found an unclosed string: the cut was inside one
        EventPastCut, // the chunk's first event does not end at the cut
        Failed, // the data is malformed: `error` at `errorAt`
    };
    Kind kind = Kind::Done;
    size_t consumed = 0; // Done: bytes from the chunk's start, the array's ']' included if closed
    bool arrayClosed = false; // Done: the event array's own ']' came before the cut
    uint64_t events = 0; // Done: elements read
    std::string error;
    size_t errorAt = 0; // Failed: bytes from the chunk's start
};

// Parses the events in the first `cut` bytes at `base` as one simdjson On-Demand document, handing
// each to `decoder`. The byte before `base` and the two at `base + cut` are overwritten while it
// runs (to frame the events as an array) and restored before it returns; `bytesAfterBase` bytes
// from `base` must be allocated, simdjson's padding included. `wholeRest`: the cut is the end of
// the data, so an unclosed string or an unfinished event is a truncated file. A syntax error is
// told apart from a bad cut by where it occurs.
ChunkOutcome parseChunk(simdjson::ondemand::parser& parser, EventDecoder& decoder, char* base, size_t cut,
    bool wholeRest, size_t bytesAfterBase);

} // namespace fusiondiff
