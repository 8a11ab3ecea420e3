#include "rankwindows.h"

#include "load/traceloader.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace fusiondiff::test {

namespace {

constexpr std::string_view kStepPrefix = "ProfilerStep#";
constexpr std::string_view kStepFunction = "train.py: train_step";

// The gap before copy `copy` + 1: varied by step, as a data loader's wait is.
double gapAfterUs(size_t copy)
{
    return 500 + 400 * double((copy * 3) % 5);
}

template<typename Event>
void addShifted(std::vector<Event>& into, const std::vector<Event>& from, double byUs, int64_t idShift)
{
    for (Event event : from) {
        event.ts += byUs;
        if constexpr (requires { event.correlation; }) {
            if (event.correlation != kNoId)
                event.correlation += idShift;
        }
        if constexpr (requires { event.externalId; }) {
            if (event.externalId != kNoId)
                event.externalId += idShift;
        }
        into.push_back(event);
    }
}

template<typename Event>
void shiftAll(std::vector<Event>& events, double byUs)
{
    for (Event& event : events)
        event.ts += byUs;
}

struct Extent
{
    double begin = std::numeric_limits<double>::max();
    double end = std::numeric_limits<double>::lowest();

    template<typename Event>
    void add(const std::vector<Event>& events)
    {
        for (const Event& event : events) {
            begin = std::min(begin, event.ts);
            end = std::max(end, event.ts + event.dur);
        }
    }
};

Extent extentOf(const TraceStore& store)
{
    Extent extent;
    extent.add(store.kernels);
    extent.add(store.gpuCopies);
    extent.add(store.runtimeCalls);
    extent.add(store.cpuOps);
    extent.add(store.annotations);
    return extent;
}

int64_t largestId(const TraceStore& store)
{
    int64_t largest = 0;
    for (const KernelEvent& kernel : store.kernels)
        largest = std::max({ largest, kernel.correlation, kernel.externalId });
    for (const RuntimeEvent& call : store.runtimeCalls)
        largest = std::max({ largest, call.correlation, call.externalId });
    for (const CpuOpEvent& op : store.cpuOps)
        largest = std::max(largest, op.externalId);
    for (const GpuCopyEvent& copy : store.gpuCopies)
        largest = std::max(largest, copy.correlation);
    return largest;
}

// What windowOf repeats: the recorded trace's events, moved out of its store.
struct Recorded
{
    std::vector<KernelEvent> kernels;
    std::vector<GpuCopyEvent> gpuCopies;
    std::vector<RuntimeEvent> runtimeCalls;
    std::vector<CpuOpEvent> cpuOps;
    std::vector<AnnotationEvent> annotations;
    std::vector<ModuleEvent> modules;
    std::vector<CommMessage> commMessages;
    std::vector<OpShapes> opShapes;
    std::vector<PythonFrameEvent> pythonFrames;
    std::vector<ThreadId> pythonThreads;

