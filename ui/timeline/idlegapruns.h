#pragma once

#include "timeline/timelinedata.h"

#include <vector>

namespace fusiondiff::ui {

// Idle intervals of one GPU gap: the core lists a gap in pieces where its cause or host code
// changes inside it (two codes of one pairing key, hashes aside, are two pieces), while "where to
// look first" counts the gap once.
struct IdleGapRun
{
    std::vector<int> gaps; // indices into TimelineLane::gaps, in order
    double start = 0; // from the lane's start: the first piece's
    double end = 0; // the last piece's end
    double idleUs = 0; // the pieces' durations
};

// The selected idle intervals `gaps` (indices into lane.gaps) grouped by the GPU gap they are in:
// consecutive ones with no kernel of the lane starting between them.
std::vector<IdleGapRun> idleGapRuns(const TimelineLane& lane, std::vector<int> gaps);

} // namespace fusiondiff::ui
