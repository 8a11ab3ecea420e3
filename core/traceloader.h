#pragma once

#include "tracestore.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace fusiondiff {

struct LoadOptions
{
    // Bytes of the event array parsed as one simdjson document: bounds the parser's memory.
    size_t chunkBytes = size_t(8) << 20;
    // Polled between chunks; when set, loading stops by throwing Cancelled.
    const std::atomic<bool>* cancel = nullptr;
    // Called between chunks with the file bytes consumed so far and the file size (compressed
    // bytes for gzip, so the progress is even).
    std::function<void(uint64_t done, uint64_t total)> progress;
};

// Loads a Kineto / Chrome-trace JSON file, plain or gzip, in the object format
// ({"traceEvents": [...]}) or the array format (a bare array whose final ']' may be missing),
// current or 2021 schema. Throws InputError for anything that is not a usable trace: a truncated
// trace is an error, never a smaller trace.
TraceStore loadTrace(const std::string& path, const LoadOptions& options = {});

} // namespace fusiondiff
