#pragma once

#include <cstddef>
#include <vector>

namespace fusiondiff {
struct JobReport;
}

namespace fusiondiff::ui {

// What the Ranks view draws for one side of a job comparison, over the compared steps (those of
// the job_steps table), from the same parts of the JobReport as the rank_times and job_steps
// tables: each rank's own step time, its collective wait and transfer per step and in all.
struct RankSideData
{
    std::vector<int> ranks; // rank numbers, one row each
    std::vector<std::vector<double>> stepTimeUs; // [rank][step]: the rank's own step (end minus begin)
    std::vector<std::vector<double>> stepWaitUs; // [rank][step]: its wait at the step's collectives
    std::vector<double> waitUs; // per rank, over the compared steps (rank_times' collective wait)
    std::vector<double> transferUs; // per rank, over the compared steps (rank_times' collective transfer)
    std::vector<double> jobStepUs; // per step: the job's step (job_steps' time)
    std::vector<int> stepStraggler; // per step: the row of the rank the job waits for longest, -1 none
    int straggler = -1; // the row of this side's largest straggler (job.stragglers), -1 none
};

RankSideData rankSideData(const JobReport& job, size_t side);

} // namespace fusiondiff::ui
