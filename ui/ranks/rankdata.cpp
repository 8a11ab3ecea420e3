#include "ranks/rankdata.h"

#include "model/jobreport.h"

namespace fusiondiff::ui {

RankSideData rankSideData(const JobReport& job, size_t side)
{
    const JobSide& jobSide = job.sides[side];
    const size_t ranks = jobSide.ranks.size();
    const size_t steps = job.steps.size();
    RankSideData data;
    data.stepTimeUs.assign(ranks, std::vector<double>(steps, 0.0));
    data.stepWaitUs.assign(ranks, std::vector<double>(steps, 0.0));
    data.waitUs.assign(ranks, 0.0);
    data.transferUs.assign(ranks, 0.0);
    // This side's step of each job_steps row (the phases may pair A's and B's steps apart).
    std::vector<int32_t> column(jobSide.steps.size(), -1);
    for (size_t s = 0; s < steps; ++s) {
        const uint32_t own = side == 0 ? job.steps[s].step : job.steps[s].trace2Step;
        if (own < column.size())
            column[own] = int32_t(s);
    }
    for (size_t r = 0; r < ranks; ++r) {
        const RankSummary& rank = jobSide.ranks[r];
        data.ranks.push_back(rank.rank);
        for (size_t own = 0; own < column.size() && own < rank.steps.size(); ++own) {
            if (column[own] >= 0)
                data.stepTimeUs[r][size_t(column[own])] = rank.steps[own].timeUs();
        }
    }
    for (const CollectiveInstance& instance : jobSide.instances) {
        if (instance.step < 0 || size_t(instance.step) >= column.size() || column[size_t(instance.step)] < 0)
            continue;
        const auto at = size_t(column[size_t(instance.step)]);
        for (size_t r = 0; r < ranks && r < instance.waitUs.size(); ++r) {
            data.stepWaitUs[r][at] += instance.waitUs[r];
            data.waitUs[r] += instance.waitUs[r];
            data.transferUs[r] += instance.transferUs[r];
        }
    }
    for (const JobStepRow& step : job.steps) {
        data.jobStepUs.push_back(step.timeUs[side]);
        data.stepStraggler.push_back(-1);
        for (size_t r = 0; r < ranks; ++r) {
            if (data.ranks[r] == step.straggler[side])
                data.stepStraggler.back() = int(r);
        }
    }
    for (const Straggler& straggler : job.stragglers) {
        if (size_t(straggler.slowerSide) != side)
            continue;
        for (size_t r = 0; r < ranks; ++r) {
            if (data.ranks[r] == straggler.rank)
                data.straggler = int(r);
        }
        break;
    }
    return data;
}

} // namespace fusiondiff::ui
