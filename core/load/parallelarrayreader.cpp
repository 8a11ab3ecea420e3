#include "load/parallelarrayreader.h"

#include "load/eventarrayreader.h"
#include "load/eventdecoder.h"
#include "load/inputwindow.h"
#include "load/jsoncursor.h"
#include "load/loadthreadpool.h"
#include "util/inputerror.h"

#include <cstring>

namespace fusiondiff {

ParallelEventArrayReader::ParallelEventArrayReader(JsonCursor& cursor, ChunkMerger& merger, Options options)
    : m_cursor(cursor)
    , m_merger(merger)
    , m_options(std::move(options))
{ }

ParallelEventArrayReader::~ParallelEventArrayReader()
{
    for (const std::unique_ptr<Job>& job : m_inFlight)
        job->abandoned = true;
    for (std::future<void>& done : m_done)
        done.wait();
}

int ParallelEventArrayReader::skipWhitespaceKeeping()
{
    for (;;) {
        const int c = m_cursor.peek();
        if (!isJsonWhitespace(c))
            return c;
        if (!m_inFlight.empty()) // only a rewind to a chunk in flight puts these bytes back
            m_lead.push_back(static_cast<char>(c));
        m_cursor.advance();
    }
}

bool ParallelEventArrayReader::read(bool allowMissingEnd)
{
    for (;;) {
        const int c = skipWhitespaceKeeping();
        const bool atEvent = c != JsonCursor::kEnd && c != ']' && (m_expect != Expect::CommaOrClose || c == ',');
        if (!atEvent) {
            // Only the chunks before this point can tell whether it really is the end.
            const Merged merged = drain();
            if (merged == Merged::ArrayClosed)
                return true;
            if (merged == Merged::Rewound)
                continue;
            if (c == JsonCursor::kEnd) {
                if (allowMissingEnd)
                    return false;
                m_cursor.fail("the file ends inside the traceEvents array: it is truncated");
            }
            if (m_expect == Expect::CommaOrClose && c != ']')
                m_cursor.fail("expected ',' or ']' after an event but found " + m_cursor.describeNext());
            if (m_expect == Expect::Event)
                m_cursor.fail("expected an event after ',' but found ']'");
            m_cursor.advance();
            return true;
        }
        if (m_expect == Expect::CommaOrClose) {
            if (!m_inFlight.empty())
                m_lead.push_back(',');
            m_cursor.advance();
            m_expect = Expect::Event;
            continue;
        }
        if (m_options.cancel && m_options.cancel->load(std::memory_order_relaxed))
            throw Cancelled();
        const Merged merged = m_retryHere ? readChunkHere() : dispatch();
        if (merged == Merged::ArrayClosed)
            return true;
    }
}

ParallelEventArrayReader::Merged ParallelEventArrayReader::dispatch()
{
    InputWindow& window = m_cursor.window();
    if (window.size() < window.capacity() && !window.exhausted())
        window.refill();
    const size_t cut = findChunkCut(window.begin(), window.size(), window.size(), window.exhausted());
    if (cut == 0) {
        // No cut in the window: the event is larger than it, or it is the end of the data.
        const Merged merged = drain();
        return merged == Merged::Continue ? readChunkHere() : merged;
    }

    auto job = std::make_unique<Job>();
    job->offset = window.offset();
    job->expectBefore = m_expect;
    job->lead = std::move(m_lead);
    m_lead.clear();
    job->length = cut;
    job->allocation = window.allocationSize();
    job->buffer = window.detachFront(cut, spareBuffer(job->allocation), job->start, job->bytesAfterStart);
    job->events = spareEvents();
    m_expect = Expect::CommaOrClose;

    Job* parsed = job.get();
    m_done.push_back(parsed->finished.get_future());
    m_inFlight.push_back(std::move(job));
    bool submitted = false;
    try {
        std::function<void()> parseJob = [this, parsed] { parse(*parsed); };
        submitted = m_options.pool->trySubmit(parseJob);
    } catch (...) {
        // Never submitted: nobody will finish it, so the destructor must not wait for it.
        m_inFlight.pop_back();
        m_done.pop_back();
        throw;
    }
    // Readers hold every place of the pool: this thread parses it, while its bytes are in cache.
    if (!submitted)
        parse(*parsed);

    // Merge what is parsed; wait for the oldest chunk once enough are in flight.
    while (!m_inFlight.empty()) {
        const bool ready = m_done.front().wait_for(std::chrono::seconds(0)) == std::future_status::ready;
        if (!ready && m_inFlight.size() < m_options.chunksInFlight)
            break;
        const Merged merged = mergeFront();
        if (merged != Merged::Continue)
            return merged;
    }
    return Merged::Continue;
}

void ParallelEventArrayReader::parse(Job& job) const
{
    if (job.abandoned || (m_options.cancel && m_options.cancel->load(std::memory_order_relaxed))) {
        job.skipped = true;
        job.finished.set_value();
        return;
    }
    try {
        thread_local simdjson::ondemand::parser parser; // one per parsing thread: the pool's, and readers'
        size_t cut = job.length;
        for (;;) {
            job.outcome = parseChunk(parser, job.events->decoder, job.data(), cut, false, job.bytesAfterStart);
            if (job.outcome.kind != ChunkOutcome::Kind::CutInsideString)
                break;
            cut = findChunkCut(job.data(), job.length, cut - 1, false);
            if (cut == 0) {
                job.outcome.kind = ChunkOutcome::Kind::EventPastCut; // no cut before: this thread cannot grow it
                break;
            }
        }
    } catch (...) {
        job.exception = std::current_exception();
    }
    job.finished.set_value();
}

ParallelEventArrayReader::Merged ParallelEventArrayReader::mergeFront()
{
    m_done.front().wait();
    Job& job = *m_inFlight.front();
    if (job.exception)
        std::rethrow_exception(job.exception);
    if (job.skipped)
        throw Cancelled();
    const ChunkOutcome& outcome = job.outcome;
    if (outcome.kind == ChunkOutcome::Kind::Failed)
        m_cursor.failAt(outcome.error, job.offset + outcome.errorAt);
    if (outcome.kind == ChunkOutcome::Kind::EventPastCut) {
        m_expect = job.expectBefore;
        m_retryHere = true;
        rewind(0);
        return Merged::Rewound;
    }
    merge(std::move(job.events));
    m_events += outcome.events;
    finishChunk();
    if (outcome.arrayClosed) {
        rewind(outcome.consumed);
        return Merged::ArrayClosed;
    }
    if (outcome.consumed < job.length) {
        m_expect = Expect::CommaOrClose;
        rewind(outcome.consumed);
        return Merged::Rewound;
    }
    m_spareBuffers.emplace_back(std::move(job.buffer), job.allocation);
    m_inFlight.pop_front();
    m_done.pop_front();
    return Merged::Continue;
}

ParallelEventArrayReader::Merged ParallelEventArrayReader::drain()
{
    while (!m_inFlight.empty()) {
        const Merged merged = mergeFront();
        if (merged != Merged::Continue)
            return merged;
    }
    return Merged::Continue;
}

void ParallelEventArrayReader::rewind(size_t consumed)
{
    for (size_t i = 1; i < m_inFlight.size(); ++i)
        m_inFlight[i]->abandoned = true;
    for (std::future<void>& done : m_done)
        done.wait();
    Job& first = *m_inFlight.front();
    std::string back(first.data() + consumed, first.length - consumed);
    for (size_t i = 1; i < m_inFlight.size(); ++i) {
        Job& job = *m_inFlight[i];
        back += job.lead;
        back.append(job.data(), job.length);
    }
    back += m_lead;
    m_lead.clear();
    m_inFlight.clear();
    m_done.clear();
    m_cursor.window().unread(back);
}

ParallelEventArrayReader::Merged ParallelEventArrayReader::readChunkHere()
{
    m_retryHere = false;
    std::unique_ptr<ChunkEvents> events = spareEvents();
    EventArrayReader::Options options;
    options.chunkBytes = m_options.chunkBytes;
    options.maxEventBytes = m_options.maxEventBytes;
    options.cancel = m_options.cancel;
    EventArrayReader reader(m_cursor, events->decoder, options);
    const EventArrayReader::ChunkEnd end = reader.readChunk();
    merge(std::move(events));
    m_events += reader.eventCount();
    m_lead.clear();
    finishChunk();
    m_expect = Expect::CommaOrClose;
    return end == EventArrayReader::ChunkEnd::ArrayClosed ? Merged::ArrayClosed : Merged::Continue;
}

std::unique_ptr<char[]> ParallelEventArrayReader::spareBuffer(size_t allocation)
{
    for (auto& [buffer, size] : m_spareBuffers) {
        if (size == allocation) {
            std::unique_ptr<char[]> spare = std::move(buffer);
            std::swap(buffer, m_spareBuffers.back().first);
            std::swap(size, m_spareBuffers.back().second);
            m_spareBuffers.pop_back();
            return spare;
        }
    }
    m_spareBuffers.clear(); // of a window that has grown since
    return nullptr;
}

std::unique_ptr<ChunkEvents> ParallelEventArrayReader::spareEvents()
{
    if (m_spareEvents.empty())
        return std::make_unique<ChunkEvents>();
    std::unique_ptr<ChunkEvents> spare = std::move(m_spareEvents.back());
    m_spareEvents.pop_back();
    return spare;
}

void ParallelEventArrayReader::merge(std::unique_ptr<ChunkEvents> events)
{
    m_merger.append(*events);
    if (!events->worthReusing())
        return;
    events->clearRows();
    m_spareEvents.push_back(std::move(events));
}

void ParallelEventArrayReader::finishChunk()
{
    if (m_options.chunkDone)
        m_options.chunkDone();
}

} // namespace fusiondiff
