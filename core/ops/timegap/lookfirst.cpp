#include "ops/timegap/lookfirst.h"

#include "model/fusionreport.h"
#include "ops/comparison/kernelcomparison.h"
#include "ops/efficiency/rooflinewords.h"
#include "ops/timegap/drainedlaunch.h"
#include "ops/timegap/hostchain.h"
#include "ops/timegap/timegap.h"
#include "ops/timegap/workleftsteps.h"
#include "util/plural.h"
#include "util/textformat.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace fusiondiff {

namespace {

// A host entry names the code, what it runs inside and up to this many levels of code above.
constexpr size_t kChainDepth = 4;
// A host entry says what of its stake is launch idle after its gaps from this share of the stake.
constexpr double kDrainedSaidShare = 0.01;

std::string spreadText(const Spread& spread)
{
    return formatDuration(spread.median) + " (IQR " + formatDuration(spread.q1) + " to " + formatDuration(spread.q3)
        + ")";
}

std::string callsText(uint64_t calls)
{
    return countWithThousands(calls) + (calls == 1 ? " call" : " calls");
}

void addType(std::vector<CategoryId>& types, CategoryId type)
{
    if (std::find(types.begin(), types.end(), type) == types.end())
        types.push_back(type);
}

void addKernel(std::vector<std::string>& kernels, const std::string& name)
{
    if (std::find(kernels.begin(), kernels.end(), name) == kernels.end())
        kernels.push_back(name);
}

void setStake(LookFirstEntry& entry)
{
    const double delta = entry.timeUs[0] - entry.timeUs[1];
    entry.stakeUs = std::fabs(delta);
    entry.slowerSide = delta >= 0 ? Side::Trace1 : Side::Trace2;
}

// A side's GPU work counted twice in the compared steps (concurrent streams, work running past its
// step's end): the step-time basis's overlap part.
double stepOverlapUs(const FusionReport& report, size_t side)
{
    if (!report.timeGap.stepTime)
        return 0;
    for (const TimeGapPart& part : report.timeGap.stepTime->parts) {
        if (part.cause == GapCause::Overlap)
            return part.timeUs[side];
    }
    return 0;
}

// The part of a finding's difference that is work only one side does (a repeated block's extra copies).
std::string workText(const FusionReport& report, const OpFinding& finding)
{
    const Side more = finding.blockCopies[0] > finding.blockCopies[1] ? Side::Trace1 : Side::Trace2;
    return "; and " + formatDuration(std::fabs(finding.savingWorkUs)) + " is the extra copies of a block "
        + report.sideName(more) + " repeats more times: a difference in the work, neither fusion nor speed";
}

LookFirstEntry fusionEntry(const FusionReport& report, const OpFinding& finding)
{
    LookFirstEntry entry;
    entry.kind = LookFirstKind::Fusion;
    entry.op = finding.op;
    entry.title = finding.summary;
    entry.calls = finding.occurrences;
    entry.timeUs = { finding.timeUs[0].total, finding.timeUs[1].total };
    setStake(entry);
    entry.savingUs = finding.savingUs;
    entry.savingExtraKernelsUs = finding.savingExtraKernelsUs;
    entry.savingSpeedUs = finding.savingSpeedUs;
    for (const ExtraRun& run : finding.extraRuns) {
        if (entry.details.size() == 3) {
            entry.details.emplace_back("(more differences in the JSON, CSV and app)");
            break;
        }
        entry.details.push_back(run.explanation + (run.repeats > 1 ? " (x" + std::to_string(run.repeats) + ")" : ""));
    }
    for (const AlignedPair& pair : finding.alignment) {
        if (pair.isMatch())
            continue;
        const FindingKernel& kernel
            = pair.first >= 0 ? finding.kernels[0][size_t(pair.first)] : finding.kernels[1][size_t(pair.second)];
        addType(entry.types, kernel.type);
        addKernel(entry.kernels, kernel.name);
    }
    const Side slow = finding.slowerSide;
    const std::string noun = finding.isGraph ? "launch" : "call";
    entry.details.push_back(savingText(report.sideNames, slow, finding.savingUs, finding.savingExtraKernelsUs,
                                finding.savingSpeedUs, "in all")
        + "; " + report.sideName(slow) + " " + spreadText(finding.timeUs[sideIndex(slow)]) + " vs "
        + report.sideName(otherSide(slow)) + " " + spreadText(finding.timeUs[sideIndex(otherSide(slow))]) + " per "
        + noun + (finding.savingWorkUs != 0 ? workText(report, finding) : ""));
    return entry;
}

void addTopKernels(LookFirstEntry& entry, const OpKernelTimes& times)
{
    entry.types = times.types;
    for (size_t side = 0; side < 2; ++side) {
        for (const auto& [name, time] : times.topKernels[side])
            addKernel(entry.kernels, name);
    }
}

// The time at stake is that of the kernels of the operation's calls that launch as many kernels on each
// side (the others are its fusion finding), communication kernels left out
// (they are the collectives' entries).
LookFirstEntry speedEntry(const FusionReport& report, const OpSummary& summary, const OpKernelTimes& paired)
{
    LookFirstEntry entry;
    entry.kind = LookFirstKind::Speed;
    entry.op = summary.op;
    entry.calls = summary.occurrences;
    entry.timeUs = paired.timeUs;
    setStake(entry);
    entry.savingUs = entry.stakeUs;
    entry.savingSpeedUs = entry.stakeUs;
    const Side slow = entry.slowerSide;
    const Spread& s = summary.timeUs[sideIndex(slow)];
    const Spread& f = summary.timeUs[sideIndex(otherSide(slow))];
    const double slowTime = entry.timeUs[sideIndex(slow)];
    const double fastTime = entry.timeUs[sideIndex(otherSide(slow))];
    const std::string ratio = fastTime > 0 ? fixed(slowTime / fastTime, 2) + "x as long" : "longer";
    const uint64_t calls = summary.occurrences - summary.differing;
    entry.calls = calls;
    entry.title = summary.op + ": the same kernels on both sides ("
        + (summary.differing > 0 ? withThousands(int64_t(calls)) + " of its " : "") + callsText(summary.occurrences)
        + "), but " + report.sideName(slow) + " takes " + ratio + " (" + formatDuration(slowTime) + " vs "
        + formatDuration(fastTime) + ")";
    if (summary.differing == 0)
        entry.details.push_back("per call: " + report.sideName(slow) + " " + spreadText(s) + " vs "
            + report.sideName(otherSide(slow)) + " " + spreadText(f)
            + ": not a fusion difference, a difference in the kernels' speed");
    else
        entry.details.push_back("not a fusion difference, a difference in the kernels' speed; the "
            + callsText(summary.differing)
            + " that launch a different number of kernels are the operation's fusion finding");
    addTopKernels(entry, paired);
    std::string kernels;
    for (size_t side = 0; side < 2; ++side) {
        if (paired.topKernels[side].empty())
            continue;
        const auto& [name, time] = paired.topKernels[side].front();
        kernels += (kernels.empty() ? "" : "; ") + report.sideNames[side]
            + "'s largest kernel: " + shortKernelName(name) + " (" + formatDuration(time) + ")";
    }
    if (!kernels.empty())
        entry.details.push_back(kernels);
    for (std::string& roofline : rooflineDetails(report, summary.op, entry.stakeUs / 10))
        entry.details.push_back(std::move(roofline));
    return entry;
}

std::string implementationText(const CollectiveCallGroup& group, size_t side)
{
    std::string text = group.implementation[side];
    if (!group.operation[side].empty())
        text += ", launched by " + group.operation[side];
    if (group.messageBytes[side] >= 0)
        text += ", " + withThousands(group.messageBytes[side]) + " bytes a call";
    return text;
}

LookFirstEntry collectiveEntry(
    const FusionReport& report, const CollectiveComparison& collective, std::optional<CategoryId> communication)
{
    LookFirstEntry entry;
    entry.kind = LookFirstKind::Collective;
    entry.op = collective.collective;
    entry.timeUs = collective.timeUs;
    setStake(entry);
    entry.savingUs = entry.stakeUs;
    entry.savingSpeedUs = entry.stakeUs;
    if (communication)
        entry.types.push_back(*communication);
    std::array<uint64_t, 2> calls {};
    for (const CollectiveCallGroup& group : report.collectiveCalls) {
        if (group.collective != collective.collective)
            continue;
        calls[0] += group.calls[0];
        calls[1] += group.calls[1];
        std::string line;
        if (group.calls[0] > 0 && group.calls[1] > 0) {
            line = withThousands(int64_t(std::min(group.calls[0], group.calls[1])))
                + " paired calls: " + report.sideNames[0] + " " + implementationText(group, 0) + " ("
                + formatDuration(group.timeUs[0]) + ") vs " + report.sideNames[1] + " " + implementationText(group, 1)
                + " (" + formatDuration(group.timeUs[1]) + ")";
        } else {
            const size_t side = group.calls[0] > 0 ? 0 : 1;
            line = callsText(group.calls[side]) + " on " + report.sideNames[side]
                + " only: " + implementationText(group, side) + " (" + formatDuration(group.timeUs[side]) + ")";
        }
        if (entry.details.size() < 4)
            entry.details.push_back(line);
    }
    entry.calls = std::max(calls[0], calls[1]);
    std::string sides;
    for (size_t side = 0; side < 2; ++side) {
        sides += (side == 0 ? "" : ", ") + report.sideNames[side] + " " + callsText(calls[side]) + " in "
            + formatDuration(collective.timeUs[side])
            + (collective.implementation[side].empty() ? "" : " (" + collective.implementation[side] + ")");
    }
    entry.title = collective.collective + ": " + sides;
    return entry;
}

LookFirstEntry oneSideEntry(const FusionReport& report, const std::string& op, const OpKernelTimes& times)
{
    LookFirstEntry entry;
    entry.kind = LookFirstKind::OneSide;
    entry.op = op;
    entry.timeUs = times.timeUs;
    setStake(entry);
    entry.savingUs = entry.stakeUs;
    entry.savingExtraKernelsUs = entry.stakeUs;
    addTopKernels(entry, times);
    std::string sides;
    for (size_t side = 0; side < 2; ++side) {
        if (times.kernels[side] == 0)
            continue;
        sides += (sides.empty() ? "" : "; ") + report.sideNames[side] + " "
            + withThousands(int64_t(times.kernels[side])) + (times.kernels[side] == 1 ? " kernel, " : " kernels, ")
            + formatDuration(times.timeUs[side]);
    }
    // The extra copies of a block one side of a graph finding repeats more times are work without a
    // partner too; they say what they are.
    const auto repeated = std::find_if(report.opFindings.begin(), report.opFindings.end(),
        [&op](const OpFinding& finding) { return finding.op == op && finding.savingWorkUs != 0; });
    if (repeated != report.opFindings.end()) {
        const Side more = repeated->blockCopies[0] > repeated->blockCopies[1] ? Side::Trace1 : Side::Trace2;
        entry.title = op + ": the extra copies of a block " + report.sideName(more) + " repeats more times ("
            + report.sideNames[0] + " " + std::to_string(repeated->blockCopies[0]) + " copies, " + report.sideNames[1]
            + " " + std::to_string(repeated->blockCopies[1]) + "; " + sides + ")";
        entry.details.push_back("a block of kernels (a layer stack, a loop over images or requests) that "
            + report.sideName(more)
            + " runs more times than the other side: a difference in the work, neither fusion nor speed");
        return entry;
    }
    entry.title = op + ": work without a partner on the other side (" + sides + ")";
    entry.details.push_back("calls of " + op
        + " that the alignment of the two operation sequences could not pair: work one side does and the other "
          "does not (or does under another operation)");
    for (std::string& roofline : rooflineDetails(report, op, entry.stakeUs / 10))
        entry.details.push_back(std::move(roofline));
    return entry;
}

LookFirstEntry kernelTypeEntry(const FusionReport& report, CategoryId type, const OpKernelTimes& times)
{
    LookFirstEntry entry;
    entry.kind = LookFirstKind::KernelType;
    entry.op = report.typeName(type);
    addTopKernels(entry, times);
    entry.timeUs = times.timeUs;
    entry.calls = std::max(times.kernels[0], times.kernels[1]);
    setStake(entry);
    entry.savingUs = entry.stakeUs;
    entry.title = report.typeName(type) + " kernels outside the compared operations and graphs: " + report.sideNames[0]
        + " " + withThousands(int64_t(times.kernels[0])) + " in " + formatDuration(times.timeUs[0]) + ", "
        + report.sideNames[1] + " " + withThousands(int64_t(times.kernels[1])) + " in "
        + formatDuration(times.timeUs[1]);
    entry.details.emplace_back(report.opAlignment.comparable
            ? "kernels outside what was compared (a warm-up step, launches or steps the other trace does not hold, "
              "or unattributed kernels, which have no launch in the trace), so compared by type only, not split into "
              "fusion and speed"
            : "the operations cannot be compared, so these kernels are compared by type only, not split into fusion "
              "and speed");
    return entry;
}

void markEntriesAgainstTheGap(const FusionReport& report, std::vector<LookFirstEntry>& entries)
{
    for (LookFirstEntry& entry : entries)
        markEntryAgainstTheGap(report, entry);
}

LookFirstKind kindOf(IdleCause cause)
{
    return cause == IdleCause::Sync  ? LookFirstKind::Sync
        : cause == IdleCause::Launch ? LookFirstKind::Launch
                                     : LookFirstKind::Host;
}

std::array<double, 2> launchIdleInAll(const StepTimeRow& all)
{
    return { all.idleByCauseUs[0][size_t(IdleCause::Launch)] * double(all.steps[0]),
        all.idleByCauseUs[1][size_t(IdleCause::Launch)] * double(all.steps[1]) };
}

// A host code, blocking call or launch call that keeps the GPU idle, with the idle it causes on
// each side in the compared steps: "the host runs X for 25 ms a step on A, 0.3 ms on B". A host
// code's `drained` is the launch idle after its gaps allotted to it (allotDrainedLaunch);
// `drainedClaimedUs` is what of it its stake holds.
LookFirstEntry idleEntry(const FusionReport& report, const IdleCauseEntry& cause, const TimeGapAccounting& accounting,
    double drained, double& drainedClaimedUs)
{
    const StepTimeReport& steps = report.stepTime;
    LookFirstEntry entry;
    entry.kind = kindOf(cause.cause);
    entry.op = cause.key;
    entry.timeUs = cause.idleUs;
    setStake(entry);
    entry.calls = std::max(cause.intervals[0], cause.intervals[1]);
    const StepTimeRow& all = steps.rows.back();
    // What host code or a blocking call costs the slower side beyond the other cannot exceed all
    // the idle the slower side has beyond the other: where the GPU idles as long on both, host
    // idle that grew took its time from another cause (work that waited for something else
    // anyway), and making the host faster would not make the step shorter by more. A launch
    // entry is a cost per launch on the GPU's side, and keeps its stake.
    std::array<double, 2> idleInAll {};
    for (size_t side = 0; side < 2; ++side) {
        for (size_t c = 0; c < kIdleCauses; ++c) {
            if (c != size_t(IdleCause::BetweenSteps))
                idleInAll[side] += all.idleByCauseUs[side][c] * double(all.steps[side]);
        }
    }
    const size_t slower = sideIndex(entry.slowerSide);
    std::array<DrainedLaunch, 2> drainedBySide;
    for (size_t side = 0; side < 2; ++side) {
        const auto found = accounting.drainedLaunch[side].find(cause.key);
        if (cause.cause == IdleCause::Host && found != accounting.drainedLaunch[side].end())
            drainedBySide[side] = found->second;
    }
    const double ownStakeUs = entry.stakeUs;
    entry.stakeUs += drained;
    // Work the slower side runs alongside other work beyond the other side takes that much of its
    // idle back: a delay that pushes work onto a stream while another stream's long kernel runs
    // (a collective) idles the GPU less than it waits, and removing it saves the net time only.
    const double overlapBeyond = std::max(0.0, stepOverlapUs(report, slower) - stepOverlapUs(report, 1 - slower));
    // Kernel time that left the slower side's steps (not work that got faster) shortens them as much.
    const double leftBeyond = std::max(
        0.0, kernelTimeLeftStepsUs(report.timeGap, slower) - kernelTimeLeftStepsUs(report.timeGap, 1 - slower));
    const double beyond = std::max(0.0, idleInAll[slower] - idleInAll[1 - slower] - overlapBeyond - leftBeyond);
    const bool capped = cause.cause != IdleCause::Launch && entry.stakeUs > beyond;
    if (capped)
        entry.stakeUs = beyond;
    drainedClaimedUs = std::clamp(entry.stakeUs - ownStakeUs, 0.0, drained);
    entry.savingUs = entry.stakeUs;
    const auto perStep
        = [&](size_t side) { return all.steps[side] > 0 ? cause.idleUs[side] / double(all.steps[side]) : 0.0; };
    const auto named = [&](size_t side) { return cause.name[side].empty() ? cause.key : cause.name[side]; };
    const Side slow = entry.slowerSide;
    const size_t s = sideIndex(slow);
    const size_t f = sideIndex(otherSide(slow));
    const std::string sameName
        = cause.name[0] == cause.name[1] || cause.name[f].empty() ? named(s) : named(s) + " / " + named(f);
    // The title names the code and what it runs inside; a detail line the chain above that.
    const std::vector<std::string> chain = cause.cause == IdleCause::Host
        ? chainAbove(steps.sides[s], named(s), cause.kind, kChainDepth)
        : std::vector<std::string>();
    switch (cause.cause) {
    case IdleCause::Host:
        entry.title = "the GPU waits while the host runs " + sameName
            + (chain.empty() ? std::string() : " (" + chainWords(chain, 1) + ")") + ": " + formatDuration(perStep(s))
            + " a step on " + report.sideName(slow) + ", " + formatDuration(perStep(f)) + " on "
            + report.sideName(otherSide(slow));
        break;
    case IdleCause::Sync:
        entry.title = "the host waits for the GPU in " + sameName + ": " + formatDuration(perStep(s)) + " a step on "
            + report.sideName(slow) + ", " + formatDuration(perStep(f)) + " on " + report.sideName(otherSide(slow));
        break;
    default: {
        const auto perCall
            = [&](size_t side) { return cause.calls[side] > 0 ? cause.idleUs[side] / double(cause.calls[side]) : 0.0; };
        entry.title = "work starts late after " + sameName + ": " + report.sideName(slow) + " "
            + formatDuration(perCall(s)) + " a launch (" + countedNoun(cause.calls[s], "launch", "launches") + "), "
            + report.sideName(otherSide(slow)) + " " + formatDuration(perCall(f)) + " ("
            + withThousands(int64_t(cause.calls[f])) + ")";
        break;
    }
    }
    entry.details.push_back("GPU idle charged to it in the compared steps: " + report.sideNames[0] + " "
        + formatDuration(cause.idleUs[0]) + " in " + countedNoun(cause.intervals[0], "gap", "gaps") + ", "
        + report.sideNames[1] + " " + formatDuration(cause.idleUs[1]) + " in "
        + countedNoun(cause.intervals[1], "gap", "gaps") + (cause.phase.empty() ? "" : "; most in " + cause.phase));
    if (drained >= kDrainedSaidShare * entry.stakeUs)
        entry.details.push_back("with " + formatDuration(drained)
            + " of launch idle after its gaps, until the host was ahead of the GPU again, that "
            + report.sideName(entry.slowerSide) + " has beyond " + report.sideName(otherSide(entry.slowerSide)) + " ("
            + withThousands(int64_t(drainedBySide[0].launches)) + " and "
            + withThousands(int64_t(drainedBySide[1].launches))
            + " such launches): the gaps emptied the GPU's queue, and each launch's latency showed until it refilled");
    if (capped)
        entry.details.push_back("at stake at most " + formatDuration(entry.stakeUs) + ", all the GPU idle "
            + report.sideName(entry.slowerSide) + " has beyond " + report.sideName(otherSide(entry.slowerSide))
            + " in the compared steps"
            + (overlapBeyond > 0 ? ", less the " + formatDuration(overlapBeyond) + " more of its GPU work it runs "
                        + "alongside other work (concurrent streams)"
                                 : std::string())
            + (leftBeyond > 0 ? ", less the " + formatDuration(leftBeyond)
                        + " of kernel time that left its compared steps (work that moved out of them, not work that "
                          "got faster)"
                              : std::string())
            + ": the rest of the difference is idle the other side has under other causes");
    if (chain.size() > 1)
        entry.details.push_back("on " + report.sideName(slow) + " it runs " + chainWords(chain, chain.size()));
    if (cause.cause == IdleCause::Host) {
        for (const HostTimeRow& row : steps.hostTime) {
            if (row.code == cause.key && row.kind == cause.kind) {
                entry.details.push_back("its own time on the launching threads: " + report.sideNames[0] + " "
                    + formatDuration(row.ownUsPerStep[0]) + " a step, " + report.sideNames[1] + " "
                    + formatDuration(row.ownUsPerStep[1]));
                break;
            }
        }
    }
    return entry;
}

// The idle causes' entries. The launch idle after host gaps is claimed by the host entries
// together (allotDrainedLaunch), and what they claim comes off the launch entries it was charged
// to as launch idle: the entries add up to no more than the idle.
void addIdleEntries(
    const FusionReport& report, const TimeGapAccounting& accounting, std::vector<LookFirstEntry>& entries)
{
    const std::array<double, 2> launchIdle = launchIdleInAll(report.stepTime.rows.back());
    std::vector<const IdleCauseEntry*> causes;
    std::vector<DrainedClaim> claims;
    for (const IdleCauseEntry& cause : report.stepTime.causes) {
        if (cause.cause == IdleCause::Other || cause.idleUs[0] == cause.idleUs[1])
            continue;
        causes.push_back(&cause);
        DrainedClaim claim;
        claim.slower = cause.idleUs[0] - cause.idleUs[1] >= 0 ? 0 : 1;
        std::array<DrainedLaunch, 2> drained;
        for (size_t side = 0; side < 2; ++side) {
            const auto found = accounting.drainedLaunch[side].find(cause.key);
            if (cause.cause == IdleCause::Host && found != accounting.drainedLaunch[side].end())
                drained[side] = found->second;
        }
        claim.us = drainedLaunchBeyondUs(drained, launchIdle, claim.slower);
        claims.push_back(claim);
    }
    const std::vector<double> allotted = allotDrainedLaunch(claims, launchIdle);
    std::array<double, 2> claimed {};
    const size_t first = entries.size();
    for (size_t i = 0; i < causes.size(); ++i) {
        double claimedUs = 0;
        entries.push_back(idleEntry(report, *causes[i], accounting, allotted[i], claimedUs));
        claimed[claims[i].slower] += claimedUs;
    }
    for (size_t slower = 0; slower < 2; ++slower) {
        std::map<std::string, double> stakes;
        for (size_t i = first; i < entries.size(); ++i) {
            if (entries[i].kind == LookFirstKind::Launch && sideIndex(entries[i].slowerSide) == slower)
                stakes[entries[i].op] = entries[i].stakeUs;
        }
        const std::map<std::string, double> off
            = drainedOffLaunches(stakes, accounting.drainedIntoLaunch, slower, claimed[slower]);
        for (size_t i = first; i < entries.size(); ++i) {
            LookFirstEntry& entry = entries[i];
            const auto found = off.find(entry.op);
            if (entry.kind != LookFirstKind::Launch || sideIndex(entry.slowerSide) != slower || found == off.end()
                || found->second <= 0)
                continue;
            entry.details.push_back("at stake " + formatDuration(entry.stakeUs - found->second) + ": "
                + formatDuration(found->second)
                + " of its launch idle came after host gaps that emptied the GPU's queue, and is in those host "
                  "codes' entries");
            entry.stakeUs -= found->second;
            entry.savingUs = entry.stakeUs;
        }
    }
    // A launch entry whose launch idle the host entries hold whole has nothing left to say.
    entries.erase(
        std::remove_if(entries.begin() + std::ptrdiff_t(first), entries.end(),
            [](const LookFirstEntry& entry) { return entry.kind == LookFirstKind::Launch && entry.stakeUs < 1e-6; }),
        entries.end());
}

} // namespace

