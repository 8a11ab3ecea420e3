#pragma once

#include "model/tracestore.h"

#include <cstdint>
#include <string>
#include <vector>

namespace fusiondiff {
class Classifier;
} // namespace fusiondiff

namespace fusiondiff::test {

// What makes the straggler of a constructed multi-rank run slow.
enum class StragglerCause
{
    None, // no straggler: every rank runs the base trace
    SlowerKernels, // its kernels of one type run `factor` times as long
    HostStall, // its host stalls at the start of each call of a function (hoststall.h)
    // Its host stalls before it launches the last kernel of each step that the GPU waits for,
    // late in the step, before its all-reduce: the GPU idles `stallShareOfStep` of the median step.
    LateLaunch,
    // It does more work: a copy of every n-th kernel of `kernelType` runs right after it, with
    // n = 1 / (factor - 1) (factor 2: every kernel twice).
    ExtraWork,
};

struct MultiRankSpec
{
    size_t ranks = 4;
    int32_t straggler = -1;
    StragglerCause cause = StragglerCause::None;
    std::string kernelType = "GEMM"; // SlowerKernels: the classifier's category slowed
    double factor = 1.1; // SlowerKernels, ExtraWork
    double stallShareOfStep = 0.1; // HostStall, LateLaunch: the stall a step, as a share of the median step
    std::vector<bool> slowSteps; // the steps it straggles in (empty: every step)
    std::vector<double> clockOffsetsUs; // per rank: added to every timestamp (hosts' clocks differ)
    double transferUs = 150; // each all-reduce's time after the last rank arrives
    // Each all-reduce ends up to this much earlier or later on each rank (a fixed pattern by rank
    // and step): ends are never quite simultaneous, so the clocks align only approximately.
    double endJitterUs = 0;
    // Per rank: how late it starts each step (everything from the step's start on moves by it), in
    // every run built with this spec alike: the job's own skew, which a straggler's lateness may hide.
    std::vector<double> rankLateUs;
};

// N rank traces of one synchronous data-parallel job built from one real trace: every
// rank runs the base trace's GPU work, and at the end of each step (the kernels launched after the
// step began and before the next one began) an all-reduce (an NCCL kernel) that starts on each
// rank when its last kernel of the step ends and ends on every rank `transferUs` after the last
// rank arrives; everything a rank does afterwards moves by its kernel's time. The base trace's
// own collectives in a step synchronise the ranks too: each rank's n-th runs its recorded time
// after the last rank's arrival, and what the rank does afterwards moves by its wait. The straggler runs
// slower (its cause, in the chosen steps) and so arrives late. Each rank then gets its clock
// offset and distributedInfo (rank, world size).
struct MultiRankRun
{
    std::vector<TraceStore> ranks;
    std::vector<double> waitUs; // per rank: its collective wait over every step (the last arrival minus its own)
    double transferUs = 0; // per rank: transfer over every step
    double stragglerDelayUs = 0; // over every step: the straggler's arrival minus the next latest, where it is last
    // The last step's all-reduce's end, before the clocks' offsets: every run of one base trace
    // and skew starts alike, so one run's end less another's is the time its straggler added.
    double endUs = 0;
    size_t steps = 0;
    std::string stalledFunction; // HostStall: the function stalled
};

// `basePath`: the real trace, loaded once per rank.
MultiRankRun buildMultiRankRun(const std::string& basePath, const MultiRankSpec& spec, const Classifier& classifier);

} // namespace fusiondiff::test
