#pragma once

#include "model/tracestore.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace fusiondiff {

class LoadThreadPool;

struct LoadOptions
{
    // Bytes of the event array parsed as one simdjson document: bounds the parser's memory.
    size_t chunkBytes = size_t(2) << 20;
    // Polled between chunks; when set, loading stops by throwing Cancelled.
    const std::atomic<bool>* cancel = nullptr;
    // Called between chunks with the file bytes consumed so far and the file size (compressed
    // bytes for gzip, so the progress is even).
    std::function<void(uint64_t done, uint64_t total)> progress;
    // Memory the loaded trace may take; 0: the share `memoryShare` of the memory available when
    // loading starts. A trace projected to need more fails with an InputError instead of being
    // killed by the system (or taking the machine down).
    uint64_t memoryBudget = 0;
    double memoryShare = 0.9;
    // Threads that parse the event array's chunks while this thread reads, cuts and merges them
    // (ParallelEventArrayReader; this thread parses them itself while the threads that read traces
    // are as many as these); 0: the machine's cores; 1: this thread alone, chunk after chunk.
    // The store is the same whatever the count.
    size_t threads = 0;
    // Parse on these threads instead of threads of the load's own (loadTraces shares one pool
    // between the traces it loads, so that together they keep to the count).
    LoadThreadPool* pool = nullptr;
};

// Loads a Kineto / Chrome-trace JSON file, plain or gzip, in the object format
// ({"traceEvents": [...]}) or the array format (a bare array whose final ']' may be missing),
// current or 2021 schema. Throws InputError for anything that is not a usable trace: a truncated
// trace is an error, never a smaller trace.
TraceStore loadTrace(const std::string& path, const LoadOptions& options = {});

// The same for a trace in memory; `name` stands in for the path.
TraceStore loadTraceFromMemory(std::string_view bytes, const std::string& name, const LoadOptions& options = {});

// Memory the system can still give this process (MemAvailable), in bytes; 0 if unknown.
uint64_t availableMemory();

} // namespace fusiondiff
