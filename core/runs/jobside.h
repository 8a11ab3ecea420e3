#pragma once

#include "model/jobreport.h"

#include <string>
#include <vector>

namespace fusiondiff {

// The merge step of one side of a job comparison: its rank summaries checked as one job (every
// rank from 0 to the world size once, one world size), the ranks' steps aligned as job steps (the
// steps every rank recorded, runs/jobstepalignment.h), the calls of each collective in each process
// group matched across the ranks, the ranks' clocks aligned on those calls' ends, each rank's wait
// and transfer per call, and the job's steps with their pace rank and straggler.
// Throws InputError naming the files for a missing, duplicated or foreign rank. `notes` gets what
// the user should know (clocks not aligned, calls that do not match).
// The median (the mean of the middle two for an even count); 0 for none.
double medianOf(std::vector<double> values);

JobSide buildJobSide(std::vector<RankSummary> ranks, const std::string& sideName, std::vector<std::string>& notes);

} // namespace fusiondiff
