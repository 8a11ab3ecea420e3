#include "traceloader.h"

#include "bytereader.h"
#include "eventarrayreader.h"
#include "eventdecoder.h"
#include "inputerror.h"
#include "inputwindow.h"
#include "jsoncursor.h"
#include "traceheader.h"

#include <unordered_map>

namespace fusiondiff {

namespace {

constexpr size_t kMaxHeaderValueBytes = size_t(16) << 20;

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
    TraceParser(ByteReader& reader, TraceStore& store, const LoadOptions& options)
        : m_reader(reader)
        , m_store(store)
        , m_options(options)
        , m_window(reader, options.chunkBytes)
        , m_cursor(m_window, reader.path(), reader.isCompressed())
        , m_decoder(store)
    {
    }

    TraceHeader parse()
    {
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
            throw InputError(m_reader.path(),
                "no \"traceEvents\" array: this JSON file is not a PyTorch profiler (Kineto) trace");
    }

    [[noreturn]] void failInObject(const std::string& expected)
    {
        if (m_cursor.peek() == JsonCursor::kEnd)
            m_cursor.fail("the file ends before the top-level JSON object is closed: it is truncated");
        m_cursor.fail(expected + " in the top-level object but found " + m_cursor.describeNext());
    }

    bool readEvents(bool allowMissingEnd)
    {
        EventArrayReader::Options readerOptions;
        readerOptions.chunkBytes = m_options.chunkBytes;
        readerOptions.cancel = m_options.cancel;
        if (m_options.progress)
            readerOptions.chunkDone = [this] { m_options.progress(m_reader.fileBytesRead(), m_reader.fileSize()); };
        EventArrayReader reader(m_cursor, m_decoder, readerOptions);
        const bool closed = reader.read(allowMissingEnd);
        m_store.statistics.events += reader.eventCount();
        return closed;
    }

    ByteReader& m_reader;
    TraceStore& m_store;
    const LoadOptions& m_options;
    InputWindow m_window;
    JsonCursor m_cursor;
    EventDecoder m_decoder;
    TraceHeader m_header;
};

} // namespace

TraceStore loadTrace(const std::string& path, const LoadOptions& options)
{
    const std::unique_ptr<ByteReader> reader = openTraceFile(path);
    TraceStore store;
    store.path = path;
    store.fileName = fileNameOf(path);
    store.stem = traceStem(store.fileName);
    store.statistics.fileBytes = reader->fileSize();
    store.statistics.gzip = reader->isCompressed();

    TraceParser parser(*reader, store, options);
    const PlatformInfo platform = detectPlatform(parser.parse());
    store.platform = platform.platform;
    store.gpuName = platform.gpuName;
    store.label = store.stem + " (" + (store.gpuName.empty() ? platformName(store.platform) : store.gpuName) + ")";
    markGraphLaunches(store);
    if (options.progress)
        options.progress(reader->fileSize(), reader->fileSize());
    return store;
}

} // namespace fusiondiff
