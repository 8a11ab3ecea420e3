// indexfloor: what any loader built on simdjson pays for a pair of traces before it stores an event.
//
//   indexfloor MODE [--runs N] FILE...
//
// Every FILE is read on a thread of its own, all at the same time (as the compare loads its two
// traces), in the loader's way: read(2) into a reused buffer of 2 MiB (the core's default chunk),
// the event array cut at event boundaries with the core's own findChunkCut, the unread tail
// carried over to the next read. What each chunk then gets depends on MODE:
//
//   read   nothing: the kernel's copy of the bytes alone
//   index  simdjson's stage 1 (the structural index On-Demand builds when it starts a document)
//   walk   stage 1, then On-Demand steps over every event of the chunk, reading none of its fields
//          (each object skipped whole, as the loader skips an event of a category it does not read)
//   fields walk, reading the fields the analyses need as the loader's decoder reads them, and no
//          more: `cat` compared raw; of the events of a category the loader keeps, the name's
//          token, `ts` and `dur` as numbers, `pid` and `tid` as integers, and (but for Python
//          frames, which the loader leaves once those five are read) the integer ids in `args`.
//          Nothing is decoded beyond that, interned or stored: what reading the fields costs
//          On-Demand itself, under the loader's decoding and storing
//
// Plain JSON only, with the event array under "traceEvents". Prints, per run, the wall time of all
// the files together and the process's CPU time (user + system) for that run, then the medians.
// A bound, not a loader: nothing is stored, and a cut inside a string is counted, not
// repaired (the core's loader re-cuts there; none happens on the bench pairs).
#include "load/chunkparse.h"
#include "load/eventkind.h"
#include "load/jsoncursor.h"

#include <simdjson.h>

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace ondemand = simdjson::ondemand;

