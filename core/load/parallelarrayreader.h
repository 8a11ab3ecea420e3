#pragma once

#include "load/chunkmerger.h"
#include "load/chunkparse.h"

#include <atomic>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <future>
#include <memory>
#include <string>
#include <vector>

namespace fusiondiff {

class JsonCursor;
class LoadThreadPool;

// Reads a trace's event array like EventArrayReader, but parses its chunks on the threads of a
// LoadThreadPool while this thread reads ahead, and merges them in file order (ChunkMerger), so that
// the store is the same as EventArrayReader's.
//
// This thread cuts the array where EventArrayReader would (findChunkCut) and hands each chunk over
// in the window's own allocation (InputWindow::detachFront), so the bytes are not copied. A cut is only known to be
// right once the chunk before it has been parsed: when a chunk does not end where it was cut (the cut fell inside a
// string or a nested object, the chunk's first event is larger than the window, or the event array's ']' came before
// the cut), the chunks after it are dropped unparsed or unmerged, their bytes are put back in the window, and reading
// goes on from where that chunk really ended, with EventArrayReader's chunk for the event that did not fit. Errors in a
// chunk are reported when it is merged, that is only once everything before it is known to be right, with their offsets
// in the data. Memory is bounded by `chunksInFlight` chunks and the pool's parsers.
class ParallelEventArrayReader
{
public:
    struct Options
    {
        size_t chunkBytes = size_t(8) << 20;
        size_t maxEventBytes = size_t(1) << 30;
        const std::atomic<bool>* cancel = nullptr;
        std::function<void()> chunkDone; // called after every chunk merged
        LoadThreadPool* pool = nullptr;
        size_t chunksInFlight = 2;
    };

    ParallelEventArrayReader(JsonCursor& cursor, ChunkMerger& merger, Options options);
    ~ParallelEventArrayReader(); // waits for the chunks still being parsed
    ParallelEventArrayReader(const ParallelEventArrayReader&) = delete;
    ParallelEventArrayReader& operator=(const ParallelEventArrayReader&) = delete;

    // As EventArrayReader::read.
    bool read(bool allowMissingEnd);

    uint64_t eventCount() const { return m_events; }

private:
    enum class Expect
    {
        EventOrClose, // just after '['
        CommaOrClose,
        Event, // just after ','
    };
    enum class Merged
    {
        Continue,
        Rewound, // the window was put back to where a chunk really ended
        ArrayClosed,
    };
    struct Job
    {
        std::string lead; // the bytes between the previous chunk and this one: ',' and whitespace
        uint64_t offset = 0; // of the chunk's first byte in the (decompressed) data
        Expect expectBefore = Expect::Event;
        std::unique_ptr<char[]> buffer; // the window's allocation that holds the chunk at `start`
        size_t allocation = 0; // its size
        char* start = nullptr; // a spare byte before, `bytesAfterStart` allocated from here on
        size_t bytesAfterStart = 0;
        size_t length = 0;
        std::atomic<bool> abandoned { false };
        bool skipped = false; // not parsed: cancelled
        std::unique_ptr<ChunkEvents> events; // a spare one, used again once merged
        ChunkOutcome outcome;
        std::exception_ptr exception;
        std::promise<void> finished;

        char* data() { return start; }
    };

    int skipWhitespaceKeeping();
    Merged dispatch();
    Merged readChunkHere();
    Merged mergeFront();
    Merged drain();
    void rewind(size_t consumed);
    void parse(Job& job) const;
    std::unique_ptr<char[]> spareBuffer(size_t allocation);
    std::unique_ptr<ChunkEvents> spareEvents();
    // Merges `events` and keeps them for a later chunk.
    void merge(std::unique_ptr<ChunkEvents> events);
    void finishChunk();

    JsonCursor& m_cursor;
    ChunkMerger& m_merger;
    Options m_options;
    Expect m_expect = Expect::EventOrClose;
    bool m_retryHere = false; // the chunk at the cursor did not fit: read it with EventArrayReader
    std::string m_lead; // consumed since the last chunk was cut, while chunks are in flight
    std::deque<std::unique_ptr<Job>> m_inFlight;
    std::deque<std::future<void>> m_done; // one per m_inFlight
    std::vector<std::pair<std::unique_ptr<char[]>, size_t>> m_spareBuffers; // and their sizes
    // Merged chunks' events, to decode later chunks into: only merged ones, whose names and
    // threads are all in the trace store (ChunkEvents).
    std::vector<std::unique_ptr<ChunkEvents>> m_spareEvents;
    uint64_t m_events = 0;
};

} // namespace fusiondiff
