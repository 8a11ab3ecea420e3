#include "load/eventarrayreader.h"

#include "load/eventdecoder.h"
#include "load/inputwindow.h"
#include "load/jsoncursor.h"
#include "load/jsonstring.h"
#include "util/inputerror.h"

#include <cstring>

namespace fusiondiff {

namespace ondemand = simdjson::ondemand;
using simdjson::error_code;

namespace {

bool isWhitespace(char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

// Errors that a cut at the wrong nesting depth produces. Any other error is in the data itself.
bool mayComeFromCut(error_code error)
{
    return error == simdjson::TAPE_ERROR || error == simdjson::INCOMPLETE_ARRAY_OR_OBJECT
        || error == simdjson::OUT_OF_BOUNDS || error == simdjson::INCORRECT_TYPE;
}

std::string describeError(error_code error)
{
    switch (error) {
    case simdjson::TAPE_ERROR:
    case simdjson::INCOMPLETE_ARRAY_OR_OBJECT:
        return "malformed JSON: a comma, colon or bracket is missing or misplaced";
    case simdjson::NUMBER_ERROR:
        return "malformed JSON number";
    case simdjson::STRING_ERROR:
        return "malformed JSON string (an invalid escape or a raw control character)";
    case simdjson::UNESCAPED_CHARS:
        return "raw control character inside a string (not valid JSON)";
    case simdjson::UNCLOSED_STRING:
        return "unterminated string";
    case simdjson::UTF8_ERROR:
        return "invalid UTF-8";
    case simdjson::T_ATOM_ERROR:
    case simdjson::F_ATOM_ERROR:
    case simdjson::N_ATOM_ERROR:
        return "malformed JSON literal (expected true, false or null)";
    case simdjson::DEPTH_ERROR:
        return "JSON nested too deeply";
    default:
        return std::string("invalid JSON: ") + simdjson::error_message(error);
    }
}

// Puts "[" before and "] " after a run of events in the window, and restores the two bytes it
// overwrote behind them when it goes out of scope (the byte before is already consumed).
class ChunkFrame
{
public:
    ChunkFrame(char* begin, size_t length)
        : m_end(begin + length)
        , m_saved { m_end[0], m_end[1] }
    {
        begin[-1] = '[';
        m_end[0] = ']';
        m_end[1] = ' ';
    }
    ~ChunkFrame()
    {
        m_end[0] = m_saved[0];
        m_end[1] = m_saved[1];
    }
    ChunkFrame(const ChunkFrame&) = delete;
    ChunkFrame& operator=(const ChunkFrame&) = delete;

private:
    char* m_end;
    char m_saved[2];
};

} // namespace

EventArrayReader::EventArrayReader(JsonCursor& cursor, EventDecoder& decoder, Options options)
    : m_cursor(cursor)
    , m_decoder(decoder)
    , m_options(std::move(options))
{ }

bool EventArrayReader::read(bool allowMissingEnd)
{
    enum class Expect
    {
        EventOrClose, // just after '['
        CommaOrClose,
        Event, // just after ','
    };
    Expect expect = Expect::EventOrClose;
    for (;;) {
        const int c = m_cursor.skipWhitespace();
        if (c == JsonCursor::kEnd) {
            if (allowMissingEnd)
                return false;
            m_cursor.fail("the file ends inside the traceEvents array: it is truncated");
        }
        if (expect == Expect::CommaOrClose) {
            if (c == ',') {
                m_cursor.advance();
                expect = Expect::Event;
                continue;
            }
            if (c != ']')
                m_cursor.fail("expected ',' or ']' after an event but found " + m_cursor.describeNext());
        }
        if (c == ']') {
            if (expect == Expect::Event)
                m_cursor.fail("expected an event after ',' but found ']'");
            m_cursor.advance();
            return true;
        }
        if (m_options.cancel && m_options.cancel->load(std::memory_order_relaxed))
            throw Cancelled();
        const ChunkEnd end = readChunk();
        if (m_options.chunkDone)
            m_options.chunkDone();
        if (end == ChunkEnd::ArrayClosed)
            return true;
        expect = Expect::CommaOrClose;
    }
}

size_t EventArrayReader::findCut(size_t before) const
{
    const InputWindow& window = m_cursor.window();
    const char* data = window.begin();
    const size_t size = window.size();
    while (before > 0) {
        const void* found = ::memrchr(data, '}', before);
        if (!found)
            return 0;
        const size_t close = static_cast<size_t>(static_cast<const char*>(found) - data);
        before = close;
        size_t next = close + 1;
        while (next < size && isWhitespace(data[next]))
            ++next;
        if (next == size) {
            if (window.exhausted())
                return close + 1;
            continue;
        }
        if (data[next] == ']')
            return close + 1;
        if (data[next] != ',')
            continue;
        ++next;
        while (next < size && isWhitespace(data[next]))
            ++next;
        if ((next == size && window.exhausted()) || (next < size && data[next] == '{'))
            return close + 1;
    }
    return 0;
}

EventArrayReader::ChunkEnd EventArrayReader::readChunk()
{
    InputWindow& window = m_cursor.window();
    if (window.size() < window.capacity() && !window.exhausted())
        window.refill();

    size_t cut = findCut(window.size());
    for (;;) {
        const bool wholeRest = cut == 0 && window.exhausted(); // no cut needed: this is all there is
        if (cut == 0 && !wholeRest) {
            if (!window.grow(m_options.maxEventBytes))
                m_cursor.fail("an event is larger than " + std::to_string(m_options.maxEventBytes >> 20)
                    + " MiB, or the event array is malformed");
            cut = findCut(window.size());
            continue;
        }
        if (wholeRest)
            cut = window.size();

        ChunkEnd end = ChunkEnd::AtCut;
        switch (tryChunk(cut, wholeRest, end)) {
        case Attempt::Done:
            return end;
        case Attempt::CutInsideString:
            cut = findCut(cut - 1);
            break;
        case Attempt::EventPastCut:
            if (window.exhausted())
                cut = 0; // try everything that is left
            else if (window.grow(m_options.maxEventBytes))
                cut = findCut(window.size());
            else
                m_cursor.fail("an event is larger than " + std::to_string(m_options.maxEventBytes >> 20) + " MiB");
            break;
        }
    }
}

EventArrayReader::Attempt EventArrayReader::tryChunk(size_t cut, bool wholeRest, ChunkEnd& end)
{
    InputWindow& window = m_cursor.window();
    char* base = window.begin();
    const ChunkFrame frame(base, cut);
    const simdjson::padded_string_view json(base - 1, cut + 2, window.bytesUntilAllocationEnd() + 1);
    ondemand::document document;
    error_code error = m_parser.iterate(json).get(document);
    if (error == simdjson::UNCLOSED_STRING && !wholeRest)
        return Attempt::CutInsideString;
    if (error == simdjson::UNCLOSED_STRING)
        m_cursor.failAt("the file ends inside a string: it is truncated", window.offset() + cut);
    if (error == simdjson::UTF8_ERROR)
        m_cursor.failAt(describeError(error), window.offset() + firstInvalidUtf8({ base, cut }));
    if (error)
        failParse(error, base);

    ondemand::array array;
    if ((error = document.get_array().get(array)))
        failParse(error, base);

    const char* lastEnd = base;
    uint64_t eventsInChunk = 0;
    for (auto result : array) {
        ondemand::value element;
        error = result.get(element);
        const char* start = lastEnd;
        if (!error) {
            const char* location = nullptr;
            if (!element.current_location().get(location))
                start = location;
            error = m_decoder.decode(element, base + cut, lastEnd);
        }
        if (!error) {
            ++eventsInChunk;
            continue;
        }
        const char* where = base + cut;
        const char* location = nullptr;
        if (!document.current_location().get(location))
            where = location;
        if (!mayComeFromCut(error) || where < base + cut - 1)
            failParse(error, error == simdjson::STRING_ERROR ? start : where);
        if (eventsInChunk == 0) {
            if (wholeRest)
                m_cursor.failAt("the file ends in the middle of an event: it is truncated", window.offset() + cut);
            return Attempt::EventPastCut;
        }
        // Everything before this event was good: the next chunk starts after the last good one.
        m_events += eventsInChunk;
        window.consume(static_cast<size_t>(lastEnd - base));
        end = ChunkEnd::AtCut;
        return Attempt::Done;
    }

    m_events += eventsInChunk;
    if (lastEnd == base + cut) {
        window.consume(cut);
        end = ChunkEnd::AtCut;
        return Attempt::Done;
    }
    // The event array's own ']' came before the cut.
    if (*lastEnd != ']')
        failParse(simdjson::TAPE_ERROR, lastEnd);
    window.consume(static_cast<size_t>(lastEnd - base) + 1);
    end = ChunkEnd::ArrayClosed;
    return Attempt::Done;
}

void EventArrayReader::failParse(error_code error, const char* where) const
{
    const InputWindow& window = m_cursor.window();
    const auto offset = window.offset() + static_cast<uint64_t>(std::max<std::ptrdiff_t>(0, where - window.begin()));
    m_cursor.failAt(describeError(error), offset);
}

} // namespace fusiondiff
