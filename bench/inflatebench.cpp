// inflatebench: how fast can a gzip trace be decompressed on one thread, and with what library?
//
//   inflatebench FILE.gz [--runs R]
//
// Decompresses FILE.gz (from the page cache) with each available decoder into a reused 8 MiB
// output buffer (bounded memory, as the core's streaming reader needs) and prints the median
// throughput in MB of decompressed output per second:
//   zlib           inflate() with the gzip wrapper (CRC-32 checked): what the core does when built with
//                  FUSIONDIFF_GZIP=zlib (core/load/zlibinflater.cpp), with the same 256 KiB input blocks
//   zlib-raw       raw inflate (the 10-byte gzip header skipped by hand), no CRC: what checksum
//                  verification costs with this zlib
//   isa-l          Intel ISA-L isal_inflate, streaming, gzip wrapper and CRC checked (if built with
//                  libisal: apt-get install libisal-dev): what the core does by default
//                  (core/load/isalinflater.cpp)
//   libdeflate     whole-buffer gzip decompression (if built with libdeflate): NOT streaming, it
//                  needs the whole output in memory, so it only shows the ceiling
// A checksum of the output (sum of bytes at a stride) shows that every decoder produced the same data.
#include <zlib.h>
#ifdef HAVE_ISAL
#include <isa-l/igzip_lib.h>
#endif
#ifdef HAVE_LIBDEFLATE
#include <libdeflate.h>
#endif

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
constexpr size_t kInBlock = size_t(1) << 18;
constexpr size_t kOutBlock = size_t(8) << 20;

struct Result
{
    uint64_t bytes = 0;
    uint64_t checksum = 0;
};

[[noreturn]] void die(const std::string& message)
{
    std::fprintf(stderr, "inflatebench: error: %s\n", message.c_str());
    std::exit(2);
}

// Adds the bytes at every 4096th position of the whole output, however it arrives in pieces.
void fold(Result& result, const unsigned char* data, size_t size)
{
    for (uint64_t position = (result.bytes + 4095) / 4096 * 4096; position < result.bytes + size; position += 4096)
        result.checksum += data[position - result.bytes] * position;
    result.bytes += size;
}

// windowBits as inflateInit2 takes them: 16 + MAX_WBITS for the gzip wrapper (CRC checked, members
// one after another), -MAX_WBITS for raw deflate starting at byte `start` (one member only).
Result zlibInflate(const std::vector<unsigned char>& file, int windowBits, size_t start)
{
    const bool gzipWrapper = windowBits > MAX_WBITS;
    z_stream stream {};
    if (inflateInit2(&stream, windowBits) != Z_OK)
        die("inflateInit2");
    std::vector<unsigned char> out(kOutBlock);
    Result result;
    size_t offset = start;
    for (;;) {
        if (stream.avail_in == 0) {
            const size_t part = std::min(kInBlock, file.size() - offset);
            if (part == 0)
                break;
            stream.next_in = const_cast<unsigned char*>(file.data() + offset);
            stream.avail_in = static_cast<uInt>(part);
            offset += part;
        }
        stream.next_out = out.data();
        stream.avail_out = static_cast<uInt>(out.size());
        const int status = inflate(&stream, Z_NO_FLUSH);
        fold(result, out.data(), out.size() - stream.avail_out);
        if (status == Z_STREAM_END) {
            if (!gzipWrapper || (stream.avail_in == 0 && offset == file.size()))
                break;
            inflateReset(&stream); // another member
        } else if (status != Z_OK && status != Z_BUF_ERROR) {
            die("zlib inflate failed");
        }
    }
    inflateEnd(&stream);
    return result;
}

Result zlibGzip(const std::vector<unsigned char>& file)
{
    return zlibInflate(file, 16 + MAX_WBITS, 0);
}

// Single-member files only (what the tiler writes); enough to show the cost of the CRC.
Result zlibRaw(const std::vector<unsigned char>& file)
{
    if (file.size() < 18 || file[3] != 0)
        die("zlib-raw needs a gzip header without optional fields");
    return zlibInflate(file, -MAX_WBITS, 10);
}

