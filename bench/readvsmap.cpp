// readvsmap: what the kernel charges to bring a plain trace's bytes to the parser, read(2) against
// mmap(2), on one thread.
//
//   readvsmap FILE [ROUNDS]
//
// Each round walks FILE in 2 MiB chunks, the loader's chunk size, in five ways, and touches one byte
// of every 64 (every cache line) of each chunk, as a parser does:
//   read       read(2) into one reused buffer (the kernel copies the page cache);
//   read8      read(2) into eight buffers in turn: the loader's way, whose chunks in flight and
//              spare buffers (both traces) are about as many, so the copy meets a buffer that has
//              left the core's cache;
//   map        a private writable mapping of the chunk, two bytes written (the '[' and ']' a
//              parser frames a chunk with, copy-on-write), unmapped after;
//   map+pop    the same with MAP_POPULATE (which, on a writable private mapping, copies every page);
//   map+popr   the same with madvise(MADV_POPULATE_READ) before the touches.
// It prints each way's CPU seconds (user and system, from getrusage) and the median over ROUNDS
// (default 5), the ways interleaved so that a slow spell of the machine hits them all alike. Warm
// page cache: run it once before reading the figures.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22 // Linux 5.14
#endif

namespace {

constexpr size_t kChunkBytes = size_t(2) << 20;
constexpr size_t kCacheLine = 64;

struct Cpu
{
    double user = 0;
    double system = 0;
};

Cpu cpuNow()
{
    rusage usage {};
    getrusage(RUSAGE_SELF, &usage);
    return { double(usage.ru_utime.tv_sec) + double(usage.ru_utime.tv_usec) * 1e-6,
        double(usage.ru_stime.tv_sec) + double(usage.ru_stime.tv_usec) * 1e-6 };
}

[[noreturn]] void die(const char* what)
{
    std::perror(what);
    std::exit(2);
}

enum class Way
{
    Read,
    ReadRing,
    Map,
    MapPopulate,
    MapPopulateRead,
};

const char* nameOf(Way way)
{
    switch (way) {
    case Way::Read:
        return "read";
    case Way::ReadRing:
        return "read8";
    case Way::Map:
        return "map";
    case Way::MapPopulate:
        return "map+pop";
    case Way::MapPopulateRead:
        return "map+popr";
    }
    return "?";
}

unsigned long touch(const char* bytes, size_t size)
{
    unsigned long sum = 0;
    for (size_t i = 0; i < size; i += kCacheLine)
        sum += static_cast<unsigned char>(bytes[i]);
    return sum;
}

unsigned long walkByRead(int fd, size_t buffers)
{
    if (lseek(fd, 0, SEEK_SET) != 0)
        die("lseek");
    std::vector<std::vector<char>> ring(buffers, std::vector<char>(kChunkBytes));
    unsigned long sum = 0;
    for (size_t next = 0;; next = (next + 1) % buffers) {
        std::vector<char>& buffer = ring[next];
        const ssize_t got = read(fd, buffer.data(), buffer.size());
        if (got < 0)
            die("read");
        if (got == 0)
            return sum;
        sum += touch(buffer.data(), size_t(got));
    }
}

unsigned long walkByMapping(int fd, size_t fileSize, Way way)
{
    unsigned long sum = 0;
    for (size_t offset = 0; offset < fileSize; offset += kChunkBytes) {
        const size_t length = std::min(kChunkBytes, fileSize - offset);
        const int flags = MAP_PRIVATE | (way == Way::MapPopulate ? MAP_POPULATE : 0);
        void* mapped = mmap(nullptr, length, PROT_READ | PROT_WRITE, flags, fd, off_t(offset));
        if (mapped == MAP_FAILED)
            die("mmap");
        char* bytes = static_cast<char*>(mapped);
        if (way == Way::MapPopulateRead && madvise(mapped, length, MADV_POPULATE_READ) != 0)
            die("madvise(MADV_POPULATE_READ)");
        sum += touch(bytes, length);
        bytes[0] = '[';
        bytes[length - 1] = ']';
        munmap(mapped, length);
    }
    return sum;
}

} // namespace

int main(int argc, char** argv)
{
    if (argc < 2 || argc > 3) {
        std::fprintf(stderr, "usage: readvsmap FILE [ROUNDS]\n");
        return 2;
    }
    const int rounds = argc == 3 ? std::max(1, std::atoi(argv[2])) : 5;
    const int fd = open(argv[1], O_RDONLY);
    if (fd < 0)
        die(argv[1]);
    struct stat status
    {
    };
    if (fstat(fd, &status) != 0)
        die("fstat");
    const auto fileSize = size_t(status.st_size);

    constexpr std::array ways { Way::Read, Way::ReadRing, Way::Map, Way::MapPopulate, Way::MapPopulateRead };
    std::array<std::vector<double>, ways.size()> totals;
    std::array<std::vector<double>, ways.size()> systems;
    unsigned long checksum = 0;
    for (int round = 0; round < rounds; ++round) {
        for (size_t w = 0; w < ways.size(); ++w) {
            const Cpu before = cpuNow();
            if (ways[w] == Way::Read || ways[w] == Way::ReadRing)
                checksum += walkByRead(fd, ways[w] == Way::Read ? 1 : 8);
            else
                checksum += walkByMapping(fd, fileSize, ways[w]);
            const Cpu after = cpuNow();
            totals[w].push_back(after.user - before.user + after.system - before.system);
            systems[w].push_back(after.system - before.system);
        }
    }
    std::printf(
        "readvsmap: %s, %zu bytes, %d rounds, 2 MiB chunks (checksum %lu)\n", argv[1], fileSize, rounds, checksum);
    for (size_t w = 0; w < ways.size(); ++w) {
        std::sort(totals[w].begin(), totals[w].end());
        std::sort(systems[w].begin(), systems[w].end());
        std::printf("  %-9s cpu %.3f s (system %.3f s), median of %d\n", nameOf(ways[w]),
            totals[w][totals[w].size() / 2], systems[w][systems[w].size() / 2], rounds);
    }
    close(fd);
    return 0;
}
