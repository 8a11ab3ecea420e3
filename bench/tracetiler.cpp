// tracetiler: scales a real Kineto / Chrome-trace JSON file up by tiling its events K times.
//
//   tracetiler IN OUT (--times K | --target-size BYTES) [--gzip] [--level N]
//
// IN may be plain or gzip (zlib reads both). The output is the input with its event array
// replaced by K copies of the array's contents, separated by ", ". Copy k (k = 0 .. K-1) is the
// original byte for byte, except for these numbers, which are rewritten in place:
//   - top-level "ts":                      + k * shift, shift = ceil(span) + 1 us, where span is
//                                          max(ts + dur) - min(ts) over all events;
//   - args.correlation and top-level "id"  + k * stride_corr (one stride for both, because an
//     (flow events: ac2g, fwdbwd):           ac2g flow's id is its correlation id);
//   - args["External id"] / ["external id"]+ k * stride_ext;
//   - args["Python id"], ["Python parent id"] + k * stride_py;
// where each stride is max - min + 1 over the input's values of that kind, so the copies' id
// ranges are disjoint (ids stay unique per copy and links stay inside their copy). Only integer
// values are shifted; null, strings and other types are left as they are. A fractional "ts" keeps
// its fraction text: only its integer part is rewritten (exact, no floating-point reformatting).
// Copy 0 is identical to the input, so K = 1 reproduces the input byte for byte.
//
// Memory: the input (decompressed) plus a list of the number positions to rewrite; the output is
// streamed (plain: fwrite with a 4 MiB buffer; gzip: zlib deflate via gzwrite), so any K works.
// K from --target-size is computed from the uncompressed size, also with --gzip, so the plain and
// gzip outputs for the same target hold the same JSON.
#include <simdjson.h>
#include <zlib.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace ondemand = simdjson::ondemand;

namespace {

[[noreturn]] void die(const std::string& message)
{
    std::fprintf(stderr, "tracetiler: error: %s\n", message.c_str());
    std::exit(2);
}

// The whole (decompressed) input, followed by simdjson's padding.
struct InputBuffer
{
    std::unique_ptr<char[]> data;
    size_t size = 0;
    size_t capacity = 0;
};

InputBuffer readInput(const std::string& path)
{
    gzFile file = gzopen(path.c_str(), "rb");
    if (!file)
        die("cannot open " + path);
    gzbuffer(file, 1u << 20);
    InputBuffer input;
    input.capacity = size_t(64) << 20;
    input.data.reset(new char[input.capacity + simdjson::SIMDJSON_PADDING]);
    for (;;) {
        if (input.size == input.capacity) {
            const size_t capacity = input.capacity * 2;
            std::unique_ptr<char[]> bigger(new char[capacity + simdjson::SIMDJSON_PADDING]);
            std::memcpy(bigger.get(), input.data.get(), input.size);
            input.data = std::move(bigger);
            input.capacity = capacity;
        }
        const size_t want = std::min<size_t>(input.capacity - input.size, 1u << 30);
        const int got = gzread(file, input.data.get() + input.size, static_cast<unsigned>(want));
        if (got < 0) {
            int code = 0;
            die(path + ": " + gzerror(file, &code));
        }
        if (got == 0)
            break;
        input.size += static_cast<size_t>(got);
    }
    gzclose(file);
    std::memset(input.data.get() + input.size, 0, simdjson::SIMDJSON_PADDING);
    return input;
}

enum Kind : uint8_t
{
    kTs,
    kCorrelation, // args.correlation and flow "id"
    kExternal,
    kPython,
    kKindCount,
};

// The integer part of a number token at `offset` (`length` bytes) is replaced by value + k * step.
struct Edit
{
    uint64_t offset;
    int64_t value;
    uint32_t length;
    Kind kind;
};

struct Range
{
    int64_t min = std::numeric_limits<int64_t>::max();
    int64_t max = std::numeric_limits<int64_t>::min();
    bool empty() const { return min > max; }
    void add(int64_t v)
    {
        min = std::min(min, v);
        max = std::max(max, v);
    }
};

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

class Scanner
{
public:
    explicit Scanner(const char* base)
        : m_base(base)
    { }

