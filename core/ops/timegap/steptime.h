#pragma once

#include "model/steptime.h"
#include "ops/attribution/iterations.h"
#include "ops/timegap/drainedlaunch.h"

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace fusiondiff {

struct NotRecordedSpan;
struct TraceStore;

struct StepTimeTrace
{
    const TraceStore& store;
    const std::vector<HostStep>& steps; // the iteration finder's (empty: the whole trace is one step)
    // GPU time the trace holds no kernels for (ops/comparison/graphtail.h), counted busy; null: none.
    const std::vector<NotRecordedSpan>* notRecorded = nullptr;
};

// What the step-time basis of the time gap needs besides the report (ops/timegap/timegap.h).
struct StepTimeTotals
{
    std::array<double, 2> timeUs {}; // the compared steps' time
    std::array<double, 2> busyUs {}; // the union of GPU work inside them
    std::array<double, 2> copiesUs {}; // copy and memset durations that start inside them
    std::array<uint64_t, 2> copies {};
    std::array<double, 2> notRecordedUs {}; // not recorded spans that start inside them
    std::array<std::array<double, kIdleCauses>, 2> idleUs {};
    std::array<std::vector<bool>, 2> kernelInStep; // per kernel: it starts inside a compared step
    // Per side, by host code's pairing key: the launch idle after its gaps (drainedlaunch.h).
    std::array<std::map<std::string, DrainedLaunch>, 2> drainedLaunch;
    // Per side, by launch call's pairing key: the same launch idle by the launch call it was charged
    // to as launch idle, so that what a host entry claims of it comes off that launch's entry.
    std::array<std::map<std::string, DrainedLaunch>, 2> drainedIntoLaunch;
};

struct StepTimeAnalysis
{
    StepTimeReport report;
    StepTimeTotals totals;
};

// The steps of both traces with their GPU busy and idle time, every idle interval given one
// cause (model/steptime.h), the host code behind it named from the launching thread's innermost
// Python frame, operator or runtime call, and the host code of the two traces paired by name.
// Phases pair as the operation alignment pairs them (`phasePartners`); in a pair of phases the
// first min(n1, n2) steps of each side are compared. With `sidesInParallel` the two sides are
// measured at once, on two threads; the analysis is the same.
StepTimeAnalysis analyzeStepTime(const std::array<StepTimeTrace, 2>& traces, const std::vector<int64_t>& phasePartners,
    bool sidesInParallel = false);

} // namespace fusiondiff
