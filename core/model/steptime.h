#pragma once

#include "model/opreport.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace fusiondiff {

// Why the GPU ran nothing for a while. Every idle interval of a trace has exactly one cause, so
// the causes add up to the idle time (docs/operations.md, "Step time").
enum class IdleCause : uint8_t
{
    Host, // the host had not yet launched the next GPU work and was running code
    Sync, // the host was blocked in a call that waits for the GPU (synchronize, blocking copy)
    Launch, // the next work was launched but started late (launch latency, graph launch cost)
    BetweenSteps, // outside every compared step
    Other, // none of these explains it (the trace says too little: IdleInterval::reason)
};
inline constexpr size_t kIdleCauses = 5;
const char* idleCauseKey(IdleCause cause); // "host", "sync", "launch", "between_steps", "other_idle"

// What kind of host code a name is.
enum class HostCodeKind : uint8_t
{
    Python, // a Python function ("models/llama.py: forward"), without its line number
    Operator, // a PyTorch operator ("aten::linear")
    Runtime, // a CUDA/HIP runtime or driver call ("hipStreamSynchronize")
    None, // no recorded host code covers the time, or the cause names none
};
const char* hostCodeKindKey(HostCodeKind kind); // "python", "operator", "runtime", "none"

// One stretch of time the GPU ran no kernel, copy or memset, with its cause. For the app's
// timeline shading and drill-down; the sums are in StepRecord and the tables.
struct IdleInterval
{
    double begin = 0; // microseconds, the trace's clock
    double end = 0;
    IdleCause cause = IdleCause::Other;
    int32_t step = -1; // into StepTimeSide::steps; -1 between the steps
    int32_t code = -1; // into StepTimeSide::codes: the host code (host), the call (sync, launch), the reason (other)
};

// A host code or call name of one side, as the intervals and tables refer to it.
struct HostCode
{
    std::string name;
    HostCodeKind kind = HostCodeKind::None;
    // The code its calls run inside for more than half their time (the recorded event around them,
    // runtime calls aside), into the same codes; -1: none. Following callers gives the chain above a code.
    int32_t caller = -1;
};

// One step of one trace: from its host start to the latest of its last GPU work's end, its host end
// and the next step's start (not before the previous step's end: pipelined steps count time once).
struct StepRecord
{
    int32_t phase = -1; // into StepTimeReport::phases; -1: not compared
    double begin = 0; // microseconds, the trace's clock
    double end = 0;
    double busyUs = 0; // the union of kernel, copy, memset and not recorded time inside [begin, end)
    // GPU time of graph launches after their last recorded kernel, counted busy (GapCause::NotRecorded).
    double notRecordedUs = 0;
    std::array<double, kIdleCauses> idleUs {}; // by IdleCause; between_steps stays 0 inside a step
    uint64_t kernels = 0; // kernels that start inside it

    double timeUs() const { return end - begin; }
    double idleTotalUs() const;
};

// A stretch of one trace's clock (microseconds).
struct TimeSpan
{
    double begin = 0;
    double end = 0;
};

// One trace's steps and GPU idle time.
struct StepTimeSide
{
    std::vector<StepRecord> steps; // in time order, compared or not
    // The idle intervals of at least StepTimeReport::kShownIdleUs, in time order; at most
    // kMaxIdleIntervals (StepTimeReport::notes says when more were left out).
    std::vector<IdleInterval> idle;
    std::vector<HostCode> codes;
    // GPU time of graph launches after their last recorded kernel (GapCause::NotRecorded), in time
    // order: busy, though the trace holds no kernels for it.
    std::vector<TimeSpan> notRecorded;
    std::array<double, kIdleCauses> idleUs {}; // the whole trace's idle time by cause, all intervals
    double gpuSpanUs = 0; // first GPU work's start to the last one's end
    uint64_t launchingThreads = 0; // host threads whose calls launched GPU work
    bool hostEvents = false; // the trace records runtime calls that launched its GPU work
};

// A row of the `step_times` table: one phase's compared steps, or all of them.
struct StepTimeRow
{
    std::string phase; // "phase 1" ... or "all steps"
    std::array<uint64_t, 2> steps {};
    std::array<Spread, 2> timeUs {}; // per step: median and quartiles
    std::array<double, 2> busyUs {}; // per step, median
    std::array<double, 2> notRecordedUs {}; // per step, mean: the part of busy the trace holds no kernels for
    std::array<double, 2> idleUs {}; // per step, median
    std::array<std::array<double, kIdleCauses>, 2> idleByCauseUs {}; // per step, mean (they add up to the mean idle)
    std::array<double, 2> totalUs {}; // the compared steps' time, summed
};

// A row of the `host_time` table: one host code, named alike on both sides (Python frames
// without line numbers, operators and calls by name), with its own time per compared step and
// the GPU idle it caused.
struct HostTimeRow
{
    std::string code;
    HostCodeKind kind = HostCodeKind::None;
    std::array<double, 2> ownUsPerStep {}; // its own time (children left out) on the launching threads, per step
    std::array<double, 2> idleUsPerStep {}; // host-caused idle charged to it, per step
    std::array<double, 2> idleUs {}; // the same, over all compared steps
};

// What one host code, sync call or launch call costs in GPU idle on each side, paired by name
// ("where to look first" ranks these).
struct IdleCauseEntry
{
    IdleCause cause = IdleCause::Host;
    std::string key; // the pairing key: the code's name; for calls, without the cuda/hip/cu prefix
    std::array<std::string, 2> name; // as each side names it (empty where a side has none)
    HostCodeKind kind = HostCodeKind::None;
    std::array<double, 2> idleUs {}; // in the compared steps
    std::array<uint64_t, 2> intervals {}; // idle intervals charged to it
    std::array<uint64_t, 2> calls {}; // for sync and launch: the calls behind those intervals
    std::string phase; // the phase where it costs most on the slower side
};

struct StepTimeReport
{
    static constexpr double kShownIdleUs = 2.0; // shorter idle intervals count but are not listed
    static constexpr size_t kMaxIdleIntervals = 200000; // per side

    std::array<StepTimeSide, 2> sides;
    std::vector<std::string> phases; // "phase 1", ...: the phases compared (paired), in trace 1's order
    std::vector<StepTimeRow> rows; // a row per compared phase, then "all steps" (when more than one phase)
    std::vector<HostTimeRow> hostTime; // by the larger own time per step, largest first; at most kMaxHostRows
    std::vector<IdleCauseEntry> causes; // host, sync, launch and other entries, by |A - B| largest first
    std::vector<std::string> notes; // thin input: no steps, no host events, several threads, clocks
    bool headline = false; // the time gap's headline is on the step-time basis
    bool notRecorded = false; // a side's steps hold GPU time the trace has no kernels for (StepRecord::notRecordedUs)
    static constexpr size_t kMaxHostRows = 200;
};

} // namespace fusiondiff
