#pragma once

#include "model/categoryid.h"
#include "util/side.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fusiondiff {

// Why part of the time gap between the two traces exists. Every kernel of both traces lands in
// exactly one part, so the parts add up to the gap (an accounting identity, not a fit).
enum class GapCause
{
    Fusion, // kernels one side runs where the other has none, inside operations that pair up
    Speed, // the paired kernels of operations that pair up: the same work, faster or slower
    Collectives, // communication kernels (all-reduce, all-to-all, ...), wherever they run
    OneSide, // operations only one side runs (they found no partner in the alignment)
    NotCompared, // attributed kernels outside what was compared (warm-up step, unpaired phase, other workload)
    Unattributed, // kernels whose launch is not in the trace (before the profiler's CPU window)
    Overlap, // wall-time basis only: kernels on concurrent streams (their durations overlap)
    Idle, // wall-time basis only: the GPU runs no kernel
    Copies, // step-time basis only: copies and memsets on the device
    IdleHost, // step-time basis only: idle while the host runs code before the next launch
    IdleSync, // step-time basis only: idle while the host waits for the GPU in a blocking call
    IdleLaunch, // step-time basis only: idle between a launch and the start of its work
    IdleOther, // step-time basis only: idle the trace does not explain (no host events, clocks)
    // GPU time of a graph launch after its last recorded kernel (ops/comparison/graphtail.h): the
    // launch ran on, but the trace holds no kernels for that time. On every basis, so that the
    // totals are the time the GPU took, not the time the trace records.
    NotRecorded,
    Residual, // what nothing above explains: the floating-point remainder of the identity
};
const char* gapCauseKey(GapCause cause); // "fusion", "speed", "collectives", "one_side", ...

// One of the largest contributors to a part: an operation, a collective, a kernel type.
struct GapContributor
{
    std::string name;
    double deltaUs = 0; // trace1 - trace2
    std::array<double, 2> timeUs {};
    std::array<uint64_t, 2> kernels {};
};

struct TimeGapPart
{
    GapCause cause = GapCause::Residual;
    std::string label; // short, for a chart's axis: "speed", "extra kernels", "collectives", ...
    std::string title; // in words: "speed: the paired kernels of operations that pair up, faster or slower"
    double deltaUs = 0; // trace1 - trace2: what this part adds to the gap
    std::array<double, 2> timeUs {}; // the time of each side this part covers
    std::array<uint64_t, 2> kernels {};
    std::vector<GapContributor> top; // the largest contributors by |delta|, at most a few
};

enum class TimeBasis
{
    GpuKernelTime, // the sum of all kernel durations (concurrent kernels count in full)
    GpuWallTime, // from the first kernel's start to the last kernel's end
    StepTime, // the compared steps, each from its start on the host to the end of its last GPU work
};
const char* timeBasisKey(TimeBasis basis); // "gpu_kernel_time", "gpu_wall_time", "step_time"

// Whether a difference is larger than two runs of the same build could make it
// (ops/timegap/significance.h; the rule: docs/report-format.md, "Run-to-run noise").
enum class NoiseVerdict
{
    Significant, // larger than the noise
    WithinNoise, // no larger than the noise
    CannotTell, // part of it is time whose run-to-run spread the traces do not show (one step a side)
};
const char* noiseVerdictKey(NoiseVerdict verdict); // "significant", "within_noise", "cannot_tell"

struct GapNoise
{
    NoiseVerdict verdict = NoiseVerdict::Significant;
    double noiseUs = 0; // the largest |delta| noise explains: max(spreadUs, floorUs)
    double spreadUs = 0; // twice the standard error of the delta, from the steps' or the calls' spread
    double floorUs = 0; // the run-to-run floor: a share of the faster side's time
    double stepSpreadUs = 0; // step time: half the larger interquartile range of the steps (0: not measured)
    std::string basis; // what the spread comes from: "steps", "calls", "floor"
    std::string reason; // in words
    // Step time: the compared phases with too few steps to measure their spread, in words ("one
    // step a side", "one step a side in phase 1"); empty when every phase has enough.
    std::string fewSteps;

