#include "model/tracestore.h"

#include <algorithm>
#include <limits>

namespace fusiondiff {

const char* platformName(Platform platform)
{
    return platform == Platform::AMD ? "AMD" : "NVIDIA";
}

size_t TraceStore::memoryUsage() const
{
    return strings.memoryUsage() + kernels.capacity() * sizeof(KernelEvent)
        + gpuCopies.capacity() * sizeof(GpuCopyEvent) + runtimeCalls.capacity() * sizeof(RuntimeEvent)
        + cpuOps.capacity() * sizeof(CpuOpEvent) + annotations.capacity() * sizeof(AnnotationEvent)
        + modules.capacity() * sizeof(ModuleEvent) + commMessages.capacity() * sizeof(CommMessage)
        + pythonFrames.capacity() * sizeof(PythonFrameEvent) + pythonThreads.capacity() * sizeof(ThreadId)
        + opShapes.capacity() * sizeof(OpShapes) + shapeTexts.memoryUsage();
}

int32_t narrowGpuId(int64_t id)
{
    return static_cast<int32_t>(
        std::clamp<int64_t>(id, std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()));
}

uint32_t dtypeBytes(std::string_view dtype)
{
    // record_param_comms writes "BFloat16"; "Input type" writes "c10::BFloat16" or a C++ type.
    if (dtype.starts_with("c10::"))
        dtype.remove_prefix(5);
    for (const auto& [name, bytes] : { std::pair<std::string_view, uint32_t> { "BFloat16", 2 }, { "Half", 2 },
             { "Float", 4 }, { "float", 4 }, { "Double", 8 }, { "double", 8 }, { "Int", 4 }, { "int", 4 },
             { "Long", 8 }, { "long int", 8 }, { "int64_t", 8 }, { "Short", 2 }, { "short int", 2 }, { "Char", 1 },
             { "signed char", 1 }, { "Byte", 1 }, { "unsigned char", 1 }, { "Bool", 1 }, { "bool", 1 },
             { "Float8_e4m3fn", 1 }, { "Float8_e5m2", 1 }, { "Float8_e4m3fnuz", 1 }, { "Float8_e5m2fnuz", 1 } }) {
        if (dtype == name)
            return bytes;
    }
    return 0;
}

} // namespace fusiondiff
