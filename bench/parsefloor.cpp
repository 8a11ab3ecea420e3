// parsefloor: the parse floor of a trace comparison.
//
//   parsefloor FILE...
//
// For each FILE in turn, on one thread: reads the whole file into one buffer (plain: read(2);
// gzip: zlib inflate, streamed from the file into the buffer in the same thread), then makes one
// simdjson On-Demand pass over it as a single document and reads `cat`, `name`, `ts`, `dur` and
// `args.correlation` of every element of the event array ("traceEvents", or a bare top-level
// array), and nothing else: other fields and other top-level keys are skipped by On-Demand.
// `cat` and `name` are taken as raw JSON strings (no unescaping, no copy); the first byte of each
// is folded into a checksum and the names are counted; ts and dur are summed as doubles and
// correlation as an integer, so the compiler cannot drop any of the work. The buffer is freed
// before the next file, so memory is one file (plus simdjson's index of it) at a time.
//
// Limits (by design, the simplest honest floor): a file is one simdjson document, so its
// decompressed size must stay below simdjson's 4 GiB limit; fields of an unexpected type are
// counted as mismatches and skipped.
//
// Prints one line per file (read and parse seconds, events, checksums) and a total line.
// The benchmark script times the whole process from outside; the inner times are informative.
// GCC 12 reports a false "potential null pointer dereference" inside simdjson's inlined
// On-Demand iterators for this file's loop shape (-O3); the pointers come from the parser.
#pragma GCC diagnostic ignored "-Wnull-dereference"

#include <simdjson.h>
#include <zlib.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

namespace ondemand = simdjson::ondemand;
using simdjson::error_code;

namespace {

#define PARSEFLOOR_STRING(x) #x
#define PARSEFLOOR_EXPAND(x) PARSEFLOOR_STRING(x)
constexpr const char* kSimdjsonVersion = PARSEFLOOR_EXPAND(SIMDJSON_VERSION);

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start)
{
    return std::chrono::duration<double>(Clock::now() - start).count();
}

[[noreturn]] void die(const std::string& message)
{
    std::fprintf(stderr, "parsefloor: error: %s\n", message.c_str());
    std::exit(2);
}

struct Buffer
{
    char* data = nullptr;
    size_t size = 0;
    size_t capacity = 0; // bytes usable for data; SIMDJSON_PADDING more are allocated

    void reserve(size_t bytes)
    {
        if (bytes <= capacity)
            return;
        char* bigger = static_cast<char*>(std::realloc(data, bytes + simdjson::SIMDJSON_PADDING));
        if (!bigger)
            die("out of memory");
        data = bigger;
        capacity = bytes;
    }
    ~Buffer() { std::free(data); }
};

void readPlain(int fd, size_t fileSize, Buffer& buffer)
{
    buffer.reserve(fileSize);
    while (buffer.size < fileSize) {
        const ssize_t got
            = ::read(fd, buffer.data + buffer.size, std::min<size_t>(fileSize - buffer.size, size_t(1) << 30));
        if (got < 0)
            die(std::string("read: ") + std::strerror(errno));
        if (got == 0)
            break;
        buffer.size += static_cast<size_t>(got);
    }
}