    bool significant() const { return verdict == NoiseVerdict::Significant; }
};

struct TimeGapBreakdown
{
    TimeBasis basis = TimeBasis::GpuKernelTime;
    std::string description;
    std::array<double, 2> timeUs {};
    double deltaUs = 0; // trace1 - trace2 == the sum of the parts' deltaUs
    std::vector<TimeGapPart> parts; // by |delta|, largest first; the residual last
    GapNoise noise; // whether deltaUs is beyond run-to-run noise

    // |delta| over the faster side's time (0 when that is 0).
    double share() const;
    Side slowerSide() const { return deltaUs > 0 ? Side::Trace1 : Side::Trace2; }
};

// The whole gap between the two traces, explained.
struct TimeGap
{
    std::string verdict; // "A is slower than B by X (Y%): ..." in one line
    TimeGapBreakdown kernelTime;
    std::optional<TimeGapBreakdown> wallTime; // when both traces run kernels
    // The compared steps' time (model/steptime.h), when both traces have GPU work in them; the
    // headline when the traces have steps, or idle time that matters.
    std::optional<TimeGapBreakdown> stepTime;
    bool onStepTime = false; // the verdict and the headline are on the step time
    // The traces do not run the same work (OpAlignment::differentWork): the verdict says so first,
    // and the gap compares different workloads.
    bool differentWork = false;

    // The breakdown the verdict leads with.
    const TimeGapBreakdown& headline() const { return onStepTime && stepTime ? *stepTime : kernelTime; }
};

// What kind of difference a "where to look first" entry is about.
enum class LookFirstKind
{
    Fusion, // an operation that runs a different number of kernels (an op finding)
    Speed, // an operation that runs the same kernels, slower on one side
    Collective, // a collective, by the implementations each side uses
    OneSide, // an operation only one side runs
    KernelType, // a kernel type's whole-trace time (when operations cannot be compared)
    Host, // host code that keeps the GPU idle (the idle it causes in the compared steps)
    Sync, // a blocking call that waits for the GPU
    Launch, // a launch call whose work starts late
    Straggler, // a rank of a multi-rank job that the others wait for (model/jobreport.h)
};
const char* lookFirstKindKey(
    LookFirstKind kind); // "fusion", "speed", ..., "kernel_type", "host", "sync", "launch", "straggler"

struct LookFirstEntry
{
    LookFirstKind kind = LookFirstKind::Speed;
    std::string title; // one line
    std::vector<std::string> details; // the explanation, spreads, implementations
    std::vector<CategoryId> types; // kernel types involved
    std::vector<std::string> kernels; // kernel names involved (the largest few)
    uint64_t calls = 0;
    std::array<double, 2> timeUs {}; // what each side spends on it
    double stakeUs = 0; // |trace1 - trace2|: the rank key
    Side slowerSide = Side::Trace1;
    bool againstGap = false; // its slower side is the faster side of the whole comparison
    // The slower side's time minus the other's (== stakeUs) in two signed parts that add up to it
    // (OpFinding::savingUs); an entry compared by kernel type only has neither part.
    double savingUs = 0;
    double savingExtraKernelsUs = 0;
    double savingSpeedUs = 0;
    std::string op; // the operation or collective it is about
    // Whether its stake is beyond run-to-run noise (from its calls' spread); entries within noise
    // rank after the others.
    NoiseVerdict noise = NoiseVerdict::Significant;
    double noiseUs = 0;
    int32_t rank = -1; // a straggler's rank on the slower side; -1 for the other kinds
};

// Calls of one collective that the two traces run with one pair of implementations (and message
// sizes, when the trace records them). The k-th call of a collective on A pairs with the k-th on B.
struct CollectiveCallGroup
{
    std::string collective; // AllReduce, AllToAll, ...
    std::array<std::string, 2> implementation; // empty where that side has no paired call
    std::array<std::string, 2> operation; // the operation that launched them ("vllm::all_reduce")
    std::array<int64_t, 2> messageBytes { -1, -1 }; // per call, -1 when the trace does not say
    std::array<uint64_t, 2> calls {};
    std::array<double, 2> timeUs {};
};

} // namespace fusiondiff
