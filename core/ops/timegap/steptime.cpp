#include "ops/timegap/steptime.h"

#include "model/tracestore.h"
#include "ops/comparison/graphtail.h"
#include "ops/timegap/steptimeside.h"
#include "ops/timegap/waitedidle.h"
#include "util/bothsides.h"
#include "util/plural.h"
#include "util/textformat.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <utility>

namespace fusiondiff {

namespace {

using steptime_detail::kReasonNoHostEvents;
using steptime_detail::SideAnalysis;

// Without steps, the step time leads when the GPU waits on the host at least this share of a trace's time.
constexpr double kIdleMattersShare = 0.10;
// ... or when the step times differ by this share of the longer one, and the host and sync idle
// by at least this share of that difference.
constexpr double kGapMattersShare = 0.02;
constexpr double kWaitingExplainsShare = 0.5;
// With at least this many gaps, all of them so ended say more about the clocks than about the work.
constexpr uint64_t kClockOffsetGaps = 3;

double median(std::vector<double> values)
{
    return spreadOf(std::move(values)).median;
}

StepTimeRow rowOf(const std::string& phase, const std::array<std::vector<const StepRecord*>, 2>& steps)
{
    StepTimeRow row;
    row.phase = phase;
    for (size_t side = 0; side < 2; ++side) {
        std::vector<double> times, busy, idle;
        for (const StepRecord* step : steps[side]) {
            times.push_back(step->timeUs());
            busy.push_back(step->busyUs);
            row.notRecordedUs[side] += step->notRecordedUs;
            idle.push_back(step->idleTotalUs());
            row.totalUs[side] += step->timeUs();
            for (size_t cause = 0; cause < kIdleCauses; ++cause)
                row.idleByCauseUs[side][cause] += step->idleUs[cause];
        }
        row.steps[side] = steps[side].size();
        row.timeUs[side] = spreadOf(times);
        row.busyUs[side] = median(busy);
        row.idleUs[side] = median(idle);
        row.notRecordedUs[side] = steps[side].empty() ? 0.0 : row.notRecordedUs[side] / double(steps[side].size());
        for (double& cause : row.idleByCauseUs[side])
            cause = steps[side].empty() ? 0.0 : cause / double(steps[side].size());
    }
    return row;
}

std::string sideLetterOf(size_t side)
{
    return side == 0 ? "A" : "B";
}

} // namespace

StepTimeAnalysis analyzeStepTime(
    const std::array<StepTimeTrace, 2>& traces, const std::vector<int64_t>& phasePartners, bool sidesInParallel)
{
    StepTimeAnalysis result;
    StepTimeReport& report = result.report;
    const bool wholeTrace = traces[0].steps.empty() || traces[1].steps.empty();

    // The report's phases: trace 1's phases that have a partner, in order.
    std::array<std::vector<int32_t>, 2> phaseOf; // per side: the trace's phase -> the report's
    if (wholeTrace) {
        report.phases.emplace_back("whole trace");
        for (size_t side = 0; side < 2; ++side) {
            if (traces[side].steps.empty())
                report.notes.push_back(sideLetterOf(side)
                    + " has no steps (no ProfilerStep annotations, no repeated Python call that holds the "
                      "operations): each trace's whole run is compared as one step.");
        }
    } else {
        size_t phases2 = 0;
        for (const HostStep& step : traces[1].steps)
            phases2 = std::max(phases2, size_t(step.phase + 1));
        phaseOf[0].assign(phasePartners.size(), -1);
        phaseOf[1].assign(phases2, -1);
        for (size_t phase = 0; phase < phasePartners.size(); ++phase) {
            const int64_t partner = phasePartners[phase];
            if (partner < 0 || size_t(partner) >= phases2)
                continue;
            phaseOf[0][phase] = int32_t(report.phases.size());
            phaseOf[1][size_t(partner)] = int32_t(report.phases.size());
            report.phases.push_back("phase " + std::to_string(phase + 1));
        }
    }

    // Which steps are compared: in each pair of phases, the first min(n1, n2) of each side.
    std::array<std::vector<HostStep>, 2> steps;
    if (!wholeTrace) {
        std::array<std::vector<size_t>, 2> counts { std::vector<size_t>(report.phases.size(), 0),
            std::vector<size_t>(report.phases.size(), 0) };
        for (size_t side = 0; side < 2; ++side) {
            steps[side] = traces[side].steps;
            std::sort(steps[side].begin(), steps[side].end(),
                [](const HostStep& a, const HostStep& b) { return a.begin < b.begin; });
            for (HostStep& step : steps[side]) {
                step.phase = step.phase >= 0 && size_t(step.phase) < phaseOf[side].size()
                    ? phaseOf[side][size_t(step.phase)]
                    : -1;
                if (step.phase >= 0)
                    ++counts[side][size_t(step.phase)];
            }
        }
        std::vector<size_t> compared(report.phases.size());
        for (size_t phase = 0; phase < compared.size(); ++phase) {
            compared[phase] = std::min(counts[0][phase], counts[1][phase]);
            if (counts[0][phase] != counts[1][phase])
                report.notes.push_back(report.phases[phase] + ": A has " + std::to_string(counts[0][phase])
                    + " steps, B " + std::to_string(counts[1][phase]) + "; the first " + std::to_string(compared[phase])
                    + " of each are compared.");
        }
        for (size_t side = 0; side < 2; ++side) {
            std::vector<size_t> taken(compared.size(), 0);
            for (HostStep& step : steps[side]) {
                if (step.phase >= 0 && taken[size_t(step.phase)]++ >= compared[size_t(step.phase)])
                    step.phase = -1;
            }
        }
    }

    std::array<std::map<CauseKey, CauseSums>, 2> causes;
    std::array<std::map<std::pair<std::string, int>, double>, 2> ownTime;
    std::array<std::map<std::string, CodeOwnTime>, 2> ownByKey;
    std::array<std::optional<SideAnalysis>, 2> analyses;
    for (size_t side = 0; side < 2; ++side) {
        analyses[side].emplace(traces[side].store, report.sides[side], report.phases.size());
        analyses[side]->notRecorded = traces[side].notRecorded;
        if (traces[side].notRecorded) {
            for (const NotRecordedSpan& span : *traces[side].notRecorded)
                report.sides[side].notRecorded.push_back({ span.begin, span.end });
        }
    }
    forBothSides(sidesInParallel, [&](size_t side) {
        analyses[side]->run(std::move(steps[side]), result.totals.kernelInStep[side], result.totals, side);
    });
    for (size_t side = 0; side < 2; ++side) {
        SideAnalysis& analysis = *analyses[side];
        causes[side] = std::move(analysis.causes);
        ownTime[side] = std::move(analysis.ownTime);
        ownByKey[side] = std::move(analysis.ownByKey);
        const StepTimeSide& out = report.sides[side];
        const std::string letter = sideLetterOf(side);
        if (!out.hostEvents && !traces[side].store.kernels.empty())
            report.notes.push_back(letter + ": " + kReasonNoHostEvents + "; its idle time is other_idle.");
        if (out.launchingThreads > 1)
            report.notes.push_back(letter + ": " + std::to_string(out.launchingThreads)
                + " host threads launch GPU work; each gap is charged to the thread that launched the work that ends "
                  "it.");
        if (analysis.graphLaunches > 0)
            report.notes.push_back(letter + " launches " + countedNoun(analysis.graphLaunches, "graph", "graphs")
                + ": a gap between kernels of a launched graph is launch idle (the work was already launched).");
        if (analysis.clockSkewed > 0)
            report.notes.push_back(letter + ": " + countedNoun(analysis.clockSkewed, "gap ends", "gaps end")
                + " with work that started before its launch was recorded (by up to "
                + formatDuration(analysis.largestSkewUs)
                + "): the host and device clocks disagree; those gaps are other_idle.");
        // A device clock ahead of the host's by a constant makes every piece of work start long
        // after its launch: the gaps are launch idle then, and the note says the clocks may be why.
        if (analysis.launchedGaps >= kClockOffsetGaps && analysis.waitedGaps == analysis.launchedGaps)
            report.notes.push_back(letter + ": the work after every one of its "
                + countedNoun(analysis.launchedGaps, "gap", "gaps") + " starts at least "
                + formatDuration(analysis.leastWaitUs)
                + " after its launch returned, on an idle GPU: the device clock may be ahead of the host's; the "
                  "gaps are launch idle, charged to no host code.");
        if (analysis.intervalsLeftOut > 0)
            report.notes.push_back(letter + ": " + withThousands(int64_t(analysis.intervalsLeftOut))
                + " idle intervals beyond the first " + withThousands(int64_t(StepTimeReport::kMaxIdleIntervals))
                + " are counted but not listed.");
        analyses[side].reset();
    }

    // The step_times rows.
    std::array<std::vector<const StepRecord*>, 2> all;
    for (size_t phase = 0; phase < report.phases.size(); ++phase) {
        std::array<std::vector<const StepRecord*>, 2> inPhase;
        for (size_t side = 0; side < 2; ++side) {
            for (const StepRecord& step : report.sides[side].steps) {
                if (step.phase == int32_t(phase)) {
                    inPhase[side].push_back(&step);
                    all[side].push_back(&step);
                }
            }
        }
        report.rows.push_back(rowOf(report.phases[phase], inPhase));
    }
    if (report.phases.size() > 1)
        report.rows.push_back(rowOf("all steps", all));

    for (std::string& note : chargeWaitsToOtherThreads({ WaitedIdleSide { causes[0], ownByKey[0], report.sides[0] },
                                                           WaitedIdleSide { causes[1], ownByKey[1], report.sides[1] } },
             { sideLetterOf(0), sideLetterOf(1) }))
        report.notes.push_back(std::move(note));

    // Idle by cause, paired by name.
    std::map<CauseKey, IdleCauseEntry> entries;
    for (size_t side = 0; side < 2; ++side) {
        for (const auto& [key, sums] : causes[side]) {
            if (key.first == int(IdleCause::BetweenSteps))
                continue;
            IdleCauseEntry& entry = entries[key];
            entry.cause = IdleCause(key.first);
            entry.key = key.second;
            entry.kind = sums.kind;
            entry.name[side] = sums.name;
            entry.idleUs[side] = sums.idleUs;
            if (key.first == int(IdleCause::Host) && sums.drainedLaunches > 0)
                result.totals.drainedLaunch[side][key.second] = { sums.drainedLaunchUs, sums.drainedLaunches };
            if (key.first == int(IdleCause::Launch) && sums.drainedLaunches > 0)
                result.totals.drainedIntoLaunch[side][key.second] = { sums.drainedLaunchUs, sums.drainedLaunches };
            entry.intervals[side] = sums.intervals;
            entry.calls[side] = sums.calls;
        }
    }
    for (auto& [key, entry] : entries) {
        const size_t slow = entry.idleUs[0] >= entry.idleUs[1] ? 0 : 1;
        const auto found = causes[slow].find(key);
        if (found != causes[slow].end() && !found->second.byPhase.empty()) {
            const auto most = std::max_element(found->second.byPhase.begin(), found->second.byPhase.end());
            entry.phase = report.phases[size_t(most - found->second.byPhase.begin())];
        }
        report.causes.push_back(std::move(entry));
    }
    std::stable_sort(report.causes.begin(), report.causes.end(), [](const IdleCauseEntry& a, const IdleCauseEntry& b) {
        return std::fabs(a.idleUs[0] - a.idleUs[1]) > std::fabs(b.idleUs[0] - b.idleUs[1]);
    });

    // The host_time table: own time per step, paired by name and kind.
    std::array<double, 2> comparedSteps {};
    for (size_t side = 0; side < 2; ++side)
        comparedSteps[side] = double(std::max<size_t>(1, all[side].size()));
    if (report.phases.size() == 1)
        for (size_t side = 0; side < 2; ++side)
            comparedSteps[side] = double(std::max<uint64_t>(1, report.rows.front().steps[side]));
    std::map<std::pair<std::string, int>, HostTimeRow> hostRows;
    for (size_t side = 0; side < 2; ++side) {
        for (const auto& [key, own] : ownTime[side]) {
            HostTimeRow& row = hostRows[key];
            row.code = key.first;
            row.kind = HostCodeKind(key.second);
            row.ownUsPerStep[side] = own / comparedSteps[side];
        }
    }
    for (const IdleCauseEntry& entry : report.causes) {
        if (entry.cause != IdleCause::Host)
            continue;
        const auto found = hostRows.find({ entry.key, int(entry.kind) });
        if (found == hostRows.end())
            continue;
        for (size_t side = 0; side < 2; ++side) {
            found->second.idleUs[side] = entry.idleUs[side];
            found->second.idleUsPerStep[side] = entry.idleUs[side] / comparedSteps[side];
        }
    }
    for (auto& [key, row] : hostRows)
        report.hostTime.push_back(std::move(row));
    std::stable_sort(report.hostTime.begin(), report.hostTime.end(), [](const HostTimeRow& a, const HostTimeRow& b) {
        return std::max(a.ownUsPerStep[0], a.ownUsPerStep[1]) > std::max(b.ownUsPerStep[0], b.ownUsPerStep[1]);
    });
    if (report.hostTime.size() > StepTimeReport::kMaxHostRows)
        report.hostTime.resize(StepTimeReport::kMaxHostRows);

    // The step time leads when both traces have steps, or when the GPU waits on the host (its code
    // or its blocking calls) for a share of it. Launch idle alone does not make it lead: a trace
    // whose launches all come long before the GPU starts them says nothing about the host.
    const StepTimeTotals& totals = result.totals;
    bool idleMatters = false;
    for (size_t side = 0; side < 2; ++side) {
        const double waiting
            = totals.idleUs[side][size_t(IdleCause::Host)] + totals.idleUs[side][size_t(IdleCause::Sync)];
        idleMatters |= waiting >= kIdleMattersShare * totals.timeUs[side];
    }
    // Or when the GPU's waiting on the host differs by most of a gap that is a fair share of the
    // time: a host that got slower is the gap, however busy the GPU is besides.
    const auto waitingOf = [&totals](size_t side) {
        return totals.idleUs[side][size_t(IdleCause::Host)] + totals.idleUs[side][size_t(IdleCause::Sync)];
    };
    const double timeGap = std::fabs(totals.timeUs[1] - totals.timeUs[0]);
    idleMatters |= timeGap >= kGapMattersShare * std::max(totals.timeUs[0], totals.timeUs[1])
        && std::fabs(waitingOf(1) - waitingOf(0)) >= kWaitingExplainsShare * timeGap;
    report.notRecorded = totals.notRecordedUs[0] > 0 || totals.notRecordedUs[1] > 0;
    report.headline = totals.timeUs[0] > 0 && totals.timeUs[1] > 0 && (!wholeTrace || idleMatters);
    return result;
}

} // namespace fusiondiff
