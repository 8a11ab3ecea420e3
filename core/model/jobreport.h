#pragma once

#include "model/steptime.h"
#include "model/timegap.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace fusiondiff {

// Two multi-rank runs compared as jobs (docs/report-format.md, "Jobs"): plain structs that the
// writers and the app present. Made by core/runs/ (runs/jobanalysis.h); FusionReport::job holds
// one when a side has more than one rank.

// A time by name (a kernel type, an idle cause, a host code).
struct NamedTime
{
    std::string name;
    double timeUs = 0;
};

// One call of a collective on one rank, on that rank's own clock.
struct RankCollectiveCall
{
    std::string collective; // AllReduce, AllToAll, SendRecv, ... (ops/comparison/collectivecalls.h)
    std::string group; // the process group when the trace names it, else "" (one group: the world)
    int64_t messageBytes = -1; // from record_param_comms, -1 if not recorded
    int64_t sequence = -1; // its number in the group, from record_param_comms; -1 if not recorded
    double beginUs = 0; // its first kernel's start
    double endUs = 0; // its last kernel's end
    int32_t step = -1; // into RankSummary::steps; -1 outside every step
};

// What one rank trace says about its steps and collectives: the map step of a job comparison,
// made from one TraceStore (runs/ranksummary.h), small and made of plain values only, so that it
// can be made in another process and sent back.
struct RankSummary
{
    std::string path;
    std::string label; // the trace's label (stem and GPU)
    int32_t rank = -1;
    int32_t worldSize = -1; // -1: the trace does not say
    std::string rankSource; // "distributedInfo" or "file name"
    std::string processGroups; // pg_config, raw JSON, when the trace records it
    std::vector<StepRecord> steps; // the profiler steps (or the whole trace as one), busy and idle by cause
    // Per step: N of its ProfilerStep#N, -1 where the step has none (a step found from a Python
    // call, the whole trace); the job's steps are aligned across the ranks on these numbers.
    std::vector<int64_t> stepNumbers;
    // Per step: kernel time by kernel type without the collectives' kernels, largest first.
    std::vector<std::vector<NamedTime>> stepKernelTypesUs;
    // Per step: host-caused idle by host code, largest first (at most kMaxHostCodes).
    std::vector<std::vector<NamedTime>> stepHostIdleUs;
    std::vector<RankCollectiveCall> collectives; // in time order
    uint64_t kernels = 0;
    // Per phase of the iteration finder (ops/attribution/iterations.h; StepRecord::phase indexes
    // it): its distinct operations' names hashed, in hex, so that phases pair across ranks and jobs.
    std::vector<std::string> phaseSignatures;
    static constexpr size_t kMaxHostCodes = 8;
};

// One collective call matched across the ranks of a side that take part in it (the members of its
// process group): the call with the same sequence number in the group where the traces number
// them, else the n-th call of the collective in the group. Times on the reference rank's clock
// (JobSide::clockOffsetUs).
struct CollectiveInstance
{
    std::string collective;
    std::string group;
    int64_t messageBytes = -1;
    uint32_t call = 0; // n: the n-th call of this collective in this group
    int64_t sequence = -1; // the group's sequence number of the call, -1 where the traces do not record it
    // Per rank: whether it takes part. The others' arrival and end are 0, their wait and transfer 0.
    std::vector<bool> member;
    int32_t step = -1; // the job step it falls in (the first member's); -1: a step not every rank recorded
    // Per rank: the step of its own trace the call falls in (into RankSummary::steps as the rank
    // recorded them, before the job keeps the steps every rank recorded), -1 for none.
    std::vector<int32_t> rankStep;
    std::vector<double> arrivalUs; // per rank (index into JobSide::ranks): its kernel's start, aligned
    std::vector<double> endUs; // per rank, aligned
    std::vector<double> waitUs; // per rank: the last arrival minus its own
    std::vector<double> transferUs; // per rank: its kernel's time after the last arrival
    int32_t lastRank = -1; // index into JobSide::ranks
};

// One step of a job: it ends when its slowest rank ends.
struct JobStep
{
    double timeUs = 0; // the latest aligned end minus the earliest aligned begin over the ranks
    int32_t paceRank = -1; // index into JobSide::ranks: the rank whose step ends last
    // The rank the job waits for longest in this step (the largest delayUs, the measure straggler
    // entries rank by; -1: none), and the time its lateness cost the job: per instance it arrives
    // last at, its arrival minus the next latest.
    int32_t straggler = -1;
    double stragglerDelayUs = 0;
    double waitCausedUs = 0; // the others' wait on it, summed over ranks and instances
    int32_t medianRank = -1; // the rank of median step time
    int32_t phase = -1; // the phase most of its ranks run (into JobSide::phaseSignatures); -1: none
    int64_t number = -1; // N of the ProfilerStep#N every rank recorded it as; -1: steps without numbers
    // Per rank (index into JobSide::ranks): what its lateness cost the job in this step, summed over
    // the calls it arrives last at (its arrival minus the next latest); stragglerDelayUs is the
    // straggler's.
    std::vector<double> delayUs;
};

