#pragma once

#include "model/jobreport.h"

#include <string>
#include <vector>

namespace fusiondiff {

// Which step of each rank is which step of the job. Ranks' profiler windows need not start or end
// on the same step (one holds ProfilerStep#9 to #14, the others #10 to #14), so the n-th step of
// one rank need not be the n-th of another. A step is known by its ProfilerStep number where every
// rank's steps have one and they share a step; otherwise by the collectives: a collective call matched across ranks
// (runs/collectiveinstances.h) falls in the same job step on each, so each rank's steps are those of
// the first rank shifted by the shift most of its matched calls agree on.
//
// Each rank's summary then keeps the steps every rank recorded, in order, so that step s of every
// rank is job step s (steps, their per-step times and numbers; a collective call's step is the job
// step, -1 for a step not every rank recorded). The others are named in JobSide::partialSteps and
// in a note. Returns whether the steps were aligned on their numbers.
bool alignRankSteps(JobSide& side, std::vector<std::string>& notes, const std::string& sideName);

} // namespace fusiondiff
