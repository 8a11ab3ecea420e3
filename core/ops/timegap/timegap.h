#pragma once

#include "model/categoryid.h"
#include "model/timegap.h"
#include "ops/comparison/collectivelaunches.h"
#include "ops/timegap/drainedlaunch.h"

#include <array>
#include <map>
#include <string>
#include <vector>

namespace fusiondiff {

struct CollectiveCall;
struct ComparedGraphKernel;
struct KernelRoles;
struct KernelTypes;
struct NotRecordedSpan;
struct StepTimeAnalysis;
struct TraceStore;

struct TimeGapInput
{
    std::array<const TraceStore*, 2> stores;
    std::array<const KernelTypes*, 2> types;
    const KernelRoles& roles;
    std::array<const std::vector<CollectiveCall>*, 2> collectiveCalls;
    const std::vector<std::string>& typeNames;
    std::array<std::string, 2> sideNames; // as the findings name the sides
    const StepTimeAnalysis* stepTime = nullptr; // the step-time basis, when the steps were measured
    // Per side, GPU time the trace holds no kernels for (ops/comparison/graphtail.h); null: none.
    std::array<const std::vector<NotRecordedSpan>*, 2> notRecorded {};
    bool sidesInParallel = false; // what reads one trace alone runs on a thread per side
};

// The kernels one operation ran under one role, per side, for "where to look first".
struct OpKernelTimes
{
    std::array<double, 2> timeUs {};
    std::array<uint64_t, 2> kernels {};
    std::array<std::vector<std::pair<std::string, double>>, 2> topKernels; // by time, the largest few
    std::vector<CategoryId> types; // of all its kernels, in category order
};

struct TimeGapAccounting
{
    TimeGap gap;
    // Kernels of matched pairs with as many kernels on each side, by operation (the pairs whose
    // counts differ are the op findings).
    std::map<std::string, OpKernelTimes> paired;
    std::map<std::string, OpKernelTimes> oneSide; // kernels of operations without a partner
    // Kernels outside the comparison (not compared or unattributed), by type name.
    std::map<CategoryId, OpKernelTimes> uncomparedByType;
    // Per side, by host code's pairing key: the launch idle after its gaps (StepTimeTotals).
    std::array<std::map<std::string, DrainedLaunch>, 2> drainedLaunch;
    std::array<std::map<std::string, DrainedLaunch>, 2> drainedIntoLaunch; // by launch call (StepTimeTotals)
    // Paired operations that launch a different number of communication kernels (their own entries).
    std::vector<CollectiveLaunchDifference> collectiveLaunches;
};

// Gives the graph kernels the graph comparison compared (ops/comparison/graphcomparison.h) their roles: the
// operation comparison leaves them out, so until then they are "not compared".
void addGraphRoles(KernelRoles& roles, const std::array<std::vector<ComparedGraphKernel>, 2>& compared,
    const std::vector<std::string>& patternNames);

// Splits the difference in GPU time between the two traces into parts by cause. Each kernel of
// either trace is counted in exactly one part: a communication kernel in "collectives", any other
// by the role the operation comparison gave it (paired -> speed, extra -> fusion, one side only,
// not compared, unattributed). The parts' deltas therefore add up to the gap; the residual part
// holds only the floating-point remainder. The wall-time basis adds the GPU's idle time and the
// overlap of concurrent kernels. GPU time a trace holds no kernels for (a graph launch that ran on
// after its last recorded kernel) is a part of its own on every basis, "not recorded".
TimeGapAccounting explainTimeGap(const TimeGapInput& input);

// The verdict in one line, on the headline's basis; a gap within run-to-run noise (each basis's
// `noise`, ops/timegap/significance.h) is said to be the same time "within run-to-run noise".
// `launchHidden` names the sides whose trace folds launch idle into kernel durations
// (synthetictiming.h): there the verdict names launch idle and the kernels' speed as one cause.
std::string timeGapVerdict(
    const TimeGap& gap, const std::array<std::string, 2>& names, std::array<bool, 2> launchHidden = { false, false });

} // namespace fusiondiff
