#include "comparejob.h"

#include "pyerrors.h"

#include "classify/classifier.h"
#include "fusionanalysis.h"
#include "load/capturetrace.h"
#include "load/traceset.h"
#include "runs/jobcompare.h"
#include "util/inputerror.h"

#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>

namespace py = pybind11;

namespace fusiondiff::python {

namespace {

std::atomic<const char*> g_lastOutcome { "none" };

// The cancel flag seen between the steps (after loading, between the captures) rather than by the
// core: told apart for the tests, which show that the flag reaches the core's loader.
struct CancelledBetweenSteps : Cancelled
{
};

// What the comparison thread shares with the calling thread.
struct SharedState
{
    std::atomic<bool> cancel { false };
    std::array<std::atomic<uint64_t>, 2> done {};
    std::array<std::atomic<uint64_t>, 2> total {};
    std::atomic<bool> tracesRead { false };

    std::mutex mutex;
    std::condition_variable finishedChanged;
    bool finished = false; // under mutex
    std::shared_ptr<const FusionReport> report; // set before finished
    std::exception_ptr error; // set before finished
};

// Throws the first failed trace's error; when both failed, with the other's message as a note,
// so that the user sees both, as fusiondiff-cli prints both.
void throwLoadErrors(const std::vector<LoadedTrace>& traces)
{
    std::exception_ptr first;
    std::string others;
    for (const LoadedTrace& trace : traces) {
        if (!trace.error)
            continue;
        if (!first) {
            first = trace.error;
            continue;
        }
        try {
            std::rethrow_exception(trace.error);
        } catch (const std::exception& error) {
            others += std::string(others.empty() ? "" : "\n") + "also: " + error.what();
        }
    }
    if (!first)
        return;
    if (others.empty())
        std::rethrow_exception(first);
    try {
        std::rethrow_exception(first);
    } catch (const InputError& error) {
        throw InputErrorWithNote(error, others);
    }
}

std::shared_ptr<const FusionReport> compareOnThisThread(const CompareRequest& request, SharedState& state)
{
    // Check the rule file before spending time on the traces, as the CLI does.
    const Classifier classifier = Classifier::load(request.classifier);
    const std::vector<LoadedTrace> traces = loadTraces(
        { request.traceA, request.traceB }, &state.cancel,
        [&state](size_t trace, uint64_t done, uint64_t total) {
            state.done[trace] = done;
            state.total[trace] = total;
        },
        request.threads);
    state.tracesRead = true;
    if (state.cancel) {
        for (const LoadedTrace& trace : traces) {
            if (trace.error)
                std::rethrow_exception(trace.error); // the loader's Cancelled, most likely
        }
        throw CancelledBetweenSteps();
    }
    throwLoadErrors(traces);

    std::array<std::optional<CaptureTrace>, 2> captures;
    for (size_t side = 0; side < 2; ++side) {
        const std::optional<std::string>& path = side == 0 ? request.captureA : request.captureB;
        if (path)
            captures[side] = loadCaptureTrace(*path);
        if (state.cancel)
            throw CancelledBetweenSteps();
    }
    AnalysisOptions options = request.options;
    options.threads = request.threads;
    FusionReport report = analyzeFusion(*traces[0].store, *traces[1].store,
        { captures[0] ? &*captures[0] : nullptr, captures[1] ? &*captures[1] : nullptr }, classifier, options,
        &state.cancel);
    if (request.job)
        addJobToReport(report, request.job);
    return std::make_shared<const FusionReport>(std::move(report));
}

} // namespace

const char* lastCompareOutcome()
{
    return g_lastOutcome;
}

std::shared_ptr<const FusionReport> runCompare(
    const CompareRequest& request, const py::object& progress, double pollSeconds)
{
    const auto pollInterval = std::chrono::duration<double>(pollSeconds);
    auto state = std::make_shared<SharedState>();
    std::thread worker([request, state] {
        std::shared_ptr<const FusionReport> report;
        std::exception_ptr error;
        try {
            report = compareOnThisThread(request, *state);
            g_lastOutcome = "finished";
        } catch (const CancelledBetweenSteps&) {
            error = std::current_exception();
            g_lastOutcome = "cancelled between steps";
        } catch (const Cancelled&) {
            error = std::current_exception();
            g_lastOutcome = "cancelled";
        } catch (...) {
            error = std::current_exception();
            g_lastOutcome = "failed";
        }
        if (error || state->cancel)
            returnFreedMemoryToSystem();
        const std::lock_guard lock(state->mutex);
        state->report = std::move(report);
        state->error = error;
        state->finished = true;
        state->finishedChanged.notify_all();
    });

    // Whatever leaves this function early (KeyboardInterrupt, the callback's exception, Cancelled)
    // stops the thread first and waits for it, without the GIL.
    struct StopOnExit
    {
        std::thread& worker;
        SharedState& state;
        // NOLINTNEXTLINE(bugprone-exception-escape): join throws only for a thread not joinable, checked first
        ~StopOnExit()
        {
            if (!worker.joinable())
                return;
            state.cancel = true;
            const py::gil_scoped_release release;
            worker.join();
        }
    } stopOnExit { worker, *state };

    uint64_t reportedDone = ~uint64_t(0);
    uint64_t reportedTotal = ~uint64_t(0);
    bool reportedRead = false;
    for (bool finished = false; !finished;) {
        {
            const py::gil_scoped_release release;
            std::unique_lock lock(state->mutex);
            finished = state->finishedChanged.wait_for(lock, pollInterval, [&] { return state->finished; });
        }
        if (PyErr_CheckSignals() != 0)
            throw py::error_already_set();
        if (progress.is_none() || reportedRead)
            continue;
        const bool read = state->tracesRead;
        const uint64_t total = state->total[0] + state->total[1];
        const uint64_t done = read ? total : state->done[0] + state->done[1];
        if ((total > 0 || read) && (done != reportedDone || total != reportedTotal)) {
            reportedDone = done;
            reportedTotal = total;
            reportedRead = read;
            if (progress(done, total).is(py::bool_(false)))
                throwCancelled();
        }
    }
    worker.join();
    if (state->error)
        std::rethrow_exception(state->error);
    return state->report;
}

} // namespace fusiondiff::python