#ifdef HAVE_ISAL
Result isal(const std::vector<unsigned char>& file)
{
    inflate_state state;
    isal_inflate_init(&state);
    state.crc_flag = ISAL_GZIP;
    std::vector<unsigned char> out(kOutBlock);
    Result result;
    size_t offset = 0;
    for (;;) {
        if (state.avail_in == 0) {
            const size_t part = std::min(kInBlock, file.size() - offset);
            if (part == 0)
                break;
            state.next_in = const_cast<unsigned char*>(file.data() + offset);
            state.avail_in = static_cast<uint32_t>(part);
            offset += part;
        }
        state.next_out = out.data();
        state.avail_out = static_cast<uint32_t>(out.size());
        const int status = isal_inflate(&state);
        fold(result, out.data(), out.size() - state.avail_out);
        if (status != ISAL_DECOMP_OK)
            die("isal_inflate failed: " + std::to_string(status));
        if (state.block_state == ISAL_BLOCK_FINISH) {
            if (state.avail_in == 0 && offset == file.size())
                break;
            isal_inflate_reset(&state); // another member
            state.crc_flag = ISAL_GZIP;
        }
    }
    return result;
}
#endif

#ifdef HAVE_LIBDEFLATE
Result libdeflate(const std::vector<unsigned char>& file)
{
    const size_t size = file[file.size() - 4] | (file[file.size() - 3] << 8) | (file[file.size() - 2] << 16)
        | (size_t(file[file.size() - 1]) << 24);
    const std::unique_ptr<unsigned char[]> out(new unsigned char[size]); // not zero-filled
    libdeflate_decompressor* decompressor = libdeflate_alloc_decompressor();
    size_t actual = 0;
    if (libdeflate_gzip_decompress(decompressor, file.data(), file.size(), out.get(), size, &actual)
        != LIBDEFLATE_SUCCESS)
        die("libdeflate failed (a file over 4 GiB or of several members cannot be done this way)");
    libdeflate_free_decompressor(decompressor);
    Result result;
    // fold in output-block pieces so the checksum matches the streaming decoders
    for (size_t i = 0; i < actual; i += kOutBlock)
        fold(result, out.get() + i, std::min(kOutBlock, actual - i));
    return result;
}
#endif

} // namespace

int main(int argc, char** argv)
{
    std::string path;
    int runs = 3;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--runs" && i + 1 < argc)
            runs = std::max(1, std::atoi(argv[++i]));
        else if (path.empty() && arg[0] != '-')
            path = arg;
        else
            die("usage: inflatebench FILE.gz [--runs R]");
    }
    if (path.empty())
        die("usage: inflatebench FILE.gz [--runs R]");
    std::ifstream in(path, std::ios::binary);
    const std::vector<unsigned char> file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (file.size() < 18 || file[0] != 0x1f || file[1] != 0x8b)
        die(path + " is not gzip");

    std::vector<std::pair<const char*, std::function<Result(const std::vector<unsigned char>&)>>> decoders = {
        { "zlib", zlibGzip },
        { "zlib-raw", zlibRaw },
#ifdef HAVE_ISAL
        { "isa-l", isal },
#endif
#ifdef HAVE_LIBDEFLATE
        { "libdeflate", libdeflate },
#endif
    };
    for (const auto& [name, decode] : decoders) {
        std::vector<double> times;
        Result result;
        for (int r = 0; r < runs; ++r) {
            const auto start = Clock::now();
            result = decode(file);
            times.push_back(std::chrono::duration<double>(Clock::now() - start).count());
        }
        std::sort(times.begin(), times.end());
        const double median = times[times.size() / 2];
        std::printf("inflatebench: %-10s %s: %llu -> %llu bytes, %.3f s, %.0f MB/s (median of %d), checksum %llu\n",
            name, path.c_str(), static_cast<unsigned long long>(file.size()),
            static_cast<unsigned long long>(result.bytes), median, static_cast<double>(result.bytes) / median / 1e6,
            runs, static_cast<unsigned long long>(result.checksum));
    }
    return 0;
}
