#include "ops/efficiency/gpupeaks.h"

#include "util/inputerror.h"
#include "util/jsonfile.h"
#include "util/textformat.h"
#include "util/textmatch.h"

#include <simdjson.h>

#include <algorithm>

namespace fusiondiff {

namespace {

class PeaksReader : public JsonFileReader
{
public:
    explicit PeaksReader(std::string origin)
        : JsonFileReader(std::move(origin), "GPU peaks file")
    { }

    double number(simdjson::dom::element value, const std::string& what) const
    {
        double out = 0;
        if (value.get_double().get(out)) {
            int64_t integer = 0;
            if (value.get_int64().get(integer))
                fail(what + " must be a number");
            out = static_cast<double>(integer);
        }
        if (!(out > 0))
            fail(what + " must be positive");
        return out;
    }

    GpuPeak gpu(simdjson::dom::element element, size_t index) const
    {
        simdjson::dom::object object;
        if (element.get_object().get(object))
            fail("gpus[" + std::to_string(index) + "] must be an object");
        GpuPeak peak;
        peak.gpu = string(object, "gpu", true, "gpus[" + std::to_string(index) + "]");
        const std::string where = "GPU \"" + peak.gpu + "\"";
        peak.vendor = string(object, "vendor", true, where);
        if (peak.vendor != "NVIDIA" && peak.vendor != "AMD")
            fail(where + ": vendor must be NVIDIA or AMD");
        peak.source = string(object, "source", true, where);
        simdjson::dom::array names;
        if (!object["names"].get_array().get(names)) {
            for (simdjson::dom::element name : names) {
                std::string_view value;
                if (name.get_string().get(value) || value.empty())
                    fail(where + ": names must be non-empty strings");
                peak.names.push_back(asciiLower(value));
            }
        }
        std::string_view capability;
        if (!object["computeCapability"].get_string().get(capability)) {
            const size_t dot = capability.find('.');
            if (dot == std::string_view::npos)
                fail(where + ": computeCapability must read MAJOR.MINOR");
            peak.computeMajor = std::stoi(std::string(capability.substr(0, dot)));
            peak.computeMinor = std::stoi(std::string(capability.substr(dot + 1)));
        }
        simdjson::dom::array memory;
        if (!object["memoryGB"].get_array().get(memory)) {
            for (simdjson::dom::element size : memory)
                peak.memoryGB.push_back(number(size, where + ": memoryGB"));
        }
        simdjson::dom::element multiprocessors;
        if (!object["multiprocessors"].get(multiprocessors))
            peak.multiprocessors = static_cast<int32_t>(number(multiprocessors, where + ": multiprocessors"));
        simdjson::dom::object matrix;
        if (object["matrixTflops"].get_object().get(matrix))
            fail(where + ": \"matrixTflops\" must be an object of data type to TFLOPS");
        for (auto [dtype, value] : matrix)
            peak.matrixTflops[std::string(dtype)] = number(value, where + ": matrixTflops." + std::string(dtype));
        simdjson::dom::element vector;
        if (object["vectorTflops"].get(vector))
            fail(where + ": \"vectorTflops\" is missing");
        peak.vectorTflops = number(vector, where + ": vectorTflops");
        simdjson::dom::element bandwidth;
        if (object["hbmTBps"].get(bandwidth))
            fail(where + ": \"hbmTBps\" is missing");
        peak.hbmTBps = number(bandwidth, where + ": hbmTBps");
        return peak;
    }
};

double gigabytes(uint64_t bytes)
{
    return static_cast<double>(bytes) / 1e9;
}

// The device reports a little more or less than the size it is sold with (GiB, reserved memory):
// within 12% counts as the same.
bool memoryFits(const GpuPeak& peak, uint64_t bytes)
{
    if (peak.memoryGB.empty() || bytes == 0)
        return peak.memoryGB.empty();
    return std::any_of(peak.memoryGB.begin(), peak.memoryGB.end(), [&](double size) {
        const double ratio = gigabytes(bytes) / size;
        return ratio > 0.88 && ratio < 1.12;
    });
}

std::string describe(const GpuProperties& gpu)
{
    return "compute capability " + std::to_string(gpu.computeMajor) + "." + std::to_string(gpu.computeMinor) + ", "
        + fixed(gigabytes(gpu.totalMemoryBytes), 1) + " GB, " + std::to_string(gpu.multiprocessors)
        + " multiprocessors";
}

std::string candidatesText(const std::vector<const GpuPeak*>& candidates)
{
    std::string text;
    for (size_t i = 0; i < candidates.size(); ++i)
        text += (i == 0 ? "" : i + 1 == candidates.size() ? " or " : ", ") + candidates[i]->gpu;
    return text;
}

} // namespace

GpuPeakTable parseGpuPeaks(std::string_view json, const std::string& origin)
{
    const PeaksReader reader(origin);
    simdjson::dom::parser parser;
    const simdjson::dom::object object = reader.parseObject(parser, json);
    GpuPeakTable table;
    table.origin = origin;
    table.definition = reader.string(object, "definition", true, "the file");
    simdjson::dom::array gpus;
    if (object["gpus"].get_array().get(gpus))
        reader.fail("\"gpus\" must be an array");
    size_t index = 0;
    for (simdjson::dom::element gpu : gpus)
        table.gpus.push_back(reader.gpu(gpu, index++));
    if (table.gpus.empty())
        reader.fail("\"gpus\" is empty");
    return table;
}

GpuPeakTable builtinGpuPeaks()
{
    return parseGpuPeaks(builtinGpuPeaksText(), "built-in");
}

GpuPeakTable loadGpuPeaks(const std::string& path)
{
    return parseGpuPeaks(readJsonFile(path, "GPU peaks file"), path);
}

GpuMatch detectGpu(const GpuPeakTable& table, const GpuProperties& gpu, Platform platform)
{
    if (!gpu.present)
        return { nullptr, "the trace has no deviceProperties" };
    const std::string vendor = platformName(platform);
    // By name: the longest pattern found wins; among equals, the one whose memory fits.
    if (!gpu.name.empty()) {
        const std::string name = asciiLower(gpu.name);
        std::vector<const GpuPeak*> best;
        size_t bestLength = 0;
        for (const GpuPeak& peak : table.gpus) {
            for (const std::string& pattern : peak.names) {
                if (name.find(pattern) == std::string::npos || pattern.size() < bestLength)
                    continue;
                if (pattern.size() > bestLength)
                    best.clear();
                bestLength = pattern.size();
                if (std::find(best.begin(), best.end(), &peak) == best.end())
                    best.push_back(&peak);
            }
        }
        if (best.size() > 1) {
            std::vector<const GpuPeak*> fitting;
            std::copy_if(best.begin(), best.end(), std::back_inserter(fitting),
                [&](const GpuPeak* peak) { return memoryFits(*peak, gpu.totalMemoryBytes); });
            if (!fitting.empty())
                best = fitting;
        }
        if (!best.empty())
            return { best.front(), "by name '" + gpu.name + "'" };
    }
    // By properties: the vendor, the compute capability (AMD: gfx9.x.x), the memory and the
    // multiprocessors where the row gives them.
    std::vector<const GpuPeak*> candidates;
    for (const GpuPeak& peak : table.gpus) {
        if (peak.vendor != vendor || peak.computeMajor != gpu.computeMajor || peak.computeMinor != gpu.computeMinor)
            continue;
        if (!memoryFits(peak, gpu.totalMemoryBytes) || peak.memoryGB.empty())
            continue;
        if (peak.multiprocessors != 0 && peak.multiprocessors != gpu.multiprocessors)
            continue;
        candidates.push_back(&peak);
    }
    const std::string named = gpu.name.empty() ? "no name" : "name '" + gpu.name + "'";
    if (candidates.empty())
        return { nullptr, "unknown GPU (" + named + ", " + describe(gpu) + "): not in the peaks file" };
    std::string how = "by " + describe(gpu) + " (" + named + ")";
    if (candidates.size() > 1)
        how += ": " + candidatesText(candidates) + ", the first taken";
    return { candidates.front(), how };
}

} // namespace fusiondiff