    std::vector<Edit> edits;
    Range ranges[kKindCount];
    double minTs = std::numeric_limits<double>::infinity();
    double maxEnd = -std::numeric_limits<double>::infinity();
    uint64_t events = 0;
    uint64_t regionBegin = 0; // first byte of the first element
    uint64_t regionEnd = 0; // one past the last element
    bool sawArray = false;

    void scanArray(ondemand::array array)
    {
        sawArray = true;
        bool first = true;
        for (auto result : array) {
            ondemand::value element;
            check(result.get(element), "reading an event");
            std::string_view raw;
            ondemand::json_type type {};
            check(element.type().get(type), "reading an event's type");
            if (type == ondemand::json_type::object) {
                ondemand::object object;
                check(element.get_object().get(object), "reading an event");
                scanEvent(object);
                check(object.raw_json().get(raw), "reading an event");
            } else if (type == ondemand::json_type::array) {
                ondemand::array inner;
                check(element.get_array().get(inner), "reading an event");
                check(inner.raw_json().get(raw), "reading an event");
            } else {
                raw = element.raw_json_token();
                while (!raw.empty() && std::strchr(" \t\r\n", raw.back()))
                    raw.remove_suffix(1);
            }
            const auto begin = static_cast<uint64_t>(raw.data() - m_base);
            if (first)
                regionBegin = begin;
            first = false;
            regionEnd = begin + raw.size();
            ++events;
        }
    }

private:
    static void check(simdjson::error_code error, const char* what)
    {
        if (error)
            die(std::string("invalid JSON while ") + what + ": " + simdjson::error_message(error));
    }

    // Records an edit for an integer-valued token (or the integer part of a plain decimal "ts").
    void addNumber(ondemand::value value, Kind kind)
    {
        ondemand::json_type type {};
        if (value.type().get(type) || type != ondemand::json_type::number)
            return;
        std::string_view token = value.raw_json_token();
        size_t length = 0;
        while (length < token.size() && isDigit(token[length]))
            ++length;
        if (length == 0 || length > 18)
            return; // negative, or too long to shift safely: leave it
        const size_t numberEnd = token.find_first_not_of("0123456789.eE+-");
        const std::string_view number = token.substr(0, numberEnd);
        if (kind != kTs && number.size() != length)
            return; // ids must be plain non-negative integers
        if (kind == kTs && number.find_first_of("eE") != std::string_view::npos)
            return; // exponent notation: would need reformatting; never seen in Kineto traces
        int64_t v = 0;
        std::from_chars(token.data(), token.data() + length, v);
        edits.push_back({ static_cast<uint64_t>(token.data() - m_base), v, static_cast<uint32_t>(length), kind });
        if (kind != kTs)
            ranges[kind].add(v);
    }

    static bool keyIs(ondemand::raw_json_string key, std::string_view literal)
    {
        const char* raw = key.raw();
        return std::memcmp(raw, literal.data(), literal.size()) == 0 && raw[literal.size()] == '"';
    }

    void scanEvent(ondemand::object object)
    {
        double ts = 0;
        double dur = 0;
        bool hasTs = false;
        for (auto field : object) {
            ondemand::raw_json_string key;
            check(field.key().get(key), "reading a key");
            ondemand::value value;
            check(field.value().get(value), "reading a value");
            if (keyIs(key, "ts")) {
                addNumber(value, kTs);
                hasTs = !value.get_double().get(ts);
            } else if (keyIs(key, "dur")) {
                if (value.get_double().get(dur))
                    dur = 0;
            } else if (keyIs(key, "id")) {
                addNumber(value, kCorrelation);
            } else if (keyIs(key, "args")) {
                ondemand::object args;
                if (value.get_object().get(args))
                    continue;
                for (auto argument : args) {
                    ondemand::raw_json_string argumentKey;
                    check(argument.key().get(argumentKey), "reading an args key");
                    Kind kind = kKindCount;
                    if (keyIs(argumentKey, "correlation"))
                        kind = kCorrelation;
                    else if (keyIs(argumentKey, "External id") || keyIs(argumentKey, "external id"))
                        kind = kExternal;
                    else if (keyIs(argumentKey, "Python id") || keyIs(argumentKey, "Python parent id"))
                        kind = kPython;
                    if (kind == kKindCount)
                        continue;
                    ondemand::value argumentValue;
                    check(argument.value().get(argumentValue), "reading an args value");
                    addNumber(argumentValue, kind);
                }
            }
        }
        if (hasTs) {
            minTs = std::min(minTs, ts);
            maxEnd = std::max(maxEnd, ts + std::max(dur, 0.0));
        }
    }

