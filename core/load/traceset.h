#pragma once

#include "load/traceloader.h"
#include "model/tracestore.h"
#include "util/freememory.h" // returnFreedMemoryToSystem, which the callers of loadTraces use too

#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace fusiondiff {

// The outcome of loading one of several traces: the store, or the error that stopped it.
struct LoadedTrace
{
    std::shared_ptr<const TraceStore> store; // null if loading failed
    std::exception_ptr error;
};

// Loads the given traces; a file named twice is loaded once and shared. Progress reports (trace
// index, done, total). One failure does not stop the others. `threads` (0: the machine's cores)
// bounds the threads that parse: with 1 the traces are read one after the other on one thread;
// with more, at the same time, their chunks parsed by one pool of that many threads (each trace
// also has a thread that reads, cuts and merges, and gzip a thread that inflates), so that a
// large trace gets every thread once a small one is read.
std::vector<LoadedTrace> loadTraces(const std::vector<std::string>& paths, const std::atomic<bool>* cancel = nullptr,
    const std::function<void(size_t trace, uint64_t done, uint64_t total)>& progress = {}, size_t threads = 0);

} // namespace fusiondiff
