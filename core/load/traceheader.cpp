#include "load/traceheader.h"

#include <simdjson.h>

#include <algorithm>
#include <limits>
#include <optional>

namespace fusiondiff {

namespace {

// Python truthiness of a JSON value.
bool isTruthy(simdjson::dom::element value)
{
    using simdjson::dom::element_type;
    switch (value.type()) {
    case element_type::NULL_VALUE:
        return false;
    case element_type::BOOL:
        return value.get_bool().value_unsafe();
    case element_type::INT64:
        return value.get_int64().value_unsafe() != 0;
    case element_type::UINT64:
        return value.get_uint64().value_unsafe() != 0;
    case element_type::DOUBLE:
        return value.get_double().value_unsafe() != 0.0;
    case element_type::STRING:
        return !value.get_string().value_unsafe().empty();
    case element_type::ARRAY:
        return value.get_array().value_unsafe().size() > 0;
    case element_type::OBJECT:
        return value.get_object().value_unsafe().size() > 0;
    }
    return false;
}

bool isSixtyFour(simdjson::dom::element value)
{
    double number = 0;
    if (value.is_int64())
        return value.get_int64().value_unsafe() == 64;
    if (value.is_uint64())
        return value.get_uint64().value_unsafe() == 64;
    if (!value.get_double().get(number))
        return number == 64.0;
    return false;
}

int64_t integerField(simdjson::dom::element device, const char* key)
{
    simdjson::dom::element value;
    int64_t number = -1;
    double real = 0;
    if (device[key].get(value))
        return -1;
    if (!value.get_int64().get(number))
        return number;
    if (!value.get_double().get(real) && real >= 0 && real < 9e18)
        return static_cast<int64_t>(real);
    return -1;
}

GpuProperties gpuProperties(simdjson::dom::element device, const std::string& name)
{
    GpuProperties gpu;
    gpu.present = true;
    gpu.name = name;
    gpu.computeMajor = static_cast<int32_t>(std::clamp<int64_t>(integerField(device, "computeMajor"), -1, 1000));
    gpu.computeMinor = static_cast<int32_t>(std::clamp<int64_t>(integerField(device, "computeMinor"), -1, 1000));
    gpu.totalMemoryBytes = static_cast<uint64_t>(std::max<int64_t>(integerField(device, "totalGlobalMem"), 0));
    gpu.multiprocessors = static_cast<int32_t>(std::clamp<int64_t>(integerField(device, "numSms"), 0, 1000000));
    return gpu;
}

bool endsWith(std::string_view text, std::string_view suffix)
{
    return text.size() > suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

} // namespace

PlatformInfo detectPlatform(const TraceHeader& header)
{
    simdjson::dom::parser parser;
    bool amd = false;
    if (!header.roctracerVersion.empty()) {
        simdjson::dom::element version;
        if (!parser.parse(header.roctracerVersion).get(version))
            amd = isTruthy(version);
    }

    bool hasName = false;
    std::string name;
    std::optional<simdjson::dom::element> firstDevice;
    simdjson::dom::element devices;
    if (!header.deviceProperties.empty() && !parser.parse(header.deviceProperties).get(devices) && devices.is_array()) {
        simdjson::dom::element first;
        if (!devices.at(0).get(first) && first.is_object()) {
            firstDevice = first;
            simdjson::dom::element warpSize;
            if (!first["warpSize"].get(warpSize) && isSixtyFour(warpSize))
                amd = true;
            simdjson::dom::element nameValue;
            if (!first["name"].get(nameValue)) {
                hasName = true;
                std::string_view text;
                name = nameValue.get_string().get(text) ? simdjson::to_string(nameValue) : std::string(text);
            }
        }
    }

    PlatformInfo info;
    info.platform = amd ? Platform::AMD : Platform::NVIDIA;
    info.gpuName = hasName ? name : (amd ? "MI300X" : "Unknown GPU");
    if (firstDevice)
        info.gpu = gpuProperties(*firstDevice, hasName ? name : std::string());
    return info;
}

DistributedInfo readDistributedInfo(const TraceHeader& header)
{
    DistributedInfo info;
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    if (header.distributedInfo.empty() || parser.parse(header.distributedInfo).get(root) || !root.is_object())
        return info;
    const auto readInt = [&](const char* key, int32_t& out) {
        int64_t value = 0;
        if (!root[key].get_int64().get(value) && value >= 0 && value <= std::numeric_limits<int32_t>::max())
            out = static_cast<int32_t>(value);
    };
    readInt("rank", info.rank);
    readInt("world_size", info.worldSize);
    std::string_view backend;
    if (!root["backend"].get_string().get(backend))
        info.backend = std::string(backend);
    simdjson::dom::element groups;
    if (!root["pg_config"].get(groups))
        info.processGroups = simdjson::minify(groups);
    return info;
}

std::string traceStem(std::string_view fileName)
{
    for (const std::string_view suffix : { ".gz", ".json", ".pt.trace" }) {
        if (endsWith(fileName, suffix))
            fileName.remove_suffix(suffix.size());
    }
    return std::string(fileName);
}

} // namespace fusiondiff
