#pragma once

#include "model/tracestore.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fusiondiff::test {

// The host code to stall in trace B of a host-stall pair: one Python function or operator on the
// thread that launches most GPU work, and the stall at the start of each of its calls.
// Where the stalled code is: which events name it, on which thread.
enum class StallSite
{
    Function, // a Python function (an operator where the trace records no Python frames), main launching thread
    Operator, // a PyTorch operator, main launching thread
    Region, // a record_function region (a user_annotation event), main launching thread
    Module, // an nn.Module call ("nn.Module: Linear_77"), main launching thread
    StepTail, // the end of every step on the host, after its last launch: named by nothing the constructor knows
    OtherThread, // an operator on the launching thread with the second most launches (the autograd thread)
    Backward, // an operator called inside a backward node (autograd::engine::evaluate_function)
};
// The compared steps as the comparison finds them, roughly: the profiler steps (not on the GPU)
// less the warm-up where there are three or more; empty where the trace has none.
std::vector<std::pair<double, double>> stepsOf(const TraceStore& store);

const char* stallSiteName(StallSite site); // "function", "operator", "region", "module", "tail", "thread2", "backward"
bool stallSiteOfName(std::string_view name, StallSite& site);

struct HostStall
{
    std::string function; // as the report should name it: a Python frame without its line number, an
                          // operator, a region's name, "nn.Module: Name_N"; for a step tail, the step prefix
    bool isOperator = false;
    double stallUs = 0;
    uint64_t calls = 0; // its calls inside the steps (stallHost stalls those outside too)
    StallSite site = StallSite::Function;
    ThreadId thread; // the stalled thread
    // Only the calls in every other compared step are stalled (the second, the fourth...; without
    // two compared steps, every other call): steps of two lengths, as a stall on some inputs only.
    bool everyOtherStep = false;
};

// The `rank`-th candidate (in a seed's order) to stall in `store` at `site`: code that runs one to
// eight times a step, stalled by `shareOfStep` of the median step divided by its calls a step.
// Empty function when there is none.
HostStall chooseStall(
    const TraceStore& store, uint64_t seed, size_t rank, double shareOfStep, StallSite site = StallSite::Function);

// Makes trace B from a real trace A (loaded into `store`, which becomes B): `stall.thread` stalls
// `stall.stallUs` at the start of every call of `stall.function` there, before its callees, even one
// that starts and ends with the call to the trace's rounding (for a step tail: just
// before each step's end on the host, so that the step's host part runs that much longer). Everything
// the host does afterwards, on every thread, happens that much later (per stall so far), until a
// call that waits for the GPU returns: a synchronization, a blocking copy, a copy whose transfer
// ended before the call returned, a launch that waited for room in the queue (far longer than
// its name's median). Such a call returns as long after the work it waited for as in A, so where
// the GPU absorbed the stall the host gets its time back. GPU work (kernels, copies, memsets) is
// ready at the latest of the end of the work before it on its stream and its launch (its launch
// call's end where it started after that in A) plus the launch latency (the smaller of its own
// launch-to-start time and the trace's 10th percentile, at most 10 us); in B it is ready when
// those are, moved. Work that started later than ready in A waited for the work on its device
// that ended just before (10 us) it started, and follows that work's new end, or for something
// outside the trace (another process, a peer), which does not move: so work already queued, or
// waiting anyway, absorbs a stall. Returns the calls stalled (with `everyOtherStep`, all inside
// the compared steps). The other threads' own
// synchronizations keep their durations.
uint64_t stallHost(TraceStore& store, const HostStall& stall);

} // namespace fusiondiff::test

namespace fusiondiff {
struct FusionReport;
} // namespace fusiondiff

namespace fusiondiff::test {

// How a comparison of A against its host-stall pair B did.
struct StallScore
{
    bool onStepTime = false; // the headline is on the step time
    double stepGapUs = 0; // B - A in the compared steps' time
    double headlineDeltaUs = 0; // B - A as the headline says
    double idleCausedUs = 0; // B's GPU idle in the compared steps less A's
    std::string firstKind; // where to look first's first entry: "host", "speed", ...
    std::string firstOp;
    double firstStakeUs = 0;
    bool firstIsStall = false; // a host entry naming the stalled function (for a step tail: any host entry)
    double stallStakeUs = 0; // the stake of the host entry naming the stalled function, wherever it ranks
};

StallScore scoreStall(const FusionReport& report, const HostStall& stall);

// The wall time of a trace's steps, read from the trace alone (not from the analysis): from the
// start of the first step compared (the profiler steps that launch GPU work less the warm-up, else
// the first launch; with steps, no earlier than the end of the GPU work launched before it)
// to the later of the last GPU work's end and the last step's end on the host. Kernel times are
// the same in A and its host-stall pair B, so B's minus A's is the idle the stall caused.
double stepsWallUs(const TraceStore& store);

} // namespace fusiondiff::test
