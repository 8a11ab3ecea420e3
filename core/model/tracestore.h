#pragma once

#include "model/stringtable.h"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace fusiondiff {

// Ids (correlation, External id) are absent in some events; this value marks that.
constexpr int64_t kNoId = std::numeric_limits<int64_t>::min();

// One GPU kernel execution (`cat: "kernel"`, or `"Kernel"` in the 2021 schema).
struct KernelEvent
{
    double ts = 0; // microseconds, as in the trace
    double dur = 0;
    int64_t correlation = kNoId; // args.correlation: equal to the launching runtime call's
    int64_t externalId = kNoId; // args["External id"]: the cpu_op that launched it
    // args.device and args.stream, else pid and tid: small numbers, so 32 bits (48 bytes a kernel
    // rather than 56; a value beyond them is clamped to the nearest, see narrowGpuId).
    int32_t device = -1;
    int32_t stream = -1;
    StringId name = 0;
};

static_assert(sizeof(KernelEvent) == 48, "a large trace holds millions of kernels: keep KernelEvent at 48 bytes");

// A copy or memset on the device (`gpu_memcpy`, `gpu_memset`; 2021: `Memcpy`, `Memset`): GPU busy
// time that is not a kernel. Only the step time reads them.
struct GpuCopyEvent
{
    double ts = 0;
    double dur = 0;
    int64_t correlation = kNoId; // equal to the launching runtime call's (cudaMemcpyAsync, ...)
    int32_t device = -1; // as KernelEvent's
    int32_t stream = -1;
};

// A GPU event's device or stream number as KernelEvent and GpuCopyEvent keep it: values outside
// 32 bits (no profiler writes them) are clamped.
int32_t narrowGpuId(int64_t id);

// A CUDA/HIP runtime or driver call (`cuda_runtime`, `cuda_driver`, 2021: `Runtime`).
struct RuntimeEvent
{
    double ts = 0;
    double dur = 0;
    int64_t correlation = kNoId;
    int64_t externalId = kNoId;
    int64_t pid = -1;
    int64_t tid = -1;
    StringId name = 0;
    bool graphLaunch = false; // cudaGraphLaunch / hipGraphLaunch: every replayed kernel shares its correlation
};

// A PyTorch operator on the CPU (`cpu_op`, 2021: `Operator`).
struct CpuOpEvent
{
    double ts = 0;
    double dur = 0;
    int64_t externalId = kNoId;
    int64_t pid = -1;
    int64_t tid = -1;
    StringId name = 0;
};

// A user annotation such as `ProfilerStep#3` (`user_annotation`, `gpu_user_annotation`).
struct AnnotationEvent
{
    double ts = 0;
    double dur = 0;
    int64_t pid = -1;
    int64_t tid = -1;
    StringId name = 0;
    bool onGpu = false;
};

// A PyTorch module call on the CPU: a `python_function` event named "nn.Module: Name_N" (traces
// recorded with with_stack / with_modules).
struct ModuleEvent
{
    double ts = 0;
    double dur = 0;
    int64_t pid = -1;
    int64_t tid = -1;
    StringId name = 0; // without the "nn.Module: " prefix
};

// The message of a collective: as record_param_comms records it (args "In msg nelems", "dtype"),
// or, for a collective operator recorded with shapes, its first input tensor ("Input Dims",
// "Input type"). record_param_comms of recent PyTorch also names the process group and numbers
// the group's calls.
struct CommMessage
{
    uint32_t cpuOp = 0; // index into TraceStore::cpuOps
    int64_t elements = -1; // -1 when not recorded
    uint32_t elementBytes = 0; // 0 when the dtype is not known
    std::string group; // args "Process Group Name" ("0", "3", ...), "" when not recorded
    int64_t sequence = -1; // args "Seq": the call's number in its group, -1 when not recorded
};

// The shapes PyTorch recorded for one CPU operator (record_shapes): the raw JSON arrays of its args
// "Input Dims", "Input type" and "Concrete Inputs", joined by the unit separator 0x1F (which JSON text cannot hold
// unescaped), interned in TraceStore::shapeTexts (a model repeats a few hundred shapes thousands of times). Only
// operators that recorded "Input Dims" have one (collective operators keep their message instead).
struct OpShapes
{
    uint32_t cpuOp = 0; // index into TraceStore::cpuOps
    StringId text = 0; // into TraceStore::shapeTexts
};