    const char* m_base;
};

class Output
{
public:
    Output(const std::string& path, bool gzip, int level)
        : m_path(path)
    {
        if (gzip) {
            const std::string mode = "wb" + std::to_string(level);
            m_gz = gzopen(path.c_str(), mode.c_str());
            if (!m_gz)
                die("cannot create " + path);
            gzbuffer(m_gz, 1u << 20);
        } else {
            m_file = std::fopen(path.c_str(), "wb");
            if (!m_file)
                die("cannot create " + path + ": " + std::strerror(errno));
            m_buffer.reset(new char[size_t(4) << 20]);
            std::setvbuf(m_file, m_buffer.get(), _IOFBF, size_t(4) << 20);
        }
    }

    void write(const char* data, size_t size)
    {
        m_bytes += size;
        if (m_file) {
            if (std::fwrite(data, 1, size, m_file) != size)
                die("cannot write " + m_path + ": " + std::strerror(errno));
            return;
        }
        while (size > 0) {
            const unsigned part = static_cast<unsigned>(std::min<size_t>(size, 1u << 30));
            if (gzwrite(m_gz, data, part) != static_cast<int>(part)) {
                int code = 0;
                die("cannot write " + m_path + ": " + gzerror(m_gz, &code));
            }
            data += part;
            size -= part;
        }
    }
    void write(std::string_view text) { write(text.data(), text.size()); }

    void close()
    {
        if (m_file && std::fclose(m_file) != 0)
            die("cannot write " + m_path + ": " + std::strerror(errno));
        if (m_gz && gzclose(m_gz) != Z_OK)
            die("cannot write " + m_path);
        m_file = nullptr;
        m_gz = nullptr;
    }

    uint64_t bytes() const { return m_bytes; }

private:
    std::string m_path;
    FILE* m_file = nullptr;
    gzFile m_gz = nullptr;
    std::unique_ptr<char[]> m_buffer;
    uint64_t m_bytes = 0;
};

void usage()
{
    std::fprintf(stderr,
        "usage: tracetiler IN OUT (--times K | --target-size BYTES) [--gzip] [--level N]\n"
        "  Tiles the events of the trace IN K times (time-shifted, ids offset) into OUT.\n"
        "  --target-size: K such that OUT is about BYTES uncompressed (suffixes k, M, G: powers of 1000).\n"
        "  --gzip: write gzip (zlib level --level, default 6).\n");
    std::exit(2);
}

uint64_t parseSize(const std::string& text)
{
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    double scale = 1;
    if (*end == 'k' || *end == 'K')
        scale = 1e3;
    else if (*end == 'M')
        scale = 1e6;
    else if (*end == 'G')
        scale = 1e9;
    else if (*end != '\0')
        usage();
    if (!(value > 0))
        usage();
    return static_cast<uint64_t>(value * scale);
}

} // namespace