namespace {

constexpr size_t kChunkBytes = size_t(2) << 20;

enum class Mode
{
    Read,
    Index,
    Walk,
    Fields,
};

[[noreturn]] void die(const std::string& message)
{
    std::fprintf(stderr, "indexfloor: error: %s\n", message.c_str());
    std::exit(2);
}

double cpuSeconds()
{
    rusage usage {};
    getrusage(RUSAGE_SELF, &usage);
    const auto seconds = [](const timeval& t) { return double(t.tv_sec) + double(t.tv_usec) / 1e6; };
    return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

struct FileResult
{
    uint64_t bytes = 0;
    uint64_t chunks = 0;
    uint64_t events = 0;
    uint64_t badCuts = 0; // chunks simdjson refused (a cut inside a string)
    double checksum = 0; // of the fields read, so that no read is optimised away
};

// The integer ids of an event's args (correlation, External id, device, stream).
void readIds(ondemand::object& args, FileResult& result)
{
    for (auto argument : args) {
        ondemand::raw_json_string argumentKey;
        if (argument.key().get(argumentKey))
            return;
        const char* name = argumentKey.raw();
        const bool id = (name[0] == 'c' && fusiondiff::rawEquals(name, "correlation"))
            || (name[0] == 'E' && fusiondiff::rawEquals(name, "External id"))
            || (name[0] == 'd' && fusiondiff::rawEquals(name, "device"))
            || (name[0] == 's' && fusiondiff::rawEquals(name, "stream"));
        int64_t integer = 0;
        if (id && !argument.value().get_int64().get(integer))
            result.checksum += double(integer);
    }
}

// Reads the fields of one event that the analyses need (see `fields` above), keys told apart by
// their first letter and categories by the loader's own kindOfCategory, as EventDecoder does;
// values of another type are passed over. False if the event is malformed. Each number is read
// where its key is found: helpers for them (lambdas included) cost half again the mode's CPU,
// the ondemand::value going through memory.
bool readFields(ondemand::object& object, FileResult& result)
{
    bool pythonFrame = false; // set once `cat` says so
    int frameFields = 0;
    for (auto field : object) {
        ondemand::raw_json_string rawKey;
        ondemand::value value;
        if (field.key().get(rawKey) || field.value().get(value))
            return false;
        const char* key = rawKey.raw();
        double number = 0;
        int64_t integer = 0;
        ondemand::raw_json_string category;
        ondemand::object args;
        switch (key[0]) {
        case 'c': {
            if (!fusiondiff::rawEquals(key, "cat"))
                break;
            if (value.get_raw_json_string().get(category))
                return false;
            const fusiondiff::EventKind kind = fusiondiff::kindOfCategory(category.raw());
            if (kind == fusiondiff::EventKind::Irrelevant)
                return true;
            pythonFrame = kind == fusiondiff::EventKind::PythonFunction;
            break;
        }
        case 'n':
            if (fusiondiff::rawEquals(key, "name")) {
                result.checksum += double(value.raw_json_token().size());
                ++frameFields;
            }
            break;
        case 't':
        case 'd':
            if (fusiondiff::rawEquals(key, "ts") || fusiondiff::rawEquals(key, "dur")) {
                if (!value.get_double().get(number))
                    result.checksum += number;
                ++frameFields;
            } else if (fusiondiff::rawEquals(key, "tid")) {
                if (!value.get_int64().get(integer))
                    result.checksum += double(integer);
                ++frameFields;
            }
            break;
        case 'p':
            if (fusiondiff::rawEquals(key, "pid")) {
                if (!value.get_int64().get(integer))
                    result.checksum += double(integer);
                ++frameFields;
            }
            break;
        case 'a':
            if (fusiondiff::rawEquals(key, "args") && !pythonFrame && !value.get_object().get(args))
                readIds(args, result);
            break;
        default:
            break;
        }
        if (pythonFrame && frameFields == 5)
            break;
    }
    return true;
}

// Steps over the events of one framed chunk ("[" events "] "), reading no field, or with `fields`
// the fields readFields reads.
uint64_t walkChunk(
    ondemand::parser& parser, char* begin, size_t length, size_t capacity, bool fields, FileResult& result)
{
    const simdjson::padded_string_view json(begin, length, capacity);
    ondemand::document document;
    if (parser.iterate(json).get(document)) {
        ++result.badCuts;
        return 0;
    }
    ondemand::array array;
    if (document.get_array().get(array)) {
        ++result.badCuts;
        return 0;
    }
    uint64_t events = 0;
    for (auto element : array) {
        ondemand::object object;
        std::string_view text;
        if (element.get_object().get(object) || (fields && !readFields(object, result))
            || object.raw_json().get(text)) {
            ++result.badCuts;
            return events;
        }
        ++events;
    }
    return events;
}

FileResult readFile(const std::string& path, Mode mode)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        die(path + ": " + std::strerror(errno));
    // One spare byte before the data for the '[' that frames a chunk, two after it for "] ", then
    // simdjson's padding.
    const size_t allocated = 1 + kChunkBytes + 2 + simdjson::SIMDJSON_PADDING;
    const std::unique_ptr<char[]> buffer(new char[allocated]);
    char* const data = buffer.get() + 1;
    ondemand::parser parser;
    FileResult result;
    size_t held = 0; // bytes at `data` not parsed yet
    bool inArray = false;
    bool exhausted = false;
    while (!exhausted || held > 0) {
        if (!exhausted) {
            const ssize_t got = ::read(fd, data + held, kChunkBytes - held);
            if (got < 0)
                die(path + ": " + std::strerror(errno));
            exhausted = got == 0;
            held += static_cast<size_t>(got);
            result.bytes += static_cast<size_t>(got);
        }
        size_t start = 0;
        if (!inArray) {
            const std::string_view text(data, held);
            const size_t key = text.find("\"traceEvents\"");
            const size_t open = key == std::string_view::npos ? key : text.find('[', key);
            if (open == std::string_view::npos)
                die(path + ": no \"traceEvents\" array in its first " + std::to_string(kChunkBytes) + " bytes");
            start = open + 1;
            inArray = true;
        }
        while (start < held && (data[start] == ',' || fusiondiff::isJsonWhitespace(data[start])))
            ++start;
        const size_t cut = start + fusiondiff::findChunkCut(data + start, held - start, held - start, exhausted);
        if (cut == start) {
            if (exhausted)
                break; // the array's ']' and the trailer
            if (start == 0 && held == kChunkBytes)
                die(path + ": an event larger than a chunk");
        } else {
            ++result.chunks;
            if (mode != Mode::Read) {
                char* const begin = data + start;
                const size_t length = cut - start;
                // The byte before the chunk is spare: the bytes before `start` are read already.
                const fusiondiff::ChunkFrame frame(begin, length);
                const size_t capacity = allocated - size_t(begin - 1 - buffer.get());
                if (mode == Mode::Index) {
                    ondemand::document document;
                    const simdjson::padded_string_view json(begin - 1, length + 2, capacity);
                    if (parser.iterate(json).get(document))
                        ++result.badCuts;
                } else {
                    result.events += walkChunk(parser, begin - 1, length + 2, capacity, mode == Mode::Fields, result);
                }
            }
        }
        std::memmove(data, data + cut, held - cut);
        held -= cut;
        if (exhausted && cut == start)
            break;
    }
    ::close(fd);
    return result;
}

} // namespace

