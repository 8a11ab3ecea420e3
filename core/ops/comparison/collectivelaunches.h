#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace fusiondiff {

struct CollectiveCall;
struct FusionReport;
struct LookFirstEntry;
struct KernelRoles;
struct TraceStore;

// An operation both traces run (its calls paired) whose calls launch communication kernels on both
// sides, a different number of them: a gradient bucket sent as two all-reduces, an all-reduce run as a
// reduce-scatter and an all-gather. The time gap counts these kernels as collectives, and the
// operation comparison makes no finding of a pair that differs only in them
// (ops/comparison/collectivepart.h); this names the operation that launches them, with their time.
struct CollectiveLaunchDifference
{
    std::string op; // the pair's name, as the op findings name it ("A's op / B's op")
    std::array<uint64_t, 2> kernels {}; // communication kernels in all its paired calls
    std::array<double, 2> timeUs {};
    std::array<std::vector<std::string>, 2> collectives; // the collectives they run, in name order
};

// From the roles the operation comparison gave the kernels and each side's collective calls; by
// the difference in time, largest first.
std::vector<CollectiveLaunchDifference> collectiveLaunchDifferences(const KernelRoles& roles,
    const std::array<const std::vector<CollectiveCall>*, 2>& collectiveCalls,
    const std::array<const TraceStore*, 2>& stores);

// Its "where to look first" entry (a fusion entry: the operation runs more kernels on one side):
// the operation, the communication kernels each side launches in it and their time.
LookFirstEntry collectiveLaunchEntry(const FusionReport& report, const CollectiveLaunchDifference& difference);

} // namespace fusiondiff
