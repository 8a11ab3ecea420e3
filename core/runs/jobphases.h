#pragma once

#include "model/jobreport.h"

#include <string>
#include <vector>

namespace fusiondiff {

// The phase of each job step from all its ranks, not the first rank alone: the phase most of the
// ranks run in that step (ranks number their phases each in its own order, so they are compared
// by their operations, RankSummary::phaseSignatures), a tie going to the lowest rank's; the job's
// phases (JobSide::phaseSignatures) are the first rank's in its order, then the others' that lead
// some step. A rank that runs another phase in a step (an eval phase of its own, a step it is
// behind in) does not relabel the others; `notes` names it and its steps.
void labelJobStepPhases(JobSide& side, const std::string& sideName, std::vector<std::string>& notes);

} // namespace fusiondiff