// Streams the compressed file through zlib into the buffer (concatenated members included).
void readGzip(int fd, size_t fileSize, Buffer& buffer)
{
    // The gzip trailer holds the size modulo 2^32: a good first guess for the buffer.
    unsigned char trailer[4] = {};
    if (fileSize >= 4 && ::pread(fd, trailer, 4, static_cast<off_t>(fileSize - 4)) == 4) {
        const size_t hint = trailer[0] | (trailer[1] << 8) | (trailer[2] << 16) | (size_t(trailer[3]) << 24);
        buffer.reserve(std::max(hint, fileSize) + 1);
    } else {
        buffer.reserve(fileSize * 8 + 1);
    }
    z_stream stream {};
    if (inflateInit2(&stream, 16 + MAX_WBITS) != Z_OK)
        die("inflateInit2 failed");
    constexpr size_t kBlock = size_t(1) << 18; // the same compressed block size as the core's reader
    static unsigned char input[kBlock];
    bool ended = false;
    for (;;) {
        if (stream.avail_in == 0) {
            const ssize_t got = ::read(fd, input, kBlock);
            if (got < 0)
                die(std::string("read: ") + std::strerror(errno));
            if (got == 0)
                break;
            stream.next_in = input;
            stream.avail_in = static_cast<uInt>(got);
        }
        if (ended) { // another gzip member follows
            inflateReset(&stream);
            ended = false;
        }
        if (buffer.size == buffer.capacity)
            buffer.reserve(buffer.capacity * 2);
        stream.next_out = reinterpret_cast<Bytef*>(buffer.data + buffer.size);
        stream.avail_out = static_cast<uInt>(std::min<size_t>(buffer.capacity - buffer.size, 1u << 30));
        const uInt before = stream.avail_out;
        const int status = inflate(&stream, Z_NO_FLUSH);
        buffer.size += before - stream.avail_out;
        if (status == Z_STREAM_END)
            ended = true;
        else if (status != Z_OK && status != Z_BUF_ERROR)
            die(std::string("corrupt gzip data: ") + (stream.msg ? stream.msg : "?"));
    }
    inflateEnd(&stream);
}

template<size_t N>
bool keyIs(const char* raw, const char (&literal)[N])
{
    return std::memcmp(raw, literal, N - 1) == 0 && raw[N - 1] == '"';
}

struct Totals
{
    uint64_t events = 0;
    uint64_t names = 0;
    uint64_t categories = 0;
    uint64_t correlations = 0;
    uint64_t mismatches = 0; // fields of an unexpected type
    uint64_t checksum = 0; // first bytes of cat and name
    int64_t correlationSum = 0;
    double tsSum = 0;
    double durSum = 0;
};

void fail(error_code error, const std::string& path)
{
    if (error)
        die(path + ": " + simdjson::error_message(error));
}

void readEvent(ondemand::object event, Totals& totals, const std::string& path)
{
    for (auto field : event) {
        ondemand::raw_json_string key;
        fail(field.key().get(key), path);
        const char* k = key.raw();
        ondemand::value value;
        fail(field.value().get(value), path);
        switch (k[0]) {
        case 'c':
            if (keyIs(k, "cat")) {
                ondemand::raw_json_string category;
                if (value.get_raw_json_string().get(category)) {
                    ++totals.mismatches;
                } else {
                    ++totals.categories;
                    totals.checksum += static_cast<unsigned char>(category.raw()[0]);
                }
            }
            break;
        case 'n':
            if (keyIs(k, "name")) {
                ondemand::raw_json_string name;
                if (value.get_raw_json_string().get(name)) {
                    ++totals.mismatches;
                } else {
                    ++totals.names;
                    totals.checksum += static_cast<unsigned char>(name.raw()[0]);
                }
            }
            break;
        case 't':
            if (keyIs(k, "ts")) {
                double ts = 0;
                if (value.get_double().get(ts))
                    ++totals.mismatches;
                totals.tsSum += ts;
            }
            break;
        case 'd':
            if (keyIs(k, "dur")) {
                double dur = 0;
                if (value.get_double().get(dur))
                    ++totals.mismatches;
                totals.durSum += dur;
            }
            break;
        case 'a':
            if (keyIs(k, "args")) {
                ondemand::object args;
                if (value.get_object().get(args)) {
                    ++totals.mismatches;
                    break;
                }
                for (auto argument : args) {
                    ondemand::raw_json_string argumentKey;
                    fail(argument.key().get(argumentKey), path);
                    if (!keyIs(argumentKey.raw(), "correlation"))
                        continue;
                    int64_t correlation = 0;
                    ondemand::value argumentValue;
                    fail(argument.value().get(argumentValue), path);
                    if (argumentValue.get_int64().get(correlation)) {
                        ++totals.mismatches;
                    } else {
                        ++totals.correlations;
                        totals.correlationSum += correlation;
                    }
                }
            }
            break;
        default:
            break;
        }
    }
}

