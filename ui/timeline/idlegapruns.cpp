#include "timeline/idlegapruns.h"

#include <algorithm>

namespace fusiondiff::ui {

std::vector<IdleGapRun> idleGapRuns(const TimelineLane& lane, std::vector<int> gaps)
{
    std::sort(gaps.begin(), gaps.end());
    std::vector<IdleGapRun> runs;
    for (const int index : gaps) {
        if (index < 0 || static_cast<size_t>(index) >= lane.gaps.size())
            continue;
        const TimelineGap& gap = lane.gaps[static_cast<size_t>(index)];
        bool sameGap = false;
        if (!runs.empty()) {
            // A kernel that starts between the run's end and this piece's start ends the GPU gap.
            const auto next = std::lower_bound(lane.kernels.begin(), lane.kernels.end(), runs.back().end,
                [](const TimelineKernel& kernel, double time) { return kernel.start < time; });
            sameGap = next == lane.kernels.end() || next->start >= gap.start;
        }
        if (!sameGap)
            runs.push_back({ {}, gap.start, gap.start, 0 });
        IdleGapRun& run = runs.back();
        run.gaps.push_back(index);
        run.end = std::max(run.end, gap.start + gap.duration);
        run.idleUs += gap.duration;
    }
    return runs;
}

} // namespace fusiondiff::ui
