#pragma once

#include "model/tracestore.h"

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace fusiondiff {

// One GPU's peaks (a row of resources/peaks/datasheet.json; docs/report-format.md has the format).
struct GpuPeak
{
    std::string gpu; // "H100 SXM"
    std::string vendor; // "NVIDIA" or "AMD"
    std::vector<std::string> names; // substrings of deviceProperties' name that identify it
    int32_t computeMajor = -1;
    int32_t computeMinor = -1;
    std::vector<double> memoryGB; // the memory sizes it is sold with, to tell it apart without a name
    int32_t multiprocessors = 0; // 0: any
    std::map<std::string, double> matrixTflops; // dense, per data type ("bf16", "fp32", ...)
    double vectorTflops = 0;
    double hbmTBps = 0;
    std::string source; // the datasheet
};

struct GpuPeakTable
{
    std::string definition; // "datasheet", or what a replacing file says ("max achievable")
    std::string origin; // "built-in" or the file's path
    std::vector<GpuPeak> gpus;
};

// The file compiled in (resources/peaks/datasheet.json).
std::string_view builtinGpuPeaksText();
GpuPeakTable builtinGpuPeaks();
// A replacing file (--peaks FILE): an InputError naming the file and the reason if it is not one.
GpuPeakTable loadGpuPeaks(const std::string& path);
GpuPeakTable parseGpuPeaks(std::string_view json, const std::string& origin);

// Which row a trace's GPU is, and how that was decided ("by name 'NVIDIA H100 80GB HBM3'", "by
// compute capability 9.5, 270.6 GB and 256 compute units: MI350X or MI355X, the first taken"),
// or why none is (peak null).
struct GpuMatch
{
    const GpuPeak* peak = nullptr;
    std::string how;
};

GpuMatch detectGpu(const GpuPeakTable& table, const GpuProperties& gpu, Platform platform);

} // namespace fusiondiff