// The first device of deviceProperties, as far as the GPU's identity goes.
struct GpuProperties
{
    bool present = false; // deviceProperties had a first device
    std::string name; // may be empty (some ROCm builds)
    int32_t computeMajor = -1; // AMD: gfx9xx's 9 and its minor (gfx950: 9.5)
    int32_t computeMinor = -1;
    uint64_t totalMemoryBytes = 0;
    int32_t multiprocessors = 0; // numSms: SMs or compute units
};

// Bytes per element of a dtype as the profiler writes it ("BFloat16", "c10::BFloat16", "float"); 0 if unknown.
uint32_t dtypeBytes(std::string_view dtype);

// A CPU thread: a process id and a thread id as the trace writes them.
struct ThreadId
{
    int64_t pid = -1;
    int64_t tid = -1;
    bool operator==(const ThreadId&) const = default;
    bool operator<(const ThreadId& other) const { return pid < other.pid || (pid == other.pid && tid < other.tid); }
};

// Any other `python_function` event: a Python call ("models/llama.py(212): forward"), kept with
// the name as pythonFrameKey() writes it, without the line number and object addresses, which
// move between versions of the same code ("models/llama.py: forward"). with_stack traces hold
// millions of them on a few threads: 24 bytes each, the thread an index into
// TraceStore::pythonThreads.
struct PythonFrameEvent
{
    double ts = 0;
    double dur = 0;
    uint32_t thread = 0; // index into TraceStore::pythonThreads
    StringId name = 0;
};

enum class Platform
{
    AMD,
    NVIDIA,
};

const char* platformName(Platform platform);

// What the loader saw besides the events it kept; reported so that nothing is dropped silently.
struct LoadStatistics
{
    uint64_t fileBytes = 0; // size on disk
    uint64_t dataBytes = 0; // decompressed size
    bool gzip = false;
    bool arrayFormat = false; // a bare JSON array instead of {"traceEvents": [...]}
    bool missingClosingBracket = false; // the array format's final ']' was absent (allowed)
    uint64_t events = 0; // elements of the event array
    uint64_t nonObjectEvents = 0; // elements that are not JSON objects: skipped
    uint64_t eventsMissingFields = 0; // kernel/runtime/op events without a name or ts: skipped
    uint64_t eventsMissingDuration = 0; // kept with a duration of 0, as the seed does
    uint64_t coercedFields = 0; // fields of a wrong type that were converted (e.g. "ts": "12.5")
    uint64_t ignoredFields = 0; // fields of a wrong type that could not be converted: treated as absent
};

// A rank of a multi-rank job as the trace's `distributedInfo` describes it; -1 and empty when the
// trace does not say.
struct DistributedInfo
{
    int32_t rank = -1;
    int32_t worldSize = -1;
    std::string backend; // "nccl", ...
    std::string processGroups; // `pg_config` as raw JSON (each process group's ranks), empty if absent
};

// Everything the analyses need from one trace file, in compact columns of plain structs.
struct TraceStore
{
    std::string path;
    std::string fileName; // last path component
    std::string stem; // fileName without .json/.json.gz/.pt.trace suffixes
    Platform platform = Platform::NVIDIA;
    std::string gpuName;
    std::string label; // stem and GPU: names this trace in every table
    DistributedInfo distributed;

    StringTable strings;
    std::vector<KernelEvent> kernels; // in file order
    std::vector<GpuCopyEvent> gpuCopies; // in file order
    std::vector<RuntimeEvent> runtimeCalls;
    std::vector<CpuOpEvent> cpuOps;
    std::vector<AnnotationEvent> annotations;
    std::vector<ModuleEvent> modules;
    std::vector<CommMessage> commMessages; // for the cpu ops that record one, in cpuOps order
    std::vector<OpShapes> opShapes; // for the cpu ops that record shapes, in cpuOps order
    StringTable shapeTexts; // the texts of opShapes
    GpuProperties gpu;
    // Only the frames that hold something on their thread (an operator, a module or a runtime call
    // starts inside them): the loader leaves out the others (about half of a with_stack trace's
    // frames), which place nothing. Thread by thread (in ThreadId order), each thread's frames in
    // file order.
    std::vector<PythonFrameEvent> pythonFrames;
    std::vector<ThreadId> pythonThreads; // the threads of pythonFrames
    LoadStatistics statistics;

    std::string_view name(StringId id) const { return strings.get(id); }
    size_t memoryUsage() const;
};

} // namespace fusiondiff
