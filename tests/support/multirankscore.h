#pragma once

#include "model/jobreport.h"
#include "multirankrun.h"

#include <string>

namespace fusiondiff {
class Classifier;
} // namespace fusiondiff

namespace fusiondiff::test {

// One held-out-like job comparison: a run built from `trace` with a straggler (multirankrun.h),
// against the same run without it, the straggler in A or in B; the job's own skew (some ranks
// start their steps late, in both runs alike) may hide part of a small straggler.
struct RankScoreCase
{
    std::string trace;
    size_t ranks = 4;
    int32_t straggler = 1;
    StragglerCause cause = StragglerCause::SlowerKernels;
    double factor = 1.3; // SlowerKernels, ExtraWork
    double stallShareOfStep = 0.1; // HostStall, LateLaunch
    bool inA = false; // the straggler in A (B is the run without it)
    double skewShareOfStep = 0.01; // the latest rank's lateness a step, as a share of the median step
};

// The four acceptance checks on one case:
// - the slower job, by the time the straggler added (within 10%, and the jitter's bound);
// - a straggler entry for the straggler's rank, of the slower side, first in "where to look first"
//   on the detailed pair, with its cause in words that fit it;
// - the detailed pair's entries that explain the gap (the straggler's left out) add up to no more
//   than the job lost (within 10%, and the jitter's bound): a rank's growth its waits absorbed is
//   no job time;
// - each rank's added wait within 30% of the constructed one;
// - each rank's transfer unchanged (within 5%).
struct RankScore
{
    double addedUs = 0; // what the straggler added to the job, from the construction
    double measuredUs = 0; // the slower job's time less the other's
    // The job's skew hides the straggler whole (it adds less than 1 us): then the entry check is
    // that no straggler entry comes within the first two.
    bool hidden = false;
    bool slowerJob = false;
    bool entry = false;
    bool waits = false;
    bool transfer = false;
    bool bounded = false;
    double entriesSumUs = 0; // the detailed pair's entries that explain the gap, summed
    std::string firstEntries; // the first two entries' kinds and titles
    std::string failure; // what failed, in words
    bool pass() const { return slowerJob && entry && waits && transfer && bounded; }
};

// Each rank of a constructed run summarised (runs/ranksummary.h).
std::vector<RankSummary> summariesOf(const MultiRankRun& run, const Classifier& classifier);

std::string causeName(StragglerCause cause); // "kernels", "stall", "late-launch", "extra-work"

RankScore scoreRankCase(const RankScoreCase& scoreCase, const Classifier& classifier);

} // namespace fusiondiff::test
