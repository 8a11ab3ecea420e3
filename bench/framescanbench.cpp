// Times bench/framescan's scalar frame scanner over every Python frame of a plain JSON trace, in CPU
// time, against nothing else: the scanner's own cost per frame, to hold against what the core's
// loader spends on a frame (bench/framescan.sh). Prints the median of --runs passes.
//
//   framescanbench TRACE.json [--runs N]

#include "framescan/framescanner.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <string>
#include <vector>

namespace {

double cpuSeconds()
{
    timespec now {};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
    return double(now.tv_sec) + double(now.tv_nsec) * 1e-9;
}

// The '{' of every object holding the string "python_function" (with its quotes it cannot lie inside
// another string).
std::vector<const char*> frameStarts(const std::string& text)
{
    std::vector<const char*> starts;
    const char* begin = text.data();
    const char* end = begin + text.size();
    constexpr std::string_view needle = "\"python_function\"";
    for (const char* at = begin;
         (at = static_cast<const char*>(memmem(at, size_t(end - at), needle.data(), needle.size()))); ++at) {
        if (const auto* open = static_cast<const char*>(memrchr(begin, '{', size_t(at - begin))))
            starts.push_back(open);
    }
    return starts;
}

bool readFile(const char* path, std::string& text)
{
    std::ifstream file(path, std::ios::binary | std::ios::ate);
    if (!file)
        return false;
    text.resize(size_t(file.tellg()));
    file.seekg(0);
    return bool(file.read(text.data(), std::streamsize(text.size())));
}

} // namespace

int main(int argc, char** argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: framescanbench TRACE.json [--runs N]\n");
        return 2;
    }
    int runs = 5;
    for (int i = 2; i + 1 < argc; i += 2) {
        if (std::strcmp(argv[i], "--runs") == 0)
            runs = std::max(1, std::atoi(argv[i + 1]));
    }
    std::string text;
    if (!readFile(argv[1], text)) {
        std::fprintf(stderr, "framescanbench: cannot read %s\n", argv[1]);
        return 1;
    }
    const std::vector<const char*> starts = frameStarts(text);
    const char* end = text.data() + text.size();

    size_t accepted = 0;
    size_t frameBytes = 0;
    double checksum = 0; // keeps the scan from being optimised away
    std::vector<double> seconds;
    for (int run = 0; run < runs; ++run) {
        accepted = 0;
        frameBytes = 0;
        const double start = cpuSeconds();
        for (const char* open : starts) {
            fusiondiff::ScannedFrame frame;
            if (const char* after = fusiondiff::scanFrame(open, end, frame)) {
                ++accepted;
                frameBytes += size_t(after - open);
                checksum += frame.ts + double(frame.tid);
            }
        }
        seconds.push_back(cpuSeconds() - start);
    }
    std::sort(seconds.begin(), seconds.end());
    const double median = seconds[seconds.size() / 2];
    const double perFrame = starts.empty() ? 0 : median / double(starts.size()) * 1e9;
    std::printf("framescanbench: %zu frames, %zu accepted, %.0f bytes a frame, scan %.1f ns a frame (cpu, median "
                "of %d; checksum %g)\n",
        starts.size(), accepted, accepted ? double(frameBytes) / double(accepted) : 0.0, perFrame, runs, checksum);
    return 0;
}