int main(int argc, char** argv)
{
    const char* usage = "usage: indexfloor read|index|walk|fields [--runs N] FILE...\n";
    if (argc < 3) {
        std::fprintf(stderr, "%s", usage);
        return 2;
    }
    const std::string modeName = argv[1];
    Mode mode = Mode::Read;
    if (modeName == "index")
        mode = Mode::Index;
    else if (modeName == "walk")
        mode = Mode::Walk;
    else if (modeName == "fields")
        mode = Mode::Fields;
    else if (modeName != "read") {
        std::fprintf(stderr, "%s", usage);
        return 2;
    }
    int runs = 1;
    std::vector<std::string> paths;
    for (int i = 2; i < argc; ++i) {
        if (std::strcmp(argv[i], "--runs") == 0 && i + 1 < argc)
            runs = std::max(1, std::atoi(argv[++i]));
        else
            paths.emplace_back(argv[i]);
    }
    if (paths.empty()) {
        std::fprintf(stderr, "%s", usage);
        return 2;
    }

    std::vector<double> walls;
    std::vector<double> cpus;
    for (int run = 0; run < runs; ++run) {
        std::vector<FileResult> results(paths.size());
        const double cpuBefore = cpuSeconds();
        const auto start = std::chrono::steady_clock::now();
        std::vector<std::thread> threads;
        for (size_t i = 0; i < paths.size(); ++i)
            threads.emplace_back([&, i] { results[i] = readFile(paths[i], mode); });
        for (std::thread& thread : threads)
            thread.join();
        walls.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        cpus.push_back(cpuSeconds() - cpuBefore);
        for (size_t i = 0; i < paths.size(); ++i)
            std::printf("indexfloor %s run %d: %s: %llu bytes, %llu chunks, %llu events, %llu bad cuts, checksum %g\n",
                modeName.c_str(), run + 1, paths[i].c_str(), static_cast<unsigned long long>(results[i].bytes),
                static_cast<unsigned long long>(results[i].chunks), static_cast<unsigned long long>(results[i].events),
                static_cast<unsigned long long>(results[i].badCuts), results[i].checksum);
        std::printf(
            "indexfloor %s run %d: wall %.3f s, cpu %.3f s\n", modeName.c_str(), run + 1, walls.back(), cpus.back());
    }
    std::sort(walls.begin(), walls.end());
    std::sort(cpus.begin(), cpus.end());
    std::printf("indexfloor %s median of %d: wall %.3f s, cpu %.3f s (simdjson %s kernel)\n", modeName.c_str(), runs,
        walls[walls.size() / 2], cpus[cpus.size() / 2], simdjson::get_active_implementation()->name().c_str());
    return 0;
}
