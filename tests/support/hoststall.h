#pragma once

#include <cstdint>
#include <string>

namespace fusiondiff {
struct TraceStore;
} // namespace fusiondiff

namespace fusiondiff::test {

// The host code to stall in trace B of a host-stall pair: one Python function or operator on the
// thread that launches most GPU work, and the stall at the start of each of its calls.
struct HostStall
{
    std::string function; // as the report names it (a Python frame without its line number, an operator)
    bool isOperator = false;
    double stallUs = 0;
    uint64_t calls = 0; // its calls inside the steps (stallHost stalls those outside too)
};

// The `rank`-th candidate (in a seed's order) to stall in `store`: a Python function (an operator
// where the trace records no Python frames) on the main launching thread that runs one to eight
// times a step, stalled by `shareOfStep` of the median step divided by its calls a step. Empty
// function when there is none.
HostStall chooseStall(const TraceStore& store, uint64_t seed, size_t rank, double shareOfStep);

// Makes trace B from a real trace A (loaded into `store`, which becomes B): the main launching
// thread stalls `stall.stallUs` at the start of every call of `stall.function` there. Everything
// that thread does afterwards happens that much later (per stall so far); other host threads run
// as recorded (what they wait for on the stalled thread is not modelled). GPU work (kernels, copies, memsets)
// launched after a stall starts later, except where work already queued on the GPU absorbs it:
// a piece of work starts at the latest of its original start, its launch's new time plus the
// launch latency (the smaller of its own launch-to-start time and the trace's 10th percentile, at most 10 us),
// and the new end of the work before it on its stream. Returns the calls stalled. A blocking
// call keeps its duration: where the GPU absorbs a stall, the host in B waits longer in the
// synchronization after it than it would (so the answer is exact where the GPU cannot absorb).
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
    bool firstIsStall = false; // a host entry naming the stalled function
};

StallScore scoreStall(const FusionReport& report, const HostStall& stall);

} // namespace fusiondiff::test
