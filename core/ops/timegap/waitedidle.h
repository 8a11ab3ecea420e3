#pragma once

#include "model/steptime.h"
#include "model/tracestore.h"

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace fusiondiff {

// The idle one code, call or reason causes on one side (the step time's sums).
struct CauseSums
{
    std::string name;
    HostCodeKind kind = HostCodeKind::None;
    double idleUs = 0;
    double namedIdleUs = 0; // the idle of the code whose name `name` is (pairingKeys)
    uint64_t intervals = 0;
    uint64_t calls = 0;
    int64_t lastGap = -1;
    int64_t lastCall = -1;
    std::vector<double> byPhase;
    double drainedLaunchUs = 0; // IdleCauseEntry::drainedLaunchUs
    uint64_t drainedLaunches = 0;
};

using CauseKey = std::pair<int, std::string>; // (IdleCause, pairing key)

// A host code's own time (children left out) on the launching threads inside the compared steps,
// and the launching thread it ran on longest.
struct CodeOwnTime
{
    double us = 0;
    ThreadId home;
    double homeUs = 0;
};

// What one side's step time hands the transfer below.
struct WaitedIdleSide
{
    std::map<CauseKey, CauseSums>& causes;
    const std::map<std::string, CodeOwnTime>& ownByKey; // by pairing key (idlePairingKey); no runtime calls
    StepTimeSide& out;
};

// Idle that waited for another thread. A launching thread that waits for another one (the main
// thread for the autograd thread) runs late from then on, and the GPU idles while it runs its
// next code: that code is charged idle its own time does not explain. Where a side's host idle of a
// code grew beyond its own time's growth, and the own time of code on ANOTHER launching thread
// grew without idle to show for it, the excess is that code's: it moves there, largest growth
// first, as whole listed idle intervals (the last one split). Per-cause totals do not change.
// Returns a note per side that moved idle.
std::vector<std::string> chargeWaitsToOtherThreads(
    std::array<WaitedIdleSide, 2> sides, const std::array<std::string, 2>& sideLetters);

} // namespace fusiondiff
