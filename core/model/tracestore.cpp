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
        + pythonFrames.capacity() * sizeof(PythonFrameEvent);
}

} // namespace fusiondiff
