#pragma once

#include "load/traceloader.h"
#include "model/tracestore.h"

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

// Loads the given traces at the same time, one thread each; a file named twice is loaded once and
// shared. Progress reports (trace index, done, total). One failure does not stop the others.
std::vector<LoadedTrace> loadTraces(const std::vector<std::string>& paths, const std::atomic<bool>* cancel = nullptr,
    const std::function<void(size_t trace, uint64_t done, uint64_t total)>& progress = {});

// Gives memory the process has freed back to the system (after a cancelled or failed load), so
// that what the user sees in their system monitor drops too. A no-op where the C library has no
// way to do it.
void returnFreedMemoryToSystem();

} // namespace fusiondiff
