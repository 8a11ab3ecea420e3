#include "load/eventarrayreader.h"

#include "load/chunkparse.h"
#include "load/eventdecoder.h"
#include "load/inputwindow.h"
#include "load/jsoncursor.h"
#include "util/inputerror.h"

namespace fusiondiff {

namespace {

[[noreturn]] void failWith(JsonCursor& cursor, const ChunkOutcome& outcome)
{
    cursor.failAt(outcome.error, cursor.window().offset() + outcome.errorAt);
}

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
    return findChunkCut(window.begin(), window.size(), before, window.exhausted());
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
    const ChunkOutcome outcome
        = parseChunk(m_parser, m_decoder, window.begin(), cut, wholeRest, window.bytesUntilAllocationEnd());
    switch (outcome.kind) {
    case ChunkOutcome::Kind::CutInsideString:
        return Attempt::CutInsideString;
    case ChunkOutcome::Kind::EventPastCut:
        return Attempt::EventPastCut;
    case ChunkOutcome::Kind::Failed:
        failWith(m_cursor, outcome);
    case ChunkOutcome::Kind::Done:
        break;
    }
    m_events += outcome.events;
    window.consume(outcome.consumed);
    end = outcome.arrayClosed ? ChunkEnd::ArrayClosed : ChunkEnd::AtCut;
    return Attempt::Done;
}

} // namespace fusiondiff