int main(int argc, char** argv)
{
    std::vector<std::string> positional;
    uint64_t times = 0;
    uint64_t targetSize = 0;
    bool gzip = false;
    int level = 6;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--times" && i + 1 < argc)
            times = std::strtoull(argv[++i], nullptr, 10);
        else if (arg == "--target-size" && i + 1 < argc)
            targetSize = parseSize(argv[++i]);
        else if (arg == "--gzip")
            gzip = true;
        else if (arg == "--level" && i + 1 < argc)
            level = std::atoi(argv[++i]);
        else if (arg == "-h" || arg == "--help")
            usage();
        else if (!arg.empty() && arg[0] == '-')
            usage();
        else
            positional.push_back(arg);
    }
    if (positional.size() != 2 || (times == 0) == (targetSize == 0) || level < 0 || level > 9)
        usage();
    const std::string& inPath = positional[0];
    const std::string& outPath = positional[1];

    const InputBuffer input = readInput(inPath);
    const char* base = input.data.get();
    simdjson::ondemand::parser parser;
    ondemand::document document;
    simdjson::error_code error
        = parser.iterate(simdjson::padded_string_view(base, input.size, input.size + simdjson::SIMDJSON_PADDING))
              .get(document);
    if (error)
        die(inPath + ": " + simdjson::error_message(error));

    Scanner scanner(base);
    ondemand::json_type type {};
    if ((error = document.type().get(type)))
        die(inPath + ": " + simdjson::error_message(error));
    if (type == ondemand::json_type::array) {
        ondemand::array array;
        if ((error = document.get_array().get(array)))
            die(inPath + ": " + simdjson::error_message(error));
        scanner.scanArray(array);
    } else {
        ondemand::object object;
        if ((error = document.get_object().get(object)))
            die(inPath + ": " + simdjson::error_message(error));
        for (auto field : object) {
            ondemand::raw_json_string key;
            if ((error = field.key().get(key)))
                die(inPath + ": " + simdjson::error_message(error));
            if (std::memcmp(key.raw(), "traceEvents\"", 12) == 0) {
                ondemand::array array;
                if ((error = field.value().get_array().get(array)))
                    die(inPath + ": \"traceEvents\" is not an array");
                scanner.scanArray(array);
            }
        }
    }
    if (!scanner.sawArray)
        die(inPath + ": no event array (\"traceEvents\")");
    if (scanner.events == 0)
        die(inPath + ": the event array is empty");

    const std::string_view header(base, scanner.regionBegin);
    const std::string_view region(base + scanner.regionBegin, scanner.regionEnd - scanner.regionBegin);
    const std::string_view trailer(base + scanner.regionEnd, input.size - scanner.regionEnd);
    const std::string_view separator = ", ";

    if (targetSize) {
        const double rest = static_cast<double>(targetSize) - static_cast<double>(header.size() + trailer.size());
        times = static_cast<uint64_t>(
            std::max(1.0, std::round(rest / static_cast<double>(region.size() + separator.size()))));
    }

    int64_t step[kKindCount] = {};
    const double span = std::isfinite(scanner.minTs) ? scanner.maxEnd - scanner.minTs : 0;
    step[kTs] = static_cast<int64_t>(std::ceil(span)) + 1;
    for (int kind = kCorrelation; kind < kKindCount; ++kind)
        step[kind] = scanner.ranges[kind].empty() ? 0 : scanner.ranges[kind].max - scanner.ranges[kind].min + 1;

    // The edits are already in file order (one forward pass); keep that guarantee explicit.
    std::vector<Edit>& edits = scanner.edits;
    if (!std::is_sorted(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) { return a.offset < b.offset; }))
        std::sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) { return a.offset < b.offset; });

    Output out(outPath, gzip, level);
    out.write(header);
    char number[32];
    for (uint64_t k = 0; k < times; ++k) {
        if (k > 0)
            out.write(separator);
        if (k == 0) {
            out.write(region);
            continue;
        }
        uint64_t position = scanner.regionBegin;
        for (const Edit& edit : edits) {
            out.write(base + position, edit.offset - position);
            const int64_t shifted = edit.value + static_cast<int64_t>(k) * step[edit.kind];
            const auto [end, status] = std::to_chars(number, number + sizeof number, shifted);
            if (status != std::errc())
                die("number overflow while shifting");
            out.write(number, static_cast<size_t>(end - number));
            position = edit.offset + edit.length;
        }
        out.write(base + position, scanner.regionEnd - position);
    }
    out.write(trailer);
    const uint64_t written = out.bytes();
    out.close();

    std::printf("tracetiler: %s -> %s: K=%llu copies of %llu events (%llu events), %llu bytes uncompressed%s; "
                "ts shift %lld us, id strides corr/flow %lld, external %lld, python %lld\n",
        inPath.c_str(), outPath.c_str(), static_cast<unsigned long long>(times),
        static_cast<unsigned long long>(scanner.events), static_cast<unsigned long long>(times * scanner.events),
        static_cast<unsigned long long>(written), gzip ? " (gzip)" : "", static_cast<long long>(step[kTs]),
        static_cast<long long>(step[kCorrelation]), static_cast<long long>(step[kExternal]),
        static_cast<long long>(step[kPython]));
    return 0;
}
