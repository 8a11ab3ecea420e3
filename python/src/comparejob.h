#pragma once

#include "model/analysisoptions.h"

#include <pybind11/pybind11.h>

#include <memory>
#include <optional>
#include <string>

namespace fusiondiff {
struct FusionReport;
struct JobReport;
} // namespace fusiondiff

namespace fusiondiff::python {

// What fusiondiff.compare was given, as fusiondiff-cli compare takes it (app/cli/cliarguments.h).
struct CompareRequest
{
    std::string traceA;
    std::string traceB;
    std::string classifier = "default";
    AnalysisOptions options;
    std::optional<std::string> captureA;
    std::optional<std::string> captureB;
    size_t threads = 0; // threads that parse and analyse, as --threads; 0: the machine's cores
    // Multi-rank runs (compare_runs): the job the pair traceA, traceB belongs to, added to the report.
    std::shared_ptr<const JobReport> job;
};

// Runs the comparison as fusiondiff-cli compare does (app/cli/clicommands.cpp: the rule file, the
// two traces on the core's threads, the captures, analyzeFusion) on a thread of its own, while the
// calling thread waits without the GIL. Every ~100 ms, and once the traces are read, the calling
// thread takes the GIL back, lets Python handle its signals (Ctrl+C raises KeyboardInterrupt there)
// and calls `progress(done_bytes, total_bytes)` (both traces' file bytes, when it changed). An
// exception from either, or `progress` returning False (fusiondiff.Cancelled), sets the core's
// cancel flag; the call returns once the thread has stopped, with that exception.
// Must be called with the GIL held. `pollSeconds` is the 0.1 s above (tests make it shorter).
std::shared_ptr<const FusionReport> runCompare(
    const CompareRequest& request, const pybind11::object& progress, double pollSeconds);

// How the last runCompare's thread ended: "finished", "cancelled" (the core threw Cancelled: the
// cancel flag reached the loader or the analysis), "cancelled between steps" (the flag was seen
// between them), "failed" or "none" (no compare yet). For the tests of cancellation.
const char* lastCompareOutcome();

} // namespace fusiondiff::python
