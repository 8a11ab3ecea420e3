#pragma once

#include <simdjson.h>

#include <atomic>
#include <cstddef>
#include <functional>

namespace fusiondiff {

class EventDecoder;
class JsonCursor;

// Reads the elements of a trace's event array (the cursor stands just after its '[') in chunks
// of about `chunkBytes`, each parsed as one simdjson On-Demand document, so that memory is
// bounded by the chunk and not by the file (simdjson's single-document limit is 4 GiB).
//
// A chunk ends right after an event's closing '}' that is followed by ", {" or "]". Such a cut
// may in rare cases fall inside a string or a nested object; simdjson then reports an unclosed
// string or the chunk's last event fails at the cut, and the reader cuts earlier instead. Real
// syntax errors are told apart from bad cuts by where they occur, and reported with their offset.
class EventArrayReader
{
public:
    struct Options
    {
        size_t chunkBytes = size_t(8) << 20;
        size_t maxEventBytes = size_t(1) << 30;
        const std::atomic<bool>* cancel = nullptr;
        std::function<void()> chunkDone; // called after every chunk, e.g. to report progress
    };

    EventArrayReader(JsonCursor& cursor, EventDecoder& decoder, Options options);

    // Reads up to and including the closing ']'. In the array format (`allowMissingEnd`), the end of
    // the data may stand in for the ']'; returns false in that case, true if the ']' was there.
    bool read(bool allowMissingEnd);

    uint64_t eventCount() const { return m_events; }

    enum class ChunkEnd
    {
        AtCut, // all events up to the cut were read; a ',' or ']' follows
        ArrayClosed, // the array's ']' was inside the chunk and has been consumed
    };
    // Reads one chunk of events at the cursor (which stands at an event), growing the window for an
    // event larger than it. ParallelEventArrayReader calls it where a chunk cut ahead went wrong.
    ChunkEnd readChunk();

private:
    enum class Attempt
    {
        Done,
        CutInsideString, // simdjson found an unclosed string: the cut was inside one
        EventPastCut, // the chunk's first event does not end at the cut
    };
    // Parses the events in the first `cut` bytes of the window. The frame around them is
    // restored before this returns, so the window may be grown afterwards.
    Attempt tryChunk(size_t cut, bool wholeRest, ChunkEnd& end);
    size_t findCut(size_t before) const;

    JsonCursor& m_cursor;
    EventDecoder& m_decoder;
    Options m_options;
    simdjson::ondemand::parser m_parser;
    uint64_t m_events = 0;
};

} // namespace fusiondiff
