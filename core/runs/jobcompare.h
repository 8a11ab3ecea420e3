#pragma once

#include "model/jobreport.h"

#include <memory>

namespace fusiondiff {

struct FusionReport;

// Two job sides compared (model/jobreport.h): ranks paired by number when the world sizes are
// equal (else at the job level only), the job's time per compared step and its parts on the pace
// rank, the rank_times and rank_collectives tables, and the stragglers ranked by stake. `notes`
// are the sides' own (jobside.h).
JobReport compareJobs(std::array<JobSide, 2> sides, std::vector<std::string> notes);

// Adds the job to a detailed report: FusionReport::job, and a `straggler` entry in
// where_to_look_first for each straggler, ranked by stake among the others.
void addJobToReport(FusionReport& report, std::shared_ptr<const JobReport> job);

} // namespace fusiondiff
