#include "ops/timegap/timegap.h"

#include "classify/kerneltypes.h"
#include "model/tracestore.h"
#include "ops/comparison/collectivecalls.h"
#include "ops/comparison/collectivelaunches.h"
#include "ops/comparison/graphcomparison.h"
#include "ops/comparison/graphtail.h"
#include "ops/comparison/opcomparison.h"
#include "ops/timegap/steptime.h"
#include "util/bothsides.h"
#include "util/sortedruns.h"
#include "util/textformat.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace fusiondiff {

namespace {

constexpr size_t kTopContributors = 5;
constexpr size_t kTopKernels = 3;

// What a breakdown's description adds when a trace holds only part of its GPU work.
constexpr const char* kNotRecordedDescription
    = "; with the GPU time of a graph launch after its last recorded kernel (not recorded), which bounds the time "
      "of the kernels the trace does not hold";

// Sums in long double, so that the parts add up to the total to well below a nanosecond.
struct Sums
{
    std::array<long double, 2> time {};
    std::array<uint64_t, 2> kernels {};

    void add(size_t side, double dur)
    {
        time[side] += dur;
        ++kernels[side];
    }
    double delta() const { return double(time[0] - time[1]); }
};

struct PartSums
{
    GapCause cause;
    Sums sums;
    std::unordered_map<int64_t, Sums> contributors; // key: op index, collective index or type
};

struct OpAccumulator
{
    Sums sums;
    std::array<std::unordered_map<StringId, double>, 2> byName;
    uint64_t typeMask = 0;
};

const char* titleOf(GapCause cause)
{
    switch (cause) {
    case GapCause::Fusion:
        return "extra kernels: kernels one side runs where the other has none, in operations that pair up";
    case GapCause::Speed:
        return "speed: the paired kernels of operations that pair up, faster or slower";
    case GapCause::Collectives:
        return "collectives: communication kernels";
    case GapCause::OneSide:
        return "work on one side only: operations that found no partner, and copies of a repeated block (a layer "
               "stack, a loop over images or requests) that the other side runs fewer times";
    case GapCause::NotCompared:
        return "not compared: kernels outside the compared steps or operations";
    case GapCause::Unattributed:
        return "unattributed: kernels without a launch in the trace";
    case GapCause::Overlap:
        return "overlap: kernels running at the same time on concurrent streams";
    case GapCause::Idle:
        return "idle: the GPU runs no kernel between the first kernel and the last";
    case GapCause::Copies:
        return "copies: copies and memsets on the device";
    case GapCause::IdleHost:
        return "host: the GPU waits while the host runs code before the next launch";
    case GapCause::IdleSync:
        return "sync: the GPU idle while the host waits for it in a blocking call";
    case GapCause::IdleLaunch:
        return "launch: the next work was launched but started late (launch latency, graph launch cost)";
    case GapCause::IdleOther:
        return "other idle: GPU idle time the trace does not explain (no host events, clocks that disagree)";
    case GapCause::NotRecorded:
        return "not recorded: a graph launch ran on after its last recorded kernel until its wait returned, with no "
               "other GPU work between; the trace holds no kernels for that time";
    case GapCause::Residual:
        return "residual: what nothing above explains";
    }
    return "";
}

GapCause causeOf(KernelRole role)
{
    switch (role) {
    case KernelRole::Unattributed:
        return GapCause::Unattributed;
    case KernelRole::NotCompared:
        return GapCause::NotCompared;
    case KernelRole::OneSide:
        return GapCause::OneSide;
    case KernelRole::Paired:
    case KernelRole::Aligned:
        return GapCause::Speed;
    case KernelRole::Extra:
        return GapCause::Fusion;
    }
    return GapCause::NotCompared;
}

// GPU wall time of one trace: the span from the first kernel's start to the last kernel's end,
// and the time covered by at least one kernel (the union of the kernels' intervals).
struct WallTime
{
    double span = 0;
    double busy = 0;
};

WallTime wallTimeOf(const TraceStore& store, const std::vector<NotRecordedSpan>* notRecorded)
{
    std::vector<std::pair<double, double>> intervals;
    intervals.reserve(store.kernels.size() + (notRecorded ? notRecorded->size() : 0));
    for (const KernelEvent& kernel : store.kernels)
        intervals.emplace_back(kernel.ts, kernel.ts + std::max(0.0, kernel.dur));
    if (notRecorded) {
        for (const NotRecordedSpan& span : *notRecorded)
            intervals.emplace_back(span.begin, span.end);
    }
    if (intervals.empty())
        return {};
    sortWhereOutOfOrder(intervals.begin(), intervals.end());
    WallTime wall;
    double start = intervals.front().first;
    double end = intervals.front().second;
    double last = end;
    long double busy = 0;
    for (const auto& [ts, finish] : intervals) {
        last = std::max(last, finish);
        if (ts > end) {
            busy += end - start;
            start = ts;
            end = finish;
        } else {
            end = std::max(end, finish);
        }
    }
    busy += end - start;
    wall.span = last - intervals.front().first;
    wall.busy = double(busy);
    return wall;
}

// The title's words before its colon.
std::string labelOf(GapCause cause)
{
    const std::string title = titleOf(cause);
    return title.substr(0, title.find(':'));
}

TimeGapPart partOf(GapCause cause, const Sums& sums)
{
    TimeGapPart part;
    part.cause = cause;
    part.label = labelOf(cause);
    part.title = titleOf(cause);
    part.deltaUs = sums.delta();
    part.timeUs = { double(sums.time[0]), double(sums.time[1]) };
    part.kernels = sums.kernels;
    return part;
}

void sortParts(std::vector<TimeGapPart>& parts)
{
    std::stable_sort(parts.begin(), parts.end(),
        [](const TimeGapPart& a, const TimeGapPart& b) { return std::fabs(a.deltaUs) > std::fabs(b.deltaUs); });
}

void addResidual(TimeGapBreakdown& breakdown)
{
    double explained = 0;
    for (const TimeGapPart& part : breakdown.parts)
        explained += part.deltaUs;
    TimeGapPart residual;
    residual.cause = GapCause::Residual;
    residual.label = labelOf(GapCause::Residual);
    residual.title = titleOf(GapCause::Residual);
    residual.deltaUs = breakdown.deltaUs - explained;
    breakdown.parts.push_back(std::move(residual));
}

// The not recorded part of a breakdown (GapCause::NotRecorded), added to its sides' times.
void addNotRecorded(TimeGapBreakdown& breakdown, const std::array<double, 2>& us)
{
    if (us[0] <= 0 && us[1] <= 0)
        return;
    TimeGapPart part;
    part.cause = GapCause::NotRecorded;
    part.label = labelOf(GapCause::NotRecorded);
    part.title = titleOf(GapCause::NotRecorded);
    part.timeUs = us;
    part.deltaUs = us[0] - us[1];
    for (size_t side = 0; side < 2; ++side)
        breakdown.timeUs[side] += us[side];
    breakdown.deltaUs = breakdown.timeUs[0] - breakdown.timeUs[1];
    breakdown.parts.push_back(std::move(part));
    breakdown.description += kNotRecordedDescription;
}

// `all` less `some` of it, part by part and contributor by contributor.
std::vector<PartSums> without(const std::vector<PartSums>& all, const std::vector<PartSums>& some)
{
    std::vector<PartSums> rest = all;
    for (size_t p = 0; p < rest.size(); ++p) {
        for (size_t side = 0; side < 2; ++side) {
            rest[p].sums.time[side] -= some[p].sums.time[side];
            rest[p].sums.kernels[side] -= some[p].sums.kernels[side];
        }
        for (const auto& [key, sums] : some[p].contributors) {
            Sums& into = rest[p].contributors[key];
            for (size_t side = 0; side < 2; ++side) {
                into.time[side] -= sums.time[side];
                into.kernels[side] -= sums.kernels[side];
            }
            if (into.kernels[0] + into.kernels[1] == 0)
                rest[p].contributors.erase(key);
        }
    }
    return rest;
}

std::vector<TimeGapPart> partsOf(
    const std::vector<PartSums>& parts, const TimeGapInput& input, const std::vector<std::string>& collectiveNames)
{
    const KernelRoles& roles = input.roles;
    std::vector<TimeGapPart> result;
    for (const PartSums& sums : parts) {
        if (sums.sums.kernels[0] + sums.sums.kernels[1] == 0)
            continue;
        TimeGapPart part = partOf(sums.cause, sums.sums);
        for (const auto& [key, contributor] : sums.contributors) {
            std::string name;
            if (sums.cause == GapCause::Collectives)
                name = collectiveNames[size_t(key)];
            else if (sums.cause == GapCause::Unattributed)
                name = input.typeNames[size_t(key)];
            else
                name = key >= 0 ? roles.opNames[size_t(key)] : "(no operation)";
            part.top.push_back({ std::move(name), contributor.delta(),
                { double(contributor.time[0]), double(contributor.time[1]) }, contributor.kernels });
        }
        std::sort(part.top.begin(), part.top.end(), [](const GapContributor& a, const GapContributor& b) {
            return std::fabs(a.deltaUs) != std::fabs(b.deltaUs) ? std::fabs(a.deltaUs) > std::fabs(b.deltaUs)
                                                                : a.name < b.name;
        });
        if (part.top.size() > kTopContributors)
            part.top.resize(kTopContributors);
        result.push_back(std::move(part));
    }
    return result;
}

GapCause gapCauseOf(IdleCause cause)
{
    switch (cause) {
    case IdleCause::Host:
        return GapCause::IdleHost;
    case IdleCause::Sync:
        return GapCause::IdleSync;
    case IdleCause::Launch:
        return GapCause::IdleLaunch;
    case IdleCause::BetweenSteps:
    case IdleCause::Other:
        return GapCause::IdleOther;
    }
    return GapCause::IdleOther;
}

// The step-time basis: a step's time = the kernels that start in it + its copies - what they
// overlap (concurrent streams, work running past the step's end) + its idle time by cause.
TimeGapBreakdown stepTimeBreakdown(
    const StepTimeAnalysis& steps, std::vector<TimeGapPart> kernelParts, const std::array<double, 2>& kernelTimeUs)
{
    const StepTimeTotals& totals = steps.totals;
    TimeGapBreakdown breakdown;
    breakdown.basis = TimeBasis::StepTime;
    breakdown.description = "the compared steps, each from its start on the host to the later of its last GPU work's "
                            "end, its host end and the next step's start: the GPU's busy time in them (kernels, copies "
                            "and memsets, less their overlap) "
                            "plus its idle time by cause";
    breakdown.timeUs = totals.timeUs;
    breakdown.deltaUs = totals.timeUs[0] - totals.timeUs[1];
    breakdown.parts = std::move(kernelParts);
    const auto newPart = [](GapCause cause) {
        TimeGapPart part;
        part.cause = cause;
        part.label = labelOf(cause);
        part.title = titleOf(cause);
        return part;
    };
    TimeGapPart copies = newPart(GapCause::Copies);
    TimeGapPart overlap = newPart(GapCause::Overlap);
    overlap.title = "overlap: GPU work counted twice (concurrent streams) or running past its step's end";
    for (size_t side = 0; side < 2; ++side) {
        copies.timeUs[side] = totals.copiesUs[side];
        copies.kernels[side] = totals.copies[side];
        overlap.timeUs[side]
            = kernelTimeUs[side] + totals.copiesUs[side] + totals.notRecordedUs[side] - totals.busyUs[side];
    }
    copies.deltaUs = copies.timeUs[0] - copies.timeUs[1];
    overlap.deltaUs = -(overlap.timeUs[0] - overlap.timeUs[1]);
    if (copies.kernels[0] + copies.kernels[1] > 0)
        breakdown.parts.push_back(std::move(copies));
    breakdown.parts.push_back(std::move(overlap));
    if (totals.notRecordedUs[0] > 0 || totals.notRecordedUs[1] > 0) {
        TimeGapPart notRecorded = newPart(GapCause::NotRecorded);
        notRecorded.timeUs = totals.notRecordedUs;
        notRecorded.deltaUs = notRecorded.timeUs[0] - notRecorded.timeUs[1];
        breakdown.parts.push_back(std::move(notRecorded));
        breakdown.description += kNotRecordedDescription;
    }
    for (const IdleCause cause : { IdleCause::Host, IdleCause::Sync, IdleCause::Launch, IdleCause::Other }) {
        TimeGapPart part = newPart(gapCauseOf(cause));
        for (size_t side = 0; side < 2; ++side)
            part.timeUs[side] = totals.idleUs[side][size_t(cause)];
        part.deltaUs = part.timeUs[0] - part.timeUs[1];
        if (part.timeUs[0] == 0 && part.timeUs[1] == 0)
            continue;
        for (const IdleCauseEntry& entry : steps.report.causes) { // by |delta|, largest first
            if (entry.cause != cause || part.top.size() == kTopContributors)
                continue;
            part.top.push_back({ entry.key, entry.idleUs[0] - entry.idleUs[1], entry.idleUs, entry.intervals });
        }
        breakdown.parts.push_back(std::move(part));
    }
    sortParts(breakdown.parts);
    addResidual(breakdown);
    return breakdown;
}

} // namespace