// One side of the job comparison: its ranks, their clock alignment and the matched collectives.
struct JobSide
{
    std::vector<RankSummary> ranks; // by rank number
    int32_t worldSize = 0;
    // Per rank: what to subtract from its timestamps to put it on the reference rank's clock (the
    // first rank's): the median over matched collectives of its end minus the reference's end.
    std::vector<double> clockOffsetUs;
    bool aligned = true; // false: too few collectives match, or their ends disagree (JobReport::notes say so)
    std::vector<CollectiveInstance> instances; // in the reference rank's time order
    std::vector<JobStep> steps;
    std::vector<double> waitUs; // per rank: collective wait in the compared steps
    std::vector<double> transferUs; // per rank: collective transfer in the compared steps
    std::vector<std::string> phaseSignatures; // the phases that lead a step (runs/jobphases.h)
    // The steps some ranks recorded and others did not (a profiler window that started or ended a
    // step apart), in words ("ProfilerStep#9 (ranks 2, 6)"): not job steps, their calls not measured.
    std::vector<std::string> partialSteps;
};

// A row of the `rank_times` table: one pair of ranks (one side may have none).
struct RankTimeRow
{
    std::array<int32_t, 2> rank { -1, -1 };
    std::array<double, 2> stepMedianUs {};
    std::array<double, 2> busyUs {}; // per step, median
    std::array<std::array<double, kIdleCauses>, 2> idleByCauseUs {}; // per step, mean
    std::array<double, 2> collectiveWaitUs {}; // totals over the compared steps
    std::array<double, 2> collectiveTransferUs {};
    std::array<uint64_t, 2> stepsLastToArrive {}; // steps in which it is the straggler
};

// A row of the `rank_collectives` table: one collective in one process group with one message size.
struct RankCollectiveRow
{
    std::string collective;
    std::string group;
    int64_t messageBytes = -1;
    std::array<uint64_t, 2> calls {}; // instances (calls matched across the ranks)
    std::array<double, 2> waitUs {}; // over every rank and instance
    std::array<double, 2> transferUs {}; // over every rank and instance
    std::array<int32_t, 2> lastRank { -1, -1 }; // the rank that arrives last most often
    std::array<uint64_t, 2> lastRankCalls {}; // how often it does
};

// A row of the `job_steps` table: the job's time per compared step on each side, with its parts
// taken on the rank that sets the pace.
struct JobStepRow
{
    uint32_t step = 0; // A's step
    uint32_t trace2Step = 0; // B's step compared with it: the same number unless phases order steps differently
    std::string phase; // "phase 1", ...; empty: a step in no phase on either side (the warm-up)
    std::array<double, 2> timeUs {};
    std::array<int32_t, 2> paceRank { -1, -1 };
    std::array<int32_t, 2> straggler { -1, -1 };
    std::array<double, 2> stragglerDelayUs {};
};

// A straggler found on a side: kind `straggler` in where_to_look_first (LookFirstKind::Straggler).
// The job's compared steps of one phase (JobStepRow::phase): their job time on each side.
struct JobPhaseRow
{
    std::string phase;
    uint64_t steps = 0;
    std::array<double, 2> medianUs {}; // per step
    std::array<double, 2> totalUs {};
};

struct Straggler
{
    Side slowerSide = Side::Trace1;
    int32_t rank = -1;
    // How much shorter the slower job's steps would be if the rank arrived with the next latest
    // rank at every collective it arrives last at, less the same on the other side; for the slower
    // job's stragglers at most the jobs' gap, for the faster job's taken with the slower job's
    // stragglers arriving with the others and at most the growth of the rank's own time between
    // collectives (docs/report-format.md, where_to_look_first).
    double stakeUs = 0;
    std::array<double, 2> delayUs {}; // its delay to the job on each side (JobStep::stragglerDelayUs summed)
    uint64_t steps = 0; // steps of the slower side in which it arrives last at a collective
    // In words: what it spends more time on (kernel types, idle by cause, host code) than the same
    // rank of the other job where the ranks pair, else than the median rank of those steps.
    std::string cause;
    std::string causeAgainstMedian; // against the median rank of the steps it holds up
};

struct JobReport
{
    std::array<JobSide, 2> sides;
    std::string pairing; // what was paired, in words
    std::vector<std::array<int32_t, 2>> rankPairs; // by rank number, -1 where a side has none
    std::array<int32_t, 2> detailedPair { 0, 0 }; // the ranks the detailed report compares
    std::vector<JobStepRow> steps; // the compared steps
    std::vector<JobPhaseRow> phases; // per pair of phases, in A's order; empty when neither job has phases
    // The job's gap over the compared steps: the pace rank's parts (gpu busy without collectives,
    // idle by cause), collective_wait, collective_transfer and rank_skew (the job's span beyond
    // the pace rank's own step), on each side; they add up to the job's time.
    std::vector<std::string> partKeys;
    std::array<std::vector<double>, 2> partsUs;
    std::array<double, 2> timeUs {}; // the job's time over the compared steps
    std::vector<RankTimeRow> rankTimes;
    std::vector<RankCollectiveRow> collectives; // by wait on the slower side, largest first
    std::vector<Straggler> stragglers; // the slower job's first, each by stake, largest first
    std::vector<std::string> notes; // clocks not aligned, world sizes differ, unmatched collectives
};

} // namespace fusiondiff