std::vector<LookFirstEntry> rankWhereToLookFirst(
    const FusionReport& report, const TimeGapAccounting& accounting, size_t limit)
{
    std::vector<LookFirstEntry> entries;
    for (const OpFinding& finding : report.opFindings)
        entries.push_back(fusionEntry(report, finding));
    for (const OpSummary& summary : report.opSummary) {
        const auto paired = accounting.paired.find(summary.op);
        if (paired != accounting.paired.end() && paired->second.timeUs[0] != paired->second.timeUs[1])
            entries.push_back(speedEntry(report, summary, paired->second));
    }
    std::optional<CategoryId> communication;
    for (size_t type = 0; type < report.classifier.categories.size(); ++type) {
        if (report.classifier.categories[type] == "Communication")
            communication = static_cast<CategoryId>(type);
    }
    for (const CollectiveComparison& collective : report.collectives)
        entries.push_back(collectiveEntry(report, collective, communication));
    for (const CollectiveLaunchDifference& difference : accounting.collectiveLaunches)
        entries.push_back(collectiveLaunchEntry(report, difference));
    for (const auto& [op, times] : accounting.oneSide)
        entries.push_back(oneSideEntry(report, op, times));
    // What was not compared ranks with the rest: where one trace holds more steps or graph launches,
    // it can be most of the gap.
    for (const auto& [type, times] : accounting.uncomparedByType) {
        if (times.timeUs[0] != times.timeUs[1])
            entries.push_back(kernelTypeEntry(report, type, times));
    }
    // The host code, blocking calls and launches that keep the GPU idle in the compared steps,
    // when the step time is the headline.
    if (report.stepTime.headline && !report.stepTime.rows.empty())
        addIdleEntries(report, accounting, entries);
    std::stable_sort(entries.begin(), entries.end(),
        [](const LookFirstEntry& a, const LookFirstEntry& b) { return a.stakeUs > b.stakeUs; });
    if (entries.size() > limit)
        entries.resize(limit);
    markEntriesAgainstTheGap(report, entries);
    // So that the first entry is never one that narrows the gap.
    orderWhereToLookFirst(entries);
    return entries;
}