void readEvents(ondemand::array events, Totals& totals, const std::string& path)
{
    for (auto element : events) {
        ondemand::object event;
        const error_code error = element.get_object().get(event);
        if (error == simdjson::INCORRECT_TYPE) {
            ++totals.mismatches;
            continue;
        }
        fail(error, path);
        readEvent(event, totals, path);
        ++totals.events;
    }
}

} // namespace

int main(int argc, char** argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: parsefloor FILE...\n");
        return 2;
    }
    const auto started = Clock::now();
    double readSeconds = 0;
    double parseSeconds = 0;
    uint64_t dataBytes = 0;
    simdjson::ondemand::parser parser; // reused: it keeps its index allocation between files
    for (int i = 1; i < argc; ++i) {
        const std::string path = argv[i];
        const auto readStart = Clock::now();
        const int fd = ::open(path.c_str(), O_RDONLY);
        if (fd < 0)
            die(path + ": " + std::strerror(errno));
        struct stat info
        {
        };
        if (::fstat(fd, &info) != 0)
            die(path + ": " + std::strerror(errno));
        const auto fileSize = static_cast<size_t>(info.st_size);
        unsigned char magic[2] = {};
        const bool gzip = ::pread(fd, magic, 2, 0) == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
        Buffer buffer;
        if (gzip)
            readGzip(fd, fileSize, buffer);
        else
            readPlain(fd, fileSize, buffer);
        ::close(fd);
        std::memset(buffer.data + buffer.size, 0, simdjson::SIMDJSON_PADDING);
        const double read = secondsSince(readStart);

        const auto parseStart = Clock::now();
        Totals totals;
        ondemand::document document;
        fail(parser
                 .iterate(
                     simdjson::padded_string_view(buffer.data, buffer.size, buffer.size + simdjson::SIMDJSON_PADDING))
                 .get(document),
            path);
        ondemand::json_type type {};
        fail(document.type().get(type), path);
        if (type == ondemand::json_type::array) {
            ondemand::array events;
            fail(document.get_array().get(events), path);
            readEvents(events, totals, path);
        } else {
            ondemand::object top;
            fail(document.get_object().get(top), path);
            for (auto field : top) {
                ondemand::raw_json_string key;
                fail(field.key().get(key), path);
                if (!keyIs(key.raw(), "traceEvents"))
                    continue;
                ondemand::array events;
                fail(field.value().get_array().get(events), path);
                readEvents(events, totals, path);
            }
        }
        const double parse = secondsSince(parseStart);
        readSeconds += read;
        parseSeconds += parse;
        dataBytes += buffer.size;
        std::printf("parsefloor: %s: %s %zu bytes, %llu events, %llu names, %llu correlations, %llu mismatches; "
                    "read %.3f s, parse %.3f s (%.0f MB/s); checksum %llu %lld %.6e %.6e\n",
            path.c_str(), gzip ? "gzip" : "plain", buffer.size, static_cast<unsigned long long>(totals.events),
            static_cast<unsigned long long>(totals.names), static_cast<unsigned long long>(totals.correlations),
            static_cast<unsigned long long>(totals.mismatches), read, parse,
            static_cast<double>(buffer.size) / parse / 1e6,
            static_cast<unsigned long long>(totals.checksum + totals.categories),
            static_cast<long long>(totals.correlationSum), totals.tsSum, totals.durSum);
    }
    std::printf("parsefloor: total %llu bytes: read %.3f s, parse %.3f s, all %.3f s; simdjson %s, kernel %s\n",
        static_cast<unsigned long long>(dataBytes), readSeconds, parseSeconds, secondsSince(started), kSimdjsonVersion,
        simdjson::get_active_implementation()->name().c_str());
    return 0;
}
