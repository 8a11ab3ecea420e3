#pragma once

#include "model/jobreport.h"

#include <string>
#include <vector>

namespace fusiondiff {

// The calls of each collective in each process group matched across the ranks that take part in
// it: a group the traces name (record_param_comms' "Process Group Name") has as members the ranks
// that call it; an unnamed one is the world. Calls match by the group's sequence number where every
// member's trace records it, else by order: the calls each member recorded are one run of the
// group's calls, which starts later on a member whose profiler started a step later, so each
// member's run is shifted to fit the first member's (by steps where `stepsAligned`, the calls'
// RankCollectiveCall::step being job steps, by message sizes, by their ends meeting on one clock
// offset). A call not every member recorded is left out. `notes` gets the calls that do not match.
void matchCollectiveInstances(
    JobSide& side, bool stepsAligned, std::vector<std::string>& notes, const std::string& sideName);

// An instance ends on all its members at once: each rank's clock offset is the median of its ends
// minus those of a rank already aligned that shares the most instances with it, starting from the
// reference (the first rank), so that ranks that share no group with the reference align through
// ranks that do. Then each member's wait and transfer per instance, and the instances in time order.
// `notes` gets the ranks whose clocks cannot be aligned: no shared instance, or ends that disagree
// by more than a tenth of the calls' median time (and 20 us) once aligned.
void alignClocksOnCollectives(JobSide& side, std::vector<std::string>& notes, const std::string& sideName);

} // namespace fusiondiff
