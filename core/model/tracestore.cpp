#include "model/tracestore.h"

namespace fusiondiff {

const char* platformName(Platform platform)
{
    return platform == Platform::AMD ? "AMD" : "NVIDIA";
}

size_t TraceStore::memoryUsage() const
{
    return strings.memoryUsage() + kernels.capacity() * sizeof(KernelEvent)
        + runtimeCalls.capacity() * sizeof(RuntimeEvent) + cpuOps.capacity() * sizeof(CpuOpEvent)
        + annotations.capacity() * sizeof(AnnotationEvent) + modules.capacity() * sizeof(ModuleEvent)
        + commMessages.capacity() * sizeof(CommMessage);
}

uint32_t dtypeBytes(std::string_view dtype)
{
    for (const auto& [name, bytes] :
        { std::pair<std::string_view, uint32_t> { "BFloat16", 2 }, { "Half", 2 }, { "Float", 4 }, { "Double", 8 },
            { "Int", 4 }, { "Long", 8 }, { "Short", 2 }, { "Char", 1 }, { "Byte", 1 }, { "Bool", 1 },
            { "Float8_e4m3fn", 1 }, { "Float8_e5m2", 1 }, { "Float8_e4m3fnuz", 1 }, { "Float8_e5m2fnuz", 1 } }) {
        if (dtype == name)
            return bytes;
    }
    return 0;
}

} // namespace fusiondiff
