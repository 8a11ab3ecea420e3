#include "load/chunkparse.h"

#include "load/eventdecoder.h"
#include "load/jsoncursor.h"
#include "load/jsonstring.h"

#include <algorithm>
#include <cstring>
#include <string_view>

namespace fusiondiff {

namespace ondemand = simdjson::ondemand;
using simdjson::error_code;

namespace {

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

// The first raw control character inside a string, which simdjson's first stage reports without
// a place; `text.size()` if there is none.
size_t firstUnescapedControl(std::string_view text)
{
    bool inString = false;
    for (size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (inString && c < 0x20)
            return i;
        if (c == '"')
            inString = !inString;
        else if (c == '\\' && inString)
            ++i;
    }
    return text.size();
}

ChunkOutcome failure(std::string error, size_t at)
{
    ChunkOutcome outcome;
    outcome.kind = ChunkOutcome::Kind::Failed;
    outcome.error = std::move(error);
    outcome.errorAt = at;
    return outcome;
}

ChunkOutcome parseFailure(error_code error, const char* base, const char* where)
{
    return failure(describeError(error), static_cast<size_t>(std::max<std::ptrdiff_t>(0, where - base)));
}

ChunkOutcome done(size_t consumed, bool arrayClosed, uint64_t events)
{
    ChunkOutcome outcome;
    outcome.consumed = consumed;
    outcome.arrayClosed = arrayClosed;
    outcome.events = events;
    return outcome;
}

} // namespace

ChunkFrame::ChunkFrame(char* begin, size_t length)
    : m_end(begin + length)
    , m_saved { m_end[0], m_end[1] }
{
    begin[-1] = '[';
    m_end[0] = ']';
    m_end[1] = ' ';
}

ChunkFrame::~ChunkFrame()
{
    m_end[0] = m_saved[0];
    m_end[1] = m_saved[1];
}

size_t findChunkCut(const char* data, size_t size, size_t before, bool exhausted)
{
    while (before > 0) {
        const void* found = ::memrchr(data, '}', before);
        if (!found)
            return 0;
        const size_t close = static_cast<size_t>(static_cast<const char*>(found) - data);
        before = close;
        size_t next = close + 1;
        while (next < size && isJsonWhitespace(data[next]))
            ++next;
        if (next == size) {
            if (exhausted)
                return close + 1;
            continue;
        }
        if (data[next] == ']')
            return close + 1;
        if (data[next] != ',')
            continue;
        ++next;
        while (next < size && isJsonWhitespace(data[next]))
            ++next;
        if ((next == size && exhausted) || (next < size && data[next] == '{'))
            return close + 1;
    }
    return 0;
}

ChunkOutcome parseChunk(
    ondemand::parser& parser, EventDecoder& decoder, char* base, size_t cut, bool wholeRest, size_t bytesAfterBase)
{
    const ChunkFrame frame(base, cut);
    const simdjson::padded_string_view json(base - 1, cut + 2, bytesAfterBase + 1);
    ondemand::document document;
    error_code error = parser.iterate(json).get(document);
    if (error == simdjson::UNCLOSED_STRING && !wholeRest) {
        ChunkOutcome outcome;
        outcome.kind = ChunkOutcome::Kind::CutInsideString;
        return outcome;
    }
    if (error == simdjson::UNCLOSED_STRING)
        return failure("the file ends inside a string: it is truncated", cut);
    if (error == simdjson::UTF8_ERROR)
        return failure(describeError(error), firstInvalidUtf8({ base, cut }));
    if (error == simdjson::UNESCAPED_CHARS) {
        const size_t at = firstUnescapedControl({ base, cut });
        if (at < cut)
            return failure(describeError(error), at);
    }
    if (error)
        return parseFailure(error, base, base);

    ondemand::array array;
    if ((error = document.get_array().get(array)))
        return parseFailure(error, base, base);

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
            error = decoder.decode(element, base + cut, lastEnd);
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
            return parseFailure(error, base, error == simdjson::STRING_ERROR ? start : where);
        if (eventsInChunk == 0) {
            if (wholeRest)
                return failure("the file ends in the middle of an event: it is truncated", cut);
            ChunkOutcome outcome;
            outcome.kind = ChunkOutcome::Kind::EventPastCut;
            return outcome;
        }
        // Everything before this event was good: the next chunk starts after the last good one.
        return done(static_cast<size_t>(lastEnd - base), false, eventsInChunk);
    }

    if (lastEnd == base + cut)
        return done(cut, false, eventsInChunk);
    // The event array's own ']' came before the cut.
    if (*lastEnd != ']')
        return parseFailure(simdjson::TAPE_ERROR, base, lastEnd);
    return done(static_cast<size_t>(lastEnd - base) + 1, true, eventsInChunk);
}

} // namespace fusiondiff
