#include "load/traceloader.h"

#include "load/bytereader.h"
#include "load/chunkmerger.h"
#include "load/eventarrayreader.h"
#include "load/eventdecoder.h"
#include "load/inputwindow.h"
#include "load/jsoncursor.h"
#include "load/loadthreadpool.h"
#include "load/parallelarrayreader.h"
#include "load/pythonframes.h"
#include "load/traceheader.h"
#include "util/inputerror.h"

#include <cstdio>
#include <deque>
#include <fstream>
#include <new>
#include <optional>
#include <unordered_map>

namespace fusiondiff {

namespace {

constexpr size_t kMaxHeaderValueBytes = size_t(16) << 20;
// The budget is checked once this share of the file has been read: before, the projection from
// what was read is too rough.
constexpr double kMemoryCheckFrom = 0.02;
// The parser and the window take about this many bytes per byte of chunk.
constexpr uint64_t kParserBytesPerChunkByte = 8;

std::string gibibytes(uint64_t bytes)
{
    const double value = static_cast<double>(bytes) / double(uint64_t(1) << 30);
    char text[32];
    std::snprintf(text, sizeof text, value < 10 ? "%.1f GiB" : "%.0f GiB", value);
    return text;
}

std::string fileNameOf(const std::string& path)
{
    const auto slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

void markGraphLaunches(TraceStore& store)
{
    std::unordered_map<StringId, bool> isGraphLaunch;
    for (RuntimeEvent& call : store.runtimeCalls) {
        auto [it, inserted] = isGraphLaunch.try_emplace(call.name, false);
        if (inserted)
            it->second = store.name(call.name).find("GraphLaunch") != std::string_view::npos;
        call.graphLaunch = it->second;
    }
}

class TraceParser
{
public:
    TraceParser(ByteReader& reader, TraceStore& store, const LoadOptions& options, LoadThreadPool* pool)
        : m_reader(reader)
        , m_store(store)
        , m_options(options)
        , m_pool(pool)
        , m_window(reader, options.chunkBytes)
        , m_cursor(m_window, reader.path(), reader.isCompressed())
        , m_decoder(store)
        , m_merger(store)
    { }

    std::deque<PythonFrameEvent> takePythonFrames()
    {
        return m_pool ? m_merger.takePythonFrames() : m_decoder.takePythonFrames();
    }

    TraceHeader parse()
    {
        m_cursor.skipByteOrderMark(); // JSON text has none (RFC 8259), but parsers may ignore one
        const int first = m_cursor.skipWhitespace();
        if (first == JsonCursor::kEnd)
            m_cursor.fail("the file holds no JSON, only whitespace");
        if (first == '[') {
            m_store.statistics.arrayFormat = true;
            m_cursor.advance();
            m_store.statistics.missingClosingBracket = !readEvents(true);
        } else if (first == '{') {
            m_cursor.advance();
            parseTopLevelObject();
        } else {
            m_cursor.fail("not a JSON trace: expected '{' or '[' at the start but found " + m_cursor.describeNext());
        }
        if (m_cursor.skipWhitespace() != JsonCursor::kEnd)
            m_cursor.fail("unexpected " + m_cursor.describeNext() + " after the end of the JSON document");
        m_store.statistics.dataBytes = m_cursor.offset();
        return m_header;
    }

private:
    void parseTopLevelObject()
    {
        bool sawEvents = false;
        for (bool first = true;; first = false) {
            int c = m_cursor.skipWhitespace();
            if (c == '}' && first) {
                m_cursor.advance();
                break;
            }
            if (c != '"')
                failInObject("expected a key");
            const uint64_t keyOffset = m_cursor.offset();
            const std::string key = m_cursor.readString();
            if (m_cursor.skipWhitespace() != ':')
                failInObject("expected ':' after the key \"" + key + "\"");
            m_cursor.advance();
            c = m_cursor.skipWhitespace();
            if (key == "traceEvents") {
                if (sawEvents)
                    m_cursor.failAt("\"traceEvents\" appears twice", keyOffset);
                if (c != '[')
                    m_cursor.fail("\"traceEvents\" is not an array (found " + m_cursor.describeNext() + ")");
                m_cursor.advance();
                readEvents(false);
                sawEvents = true;
            } else if (key == "deviceProperties") {
                m_header.deviceProperties = m_cursor.captureValue(kMaxHeaderValueBytes);
            } else if (key == "roctracer_version") {
                m_header.roctracerVersion = m_cursor.captureValue(kMaxHeaderValueBytes);
            } else if (key == "distributedInfo") {
                m_header.distributedInfo = m_cursor.captureValue(kMaxHeaderValueBytes);
            } else {
                m_cursor.skipValue();
            }
            c = m_cursor.skipWhitespace();
            if (c == ',') {
                m_cursor.advance();
                continue;
            }
            if (c == '}') {
                m_cursor.advance();
                break;
            }
            failInObject("expected ',' or '}'");
        }
        if (!sawEvents)
            throw InputError(
                m_reader.path(), "no \"traceEvents\" array: this JSON file is not a PyTorch profiler (Kineto) trace");
    }

    [[noreturn]] void failInObject(const std::string& expected)
    {
        if (m_cursor.peek() == JsonCursor::kEnd)
            m_cursor.fail("the file ends before the top-level JSON object is closed: it is truncated");
        m_cursor.fail(expected + " in the top-level object but found " + m_cursor.describeNext());
    }

    bool readEvents(bool allowMissingEnd)
    {
        const auto chunkDone = [this] {
            checkMemory();
            if (m_options.progress)
                m_options.progress(m_reader.fileBytesRead(), m_reader.fileSize());
        };
        if (m_pool) {
            ParallelEventArrayReader::Options readerOptions;
            readerOptions.chunkBytes = m_options.chunkBytes;
            readerOptions.cancel = m_options.cancel;
            readerOptions.chunkDone = chunkDone;
            readerOptions.pool = m_pool;
            readerOptions.chunksInFlight = chunksInFlight();
            ParallelEventArrayReader reader(m_cursor, m_merger, readerOptions);
            const bool closed = reader.read(allowMissingEnd);
            m_store.statistics.events += reader.eventCount();
            return closed;
        }
        EventArrayReader::Options readerOptions;
        readerOptions.chunkBytes = m_options.chunkBytes;
        readerOptions.cancel = m_options.cancel;
        readerOptions.chunkDone = chunkDone;
        EventArrayReader reader(m_cursor, m_decoder, readerOptions);
        const bool closed = reader.read(allowMissingEnd);
        m_store.statistics.events += reader.eventCount();
        return closed;
    }

    // Chunks cut ahead and not merged yet: one per parsing thread, and one more that waits, ready,
    // while this thread merges and reads (with one per thread a parser sat idle then: on the 2 GB
    // trace the pool's two threads were busy 1.6 cores of 2, 1.8 with one more).
    size_t chunksInFlight() const { return m_pool ? m_pool->threads() + 1 : 0; }

    // Fails early, with a clear message, if the whole trace will not fit in the memory budget.
    void checkMemory()
    {
        if (m_memoryBudget == 0 || m_reader.fileSize() == 0)
            return;
        const double done = static_cast<double>(m_reader.fileBytesRead()) / static_cast<double>(m_reader.fileSize());
        if (done < kMemoryCheckFrom)
            return;
        // The window and a parser, or the chunks in flight, the pool's parsers and this thread's.
        const size_t parsers = m_pool ? m_pool->threads() + 1 : 1;
        const uint64_t fixed = m_options.chunkBytes * (kParserBytesPerChunkByte * parsers + chunksInFlight());
        const auto projected = static_cast<uint64_t>(static_cast<double>(m_store.memoryUsage()) / done) + fixed;
        if (projected > m_memoryBudget)
            throw InputError(m_reader.path(),
                "the trace needs about " + gibibytes(projected) + " of memory to load, more than the "
                    + gibibytes(m_memoryBudget) + " available: close other programs or use a machine with more memory");
    }

    uint64_t budgetFromOptions() const
    {
        if (m_options.memoryBudget > 0)
            return m_options.memoryBudget;
        return static_cast<uint64_t>(static_cast<double>(availableMemory()) * m_options.memoryShare);
    }

    ByteReader& m_reader;
    TraceStore& m_store;
    const LoadOptions& m_options;
    LoadThreadPool* m_pool; // null: parse on this thread
    uint64_t m_memoryBudget = budgetFromOptions();
    InputWindow m_window;
    JsonCursor m_cursor;
    EventDecoder m_decoder; // on this thread
    ChunkMerger m_merger; // on the pool's threads
    TraceHeader m_header;
};

TraceStore loadFrom(ByteReader& reader, const LoadOptions& options)
{
    TraceStore store;
    store.path = reader.path();
    store.fileName = fileNameOf(reader.path());
    store.stem = traceStem(store.fileName);
    store.statistics.fileBytes = reader.fileSize();
    store.statistics.gzip = reader.isCompressed();

    std::deque<PythonFrameEvent> pythonFrames;
    std::unique_ptr<LoadThreadPool> ownPool;
    LoadThreadPool* pool = options.pool;
    if (!pool && loadThreadsFor(options.threads) > 1) {
        ownPool = std::make_unique<LoadThreadPool>(loadThreadsFor(options.threads));
        pool = ownPool.get();
    }
    // This thread reads the trace, and parses it too while readers hold all of the pool's places.
    std::optional<LoadThreadPool::ReaderSlot> slot;
    if (pool)
        slot.emplace(*pool);
    try {
        TraceParser parser(reader, store, options, pool);
        const TraceHeader header = parser.parse();
        const PlatformInfo platform = detectPlatform(header);
        store.distributed = readDistributedInfo(header);
        store.platform = platform.platform;
        store.gpuName = platform.gpuName;
        store.gpu = platform.gpu;
        pythonFrames = parser.takePythonFrames();
    } catch (const std::bad_alloc&) {
        throw InputError(reader.path(), "out of memory while loading: the trace does not fit in this machine's memory");
    }
    if (store.statistics.events > 0 && store.statistics.nonObjectEvents == store.statistics.events)
        throw InputError(reader.path(),
            "the event array holds no event objects (" + std::to_string(store.statistics.events)
                + " other values): this is not a profiler trace");
    store.label = store.stem + " (" + (store.gpuName.empty() ? platformName(store.platform) : store.gpuName) + ")";
    markGraphLaunches(store);
    storePythonFramesThatHoldSomething(store, pythonFrames);
    if (options.progress)
        options.progress(reader.fileSize(), reader.fileSize());
    return store;
}

} // namespace

TraceStore loadTrace(const std::string& path, const LoadOptions& options)
{
    // With a pool, this thread reads and merges, and parses while readers hold all of the pool's
    // places: it decompresses gzip itself.
    const bool parsedHere = !options.pool && loadThreadsFor(options.threads) <= 1;
    const std::unique_ptr<ByteReader> reader = openTraceFile(path, parsedHere);
    return loadFrom(*reader, options);
}

TraceStore loadTraceFromMemory(std::string_view bytes, const std::string& name, const LoadOptions& options)
{
    const std::unique_ptr<ByteReader> reader = openTraceBuffer(name, bytes);
    return loadFrom(*reader, options);
}

uint64_t availableMemory()
{
    std::ifstream meminfo("/proc/meminfo");
    std::string key;
    uint64_t kibibytes = 0;
    std::string unit;
    while (meminfo >> key >> kibibytes >> unit) {
        if (key == "MemAvailable:")
            return kibibytes * 1024;
    }
    return 0;
}

} // namespace fusiondiff