void addGraphRoles(KernelRoles& roles, const std::array<std::vector<ComparedGraphKernel>, 2>& compared,
    const std::vector<std::string>& patternNames)
{
    // Patterns of the same name (a graph's parts of one kind) are one operation.
    std::vector<int32_t> opOfPattern;
    for (const std::string& name : patternNames) {
        const auto found = std::find(roles.opNames.begin(), roles.opNames.end(), name);
        opOfPattern.push_back(int32_t(found - roles.opNames.begin()));
        if (found == roles.opNames.end())
            roles.opNames.push_back(name);
    }
    for (size_t side = 0; side < 2; ++side) {
        for (const ComparedGraphKernel& kernel : compared[side]) {
            if (kernel.kernel >= roles.role[side].size())
                continue;
            switch (kernel.role) {
            case ComparedGraphKernel::Role::Paired:
                roles.role[side][kernel.kernel] = KernelRole::Paired;
                break;
            case ComparedGraphKernel::Role::Aligned:
                roles.role[side][kernel.kernel] = KernelRole::Aligned;
                break;
            case ComparedGraphKernel::Role::Extra:
                roles.role[side][kernel.kernel] = KernelRole::Extra;
                break;
            case ComparedGraphKernel::Role::NotCompared:
                roles.role[side][kernel.kernel] = KernelRole::NotCompared;
                break;
            case ComparedGraphKernel::Role::Work:
                roles.role[side][kernel.kernel] = KernelRole::OneSide;
                break;
            }
            roles.op[side][kernel.kernel] = opOfPattern[kernel.pattern];
        }
    }
}