void markEntryAgainstTheGap(const FusionReport& report, LookFirstEntry& entry)
{
    constexpr std::string_view otherWay = "works the other way: ";
    std::erase_if(entry.details, [&](const std::string& line) { return line.starts_with(otherWay); });
    entry.againstGap = false;
    const TimeGapBreakdown& gap = report.timeGap.headline();
    // Within run-to-run noise, no side is slower overall: an entry's words follow the verdict's.
    if (gap.deltaUs == 0 || gap.noise.verdict == NoiseVerdict::WithinNoise)
        return;
    const Side slowerOverall = gap.slowerSide();
    if (entry.stakeUs <= 0 || entry.slowerSide == slowerOverall)
        return;
    entry.againstGap = true;
    entry.details.insert(entry.details.begin(),
        std::string(otherWay) + report.sideName(entry.slowerSide) + " is slower here by "
            + formatDuration(entry.stakeUs) + ", while " + report.sideName(slowerOverall) + " is slower overall");
}

void orderWhereToLookFirst(std::vector<LookFirstEntry>& entries)
{
    const auto group = [](const LookFirstEntry& entry) {
        if (entry.noise == NoiseVerdict::WithinNoise)
            return 2;
        return entry.againstGap ? 1 : 0;
    };
    std::stable_sort(entries.begin(), entries.end(), [&](const LookFirstEntry& a, const LookFirstEntry& b) {
        if (group(a) != group(b))
            return group(a) < group(b);
        return a.stakeUs > b.stakeUs;
    });
}

} // namespace fusiondiff
