#include "hoststall.h"

#include "model/fusionreport.h"
#include "ops/timegap/idlegaps.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <unordered_set>
#include <vector>

namespace fusiondiff::test {

double stepsWallUs(const TraceStore& store)
{
    // The steps that launch GPU work: a step without any is not compared.
    std::vector<std::pair<double, double>> steps = stepsOf(store);
    std::erase_if(steps, [&store](const std::pair<double, double>& step) {
        return std::none_of(store.runtimeCalls.begin(), store.runtimeCalls.end(), [&step](const RuntimeEvent& call) {
            return call.correlation != kNoId && call.ts >= step.first && call.ts <= step.second;
        });
    });
    double begin = std::numeric_limits<double>::infinity();
    double end = -std::numeric_limits<double>::infinity();
    if (!steps.empty()) {
        begin = steps.front().first;
        end = steps.back().second;
    } else {
        for (const RuntimeEvent& call : store.runtimeCalls)
            begin = std::min(begin, call.ts);
    }
    // The first step compared starts on the GPU once the work launched before it has run: where the
    // host runs ahead of the GPU (pipelined steps), a stall before that step starts it later on the
    // host while the GPU is still busy with earlier work, which costs nothing yet; the lead it takes
    // from the host shows as idle later, inside the steps.
    std::unordered_set<int64_t> launchedBefore;
    for (const RuntimeEvent& call : store.runtimeCalls) {
        if (call.correlation != kNoId && call.ts < begin)
            launchedBefore.insert(call.correlation);
    }
    double earlierWorkEnd = -std::numeric_limits<double>::infinity();
    for (const KernelEvent& kernel : store.kernels) {
        end = std::max(end, kernel.ts + kernel.dur);
        if (launchedBefore.contains(kernel.correlation))
            earlierWorkEnd = std::max(earlierWorkEnd, kernel.ts + kernel.dur);
    }
    for (const GpuCopyEvent& copy : store.gpuCopies) {
        end = std::max(end, copy.ts + copy.dur);
        if (launchedBefore.contains(copy.correlation))
            earlierWorkEnd = std::max(earlierWorkEnd, copy.ts + copy.dur);
    }
    if (!steps.empty())
        begin = std::max(begin, earlierWorkEnd);
    return std::isfinite(begin) && std::isfinite(end) ? end - begin : 0.0;
}

StallScore scoreStall(const FusionReport& report, const HostStall& stall)
{
    StallScore score;
    const TimeGap& gap = report.timeGap;
    score.onStepTime = gap.onStepTime;
    score.headlineDeltaUs = -gap.headline().deltaUs;
    if (gap.stepTime)
        score.stepGapUs = gap.stepTime->timeUs[1] - gap.stepTime->timeUs[0];
    for (const StepTimeRow& row : report.stepTime.rows) {
        if (report.stepTime.rows.size() > 1 && row.phase != "all steps")
            continue;
        for (size_t cause = 0; cause < kIdleCauses; ++cause)
            score.idleCausedUs += row.idleByCauseUs[1][cause] * double(row.steps[1])
                - row.idleByCauseUs[0][cause] * double(row.steps[0]);
    }
    // A step tail's stall is in no code the constructor can name: any host entry names it.
    const auto namesTheStall = [&stall](const LookFirstEntry& entry) {
        return entry.kind == LookFirstKind::Host && entry.slowerSide == Side::Trace2
            && (stall.site == StallSite::StepTail || entry.op == stall.function
                || entry.op == idlePairingKey({ stall.function, HostCodeKind::Python }));
    };
    for (const LookFirstEntry& entry : report.whereToLookFirst) {
        if (namesTheStall(entry))
            score.stallStakeUs = std::max(score.stallStakeUs, entry.stakeUs);
    }
    if (!report.whereToLookFirst.empty()) {
        const LookFirstEntry& first = report.whereToLookFirst.front();
        score.firstKind = lookFirstKindKey(first.kind);
        score.firstOp = first.op;
        score.firstStakeUs = first.stakeUs;
        score.firstIsStall = namesTheStall(first);
    }
    return score;
}

} // namespace fusiondiff::test