TimeGapAccounting explainTimeGap(const TimeGapInput& input)
{
    const KernelRoles& roles = input.roles;
    std::vector<PartSums> parts;
    for (const GapCause cause : { GapCause::Fusion, GapCause::Speed, GapCause::Collectives, GapCause::OneSide,
             GapCause::NotCompared, GapCause::Unattributed })
        parts.push_back({ cause, {}, {} });
    // The kernels outside the compared steps (usually few): those inside are the difference.
    std::vector<PartSums> outsideParts = parts;
    std::unordered_map<int32_t, OpAccumulator> paired, oneSide, uncompared; // uncompared: by type
    std::vector<std::string> collectiveNames;
    Sums total, outsideTotal;

    for (size_t side = 0; side < 2; ++side) {
        const TraceStore& store = *input.stores[side];
        const KernelTypes& types = *input.types[side];
        std::vector<int32_t> collectiveOfKernel(store.kernels.size(), -1);
        for (const CollectiveCall& call : *input.collectiveCalls[side]) {
            auto found = std::find(collectiveNames.begin(), collectiveNames.end(), call.collective);
            if (found == collectiveNames.end())
                found = collectiveNames.insert(found, call.collective);
            for (const uint32_t k : call.kernels)
                collectiveOfKernel[k] = int32_t(found - collectiveNames.begin());
        }
        const std::vector<bool>* inStep = input.stepTime ? &input.stepTime->totals.kernelInStep[side] : nullptr;
        for (size_t k = 0; k < store.kernels.size(); ++k) {
            const KernelEvent& kernel = store.kernels[k];
            const bool outside = inStep && !(k < inStep->size() && (*inStep)[k]);
            total.add(side, kernel.dur);
            if (outside)
                outsideTotal.add(side, kernel.dur);
            if (collectiveOfKernel[k] >= 0) {
                for (std::vector<PartSums>* into : { &parts, outside ? &outsideParts : nullptr }) {
                    if (!into)
                        continue;
                    PartSums& part = (*into)[size_t(GapCause::Collectives)];
                    part.sums.add(side, kernel.dur);
                    part.contributors[collectiveOfKernel[k]].add(side, kernel.dur);
                }
                continue;
            }
            const KernelRole role = roles.role[side].empty() ? KernelRole::NotCompared : roles.role[side][k];
            const int32_t op = roles.op[side].empty() ? -1 : roles.op[side][k];
            for (std::vector<PartSums>* into : { &parts, outside ? &outsideParts : nullptr }) {
                if (!into)
                    continue;
                PartSums& part = (*into)[size_t(causeOf(role))];
                part.sums.add(side, kernel.dur);
                part.contributors[role == KernelRole::Unattributed ? int64_t(types.ofKernel[k]) : int64_t(op)].add(
                    side, kernel.dur);
            }
            OpAccumulator* accumulator = nullptr;
            if (op >= 0 && (role == KernelRole::Paired || role == KernelRole::OneSide))
                accumulator = &(role == KernelRole::Paired ? paired : oneSide)[op];
            else if (role == KernelRole::NotCompared || role == KernelRole::Unattributed)
                accumulator = &uncompared[int32_t(types.ofKernel[k])];
            if (accumulator) {
                accumulator->sums.add(side, kernel.dur);
                accumulator->byName[side][kernel.name] += kernel.dur;
                accumulator->typeMask |= uint64_t(1) << types.ofKernel[k];
            }
        }
    }

    TimeGapAccounting result;
    if (input.stepTime) {
        result.drainedLaunch = input.stepTime->totals.drainedLaunch;
        result.drainedIntoLaunch = input.stepTime->totals.drainedIntoLaunch;
    }
    TimeGapBreakdown& kernelTime = result.gap.kernelTime;
    kernelTime.basis = TimeBasis::GpuKernelTime;
    kernelTime.description = "the sum of the durations of all kernels of each trace; kernels that run at the same "
                             "time on concurrent streams count in full";
    kernelTime.timeUs = { double(total.time[0]), double(total.time[1]) };
    kernelTime.deltaUs = total.delta();
    kernelTime.parts = partsOf(parts, input, collectiveNames);
    // Its kernels ran at most as long as the launch ran on: the kernel time's upper bound.
    std::array<double, 2> notRecordedUs {};
    for (size_t side = 0; side < 2; ++side) {
        if (input.notRecorded[side]) {
            for (const NotRecordedSpan& span : *input.notRecorded[side])
                notRecordedUs[side] += span.end - span.begin;
        }
    }
    addNotRecorded(kernelTime, notRecordedUs);
    sortParts(kernelTime.parts);
    addResidual(kernelTime);

    // The wall-time basis: wall = kernel time - overlap + idle, on each side.
    if (!input.stores[0]->kernels.empty() && !input.stores[1]->kernels.empty()) {
        std::array<WallTime, 2> walls;
        forBothSides(input.sidesInParallel,
            [&](size_t side) { walls[side] = wallTimeOf(*input.stores[side], input.notRecorded[side]); });
        TimeGapBreakdown wall;
        wall.basis = TimeBasis::GpuWallTime;
        wall.description = "from the start of the first kernel to the end of the last kernel of each trace: the "
                           "kernel time, less what concurrent kernels overlap, plus the time the GPU runs no kernel";
        wall.timeUs = { walls[0].span, walls[1].span };
        wall.deltaUs = walls[0].span - walls[1].span;
        if (notRecordedUs[0] > 0 || notRecordedUs[1] > 0)
            wall.description += kNotRecordedDescription;
        wall.parts = kernelTime.parts;
        wall.parts.pop_back(); // the kernel-time residual; the wall time has its own
        TimeGapPart overlap;
        overlap.cause = GapCause::Overlap;
        overlap.label = labelOf(GapCause::Overlap);
        overlap.title = titleOf(GapCause::Overlap);
        TimeGapPart idle;
        idle.cause = GapCause::Idle;
        idle.label = labelOf(GapCause::Idle);
        idle.title = titleOf(GapCause::Idle);
        for (size_t side = 0; side < 2; ++side) {
            overlap.timeUs[side] = kernelTime.timeUs[side] - walls[side].busy;
            idle.timeUs[side] = walls[side].span - walls[side].busy;
        }
        overlap.deltaUs = -(overlap.timeUs[0] - overlap.timeUs[1]);
        idle.deltaUs = idle.timeUs[0] - idle.timeUs[1];
        wall.parts.push_back(std::move(overlap));
        wall.parts.push_back(std::move(idle));
        sortParts(wall.parts);
        addResidual(wall);
        result.gap.wallTime = std::move(wall);
    }
    if (input.stepTime && input.stepTime->totals.timeUs[0] > 0 && input.stepTime->totals.timeUs[1] > 0) {
        const std::vector<PartSums> stepParts = without(parts, outsideParts);
        result.gap.stepTime = stepTimeBreakdown(*input.stepTime, partsOf(stepParts, input, collectiveNames),
            { double(total.time[0] - outsideTotal.time[0]), double(total.time[1] - outsideTotal.time[1]) });
        result.gap.onStepTime = input.stepTime->report.headline;
    }
    result.gap.verdict = timeGapVerdict(result.gap, input.sideNames);

    auto describe = [&](std::unordered_map<int32_t, OpAccumulator>& accumulators, auto& out, auto keyOf) {
        for (auto& [key, accumulator] : accumulators) {
            OpKernelTimes& times = out[keyOf(key)];
            times.timeUs = { double(accumulator.sums.time[0]), double(accumulator.sums.time[1]) };
            times.kernels = accumulator.sums.kernels;
            for (size_t side = 0; side < 2; ++side) {
                std::vector<std::pair<StringId, double>> byName(
                    accumulator.byName[side].begin(), accumulator.byName[side].end());
                std::sort(byName.begin(), byName.end(), [](const auto& a, const auto& b) {
                    return a.second != b.second ? a.second > b.second : a.first < b.first;
                });
                for (size_t i = 0; i < std::min(kTopKernels, byName.size()); ++i)
                    times.topKernels[side].emplace_back(
                        std::string(input.stores[side]->name(byName[i].first)), byName[i].second);
            }
            for (CategoryId type = 0; type < 64; ++type) {
                if (accumulator.typeMask >> type & 1)
                    times.types.push_back(type);
            }
        }
    };
    auto opName = [&](int32_t op) { return roles.opNames[size_t(op)]; };
    describe(paired, result.paired, opName);
    describe(oneSide, result.oneSide, opName);
    describe(uncompared, result.uncomparedByType, [](int32_t type) { return CategoryId(type); });
    result.collectiveLaunches = collectiveLaunchDifferences(roles, input.collectiveCalls, input.stores);
    return result;
}

} // namespace fusiondiff