    explicit Recorded(TraceStore& store)
        : kernels(std::move(store.kernels))
        , gpuCopies(std::move(store.gpuCopies))
        , runtimeCalls(std::move(store.runtimeCalls))
        , cpuOps(std::move(store.cpuOps))
        , annotations(std::move(store.annotations))
        , modules(std::move(store.modules))
        , commMessages(std::move(store.commMessages))
        , opShapes(std::move(store.opShapes))
        , pythonFrames(std::move(store.pythonFrames))
        , pythonThreads(std::move(store.pythonThreads))
    {
        store.kernels.clear();
        store.gpuCopies.clear();
        store.runtimeCalls.clear();
        store.cpuOps.clear();
        store.annotations.clear();
        store.modules.clear();
        store.commMessages.clear();
        store.opShapes.clear();
        store.pythonFrames.clear();
        store.pythonThreads.clear();
    }
};

// The rank's trace with copies `first` .. `last` of its recorded step, copy c `offsets[c]` later.
void makeWindow(TraceStore& out, size_t first, size_t last, const std::vector<double>& offsets,
    const RankWindowSpec& spec, std::vector<double>& stepBegins)
{
    const int64_t idSpan = largestId(out) + 1;
    const Recorded base(out);
    Extent operators;
    operators.add(base.cpuOps);
    std::map<ThreadId, std::vector<PythonFrameEvent>> framesOf;
    const AnnotationEvent* step = nullptr;
    for (const AnnotationEvent& annotation : base.annotations) {
        if (!annotation.onGpu && out.name(annotation.name).starts_with(kStepPrefix))
            step = &annotation;
    }
    for (size_t copy = first; copy <= last; ++copy) {
        const double by = offsets[copy];
        const int64_t ids = int64_t(copy) * idSpan;
        const auto ops = uint32_t(out.cpuOps.size());
        addShifted(out.kernels, base.kernels, by, ids);
        addShifted(out.gpuCopies, base.gpuCopies, by, ids);
        addShifted(out.runtimeCalls, base.runtimeCalls, by, ids);
        addShifted(out.cpuOps, base.cpuOps, by, ids);
        addShifted(out.modules, base.modules, by, 0);
        for (CommMessage message : base.commMessages) {
            message.cpuOp += ops;
            out.commMessages.push_back(std::move(message));
        }
        for (OpShapes shapes : base.opShapes) {
            shapes.cpuOp += ops;
            out.opShapes.push_back(shapes);
        }
        for (const AnnotationEvent& annotation : base.annotations) {
            AnnotationEvent shifted = annotation;
            shifted.ts += by;
            if (&annotation == step) {
                if (!spec.numbered)
                    continue;
                shifted.name
                    = out.strings.intern(std::string(kStepPrefix) + std::to_string(spec.firstNumber + int64_t(copy)));
            }
            out.annotations.push_back(shifted);
        }
        for (const PythonFrameEvent& frame : base.pythonFrames) {
            PythonFrameEvent shifted = frame;
            shifted.ts += by;
            framesOf[base.pythonThreads[frame.thread]].push_back(shifted);
        }
        if (!spec.numbered) {
            const ThreadId main { step ? step->pid : 0, step ? step->tid : 0 };
            framesOf[main].push_back({ operators.begin + by, operators.end - operators.begin, 0,
                out.strings.intern(std::string(kStepFunction)) });
        }
        stepBegins[copy] = (spec.numbered && step ? step->ts : operators.begin) + by;
    }
    for (auto& [thread, frames] : framesOf) {
        std::stable_sort(frames.begin(), frames.end(),
            [](const PythonFrameEvent& a, const PythonFrameEvent& b) { return a.ts < b.ts; });
        for (PythonFrameEvent& frame : frames) {
            frame.thread = uint32_t(out.pythonThreads.size());
            out.pythonFrames.push_back(frame);
        }
        out.pythonThreads.push_back(thread);
    }
}

} // namespace

RankWindowJob buildRankWindowJob(const std::vector<std::string>& rankPaths, const RankWindowSpec& spec)
{
    RankWindowJob job;
    job.copies = spec.steps + 2;
    std::vector<TraceStore> bases;
    Extent all;
    for (const std::string& path : rankPaths) {
        bases.push_back(loadTrace(path));
        const Extent own = extentOf(bases.back());
        all.begin = std::min(all.begin, own.begin);
        all.end = std::max(all.end, own.end);
    }
    // Copy c starts c periods after the recording, every rank's at once, so that the ranks' waits
    // stay the recorded ones.
    std::vector<double> offsets(job.copies, 0.0);
    for (size_t copy = 1; copy < job.copies; ++copy)
        offsets[copy] = offsets[copy - 1] + (all.end - all.begin) + gapAfterUs(copy - 1);
    for (size_t r = 0; r < bases.size(); ++r) {
        const auto [first, last] = r < spec.windows.size() ? spec.windows[r] : std::pair<size_t, size_t>(1, spec.steps);
        std::vector<double> begins(job.copies, std::nan(""));
        TraceStore& rank = bases[r];
        makeWindow(rank, first, last, offsets, spec, begins);
        const double clock = r < spec.clockOffsetsUs.size() ? spec.clockOffsetsUs[r] : 0.0;
        shiftAll(rank.kernels, clock);
        shiftAll(rank.gpuCopies, clock);
        shiftAll(rank.runtimeCalls, clock);
        shiftAll(rank.cpuOps, clock);
        shiftAll(rank.annotations, clock);
        shiftAll(rank.modules, clock);
        shiftAll(rank.pythonFrames, clock);
        for (double& begin : begins)
            begin += clock;
        job.stepBeginUs.push_back(std::move(begins));
        job.ranks.push_back(std::move(rank));
    }
    return job;
}

} // namespace fusiondiff::test
