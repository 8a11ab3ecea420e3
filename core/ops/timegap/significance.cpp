#include "ops/timegap/significance.h"

#include "model/fusionreport.h"
#include "model/steptime.h"
#include "ops/timegap/timegap.h"
#include "util/textformat.h"

#include <algorithm>
#include <cmath>

namespace fusiondiff {

namespace {

// The interquartile range of a normal distribution, in standard deviations.
constexpr double kIqrPerSigma = 1.349;

std::string percentText(double share)
{
    return fixed(share * 100, 0) + "%";
}

bool isIdle(GapCause cause)
{
    return cause == GapCause::IdleHost || cause == GapCause::IdleSync || cause == GapCause::IdleLaunch
        || cause == GapCause::IdleOther;
}

// The step_times rows of the compared phases (the "all steps" row is their sum).
std::vector<const StepTimeRow*> phaseRows(const StepTimeReport& report)
{
    std::vector<const StepTimeRow*> rows;
    for (size_t i = 0; i < std::min(report.rows.size(), report.phases.size()); ++i)
        rows.push_back(&report.rows[i]);
    return rows;
}

GapNoise within(GapNoise noise, std::string reason)
{
    noise.verdict = NoiseVerdict::WithinNoise;
    noise.reason = std::move(reason);
    return noise;
}

LookFirstKind idleEntryKindOf(IdleCause cause)
{
    return cause == IdleCause::Sync  ? LookFirstKind::Sync
        : cause == IdleCause::Launch ? LookFirstKind::Launch
                                     : LookFirstKind::Host;
}

std::string withinText(const GapNoise& noise)
{
    return "within run-to-run noise (±" + formatDuration(noise.noiseUs) + ")";
}

bool spreadMeasured(const StepTimeRow& row)
{
    return row.steps[0] >= kMinStepsForSpread && row.steps[1] >= kMinStepsForSpread;
}

// kNoiseStandardErrors standard errors of the difference of the two sides' sums of a phase's steps.
double phaseSpreadUs(const StepTimeRow& row)
{
    double variance = 0;
    for (size_t side = 0; side < 2; ++side) {
        const double sigma = robustSigma(row.timeUs[side]);
        variance += double(row.steps[side]) * sigma * sigma;
    }
    return kNoiseStandardErrors * std::sqrt(variance);
}

std::string stepCountText(uint64_t steps)
{
    return steps == 1 ? "one step" : std::to_string(steps) + " steps";
}

// "one step a side", "3 steps on A and one on B": what a phase has.
std::string phaseStepsText(const StepTimeRow& row)
{
    if (row.steps[0] == row.steps[1])
        return stepCountText(row.steps[0]) + " a side";
    return stepCountText(row.steps[0]) + " on A and " + (row.steps[1] == 1 ? "one" : std::to_string(row.steps[1]))
        + " on B";
}

// The phases too short to measure their spread, in words: "one step a side" (the only phase),
// "one step a side in phase 1".
std::string fewStepsText(const std::vector<const StepTimeRow*>& rows)
{
    std::string text;
    for (const StepTimeRow* row : rows) {
        if (spreadMeasured(*row))
            continue;
        text += text.empty() ? "" : ", ";
        text += phaseStepsText(*row) + (rows.size() > 1 ? " in " + row->phase : "");
    }
    return text;
}

} // namespace

double robustSigma(const Spread& spread)
{
    return spread.count < 2 ? 0.0 : std::max(0.0, spread.q3 - spread.q1) / kIqrPerSigma;
}

double pairedNoiseUs(const Spread& difference)
{
    return kNoiseStandardErrors * std::sqrt(double(difference.count)) * robustSigma(difference);
}

GapNoise judgeDelta(double deltaUs, const std::array<double, 2>& timeUs, double spreadUs, const char* basis)
{
    GapNoise noise;
    noise.basis = basis;
    noise.spreadUs = spreadUs;
    noise.floorUs = kNoiseFloorShare * std::max(0.0, std::min(timeUs[0], timeUs[1]));
    noise.noiseUs = std::max(noise.spreadUs, noise.floorUs);
    const std::string bound = noise.spreadUs >= noise.floorUs
        ? "twice the standard error from the " + noise.basis + "' spread"
        : percentText(kNoiseFloorShare) + " of the faster side's time, more than the " + noise.basis
            + "' spread explains";
    if (std::fabs(deltaUs) > noise.noiseUs) {
        noise.verdict = NoiseVerdict::Significant;
        noise.reason = "beyond run-to-run noise: |A - B| " + formatDuration(std::fabs(deltaUs)) + " > "
            + formatDuration(noise.noiseUs) + " (" + bound + ")";
        return noise;
    }
    return within(noise,
        "within run-to-run noise: |A - B| " + formatDuration(std::fabs(deltaUs))
            + " <= " + formatDuration(noise.noiseUs) + " (" + bound + ")");
}

GapNoise kernelTimeNoise(const TimeGapBreakdown& kernelTime, const std::vector<OpSummary>& operations)
{
    double variance = 0;
    for (const OpSummary& op : operations) {
        const double sigma = robustSigma(op.differenceUs);
        variance += double(op.differenceUs.count) * sigma * sigma;
    }
    return judgeDelta(kernelTime.deltaUs, kernelTime.timeUs, kNoiseStandardErrors * std::sqrt(variance), "calls");
}

GapNoise stepTimeNoise(const TimeGapBreakdown& steps, const StepTimeReport& report, double gpuCallsSpreadUs)
{
    const std::vector<const StepTimeRow*> rows = phaseRows(report);
    bool measured = !rows.empty();
    double variance = 0;
    double stepSpread = 0;
    // The phases with enough steps: their own gap and its spread.
    std::array<double, 2> measuredTime {};
    double measuredVariance = 0;
    for (const StepTimeRow* row : rows) {
        const bool enough = spreadMeasured(*row);
        measured &= enough;
        for (size_t side = 0; side < 2; ++side) {
            const double sigma = robustSigma(row->timeUs[side]);
            variance += double(row->steps[side]) * sigma * sigma;
            if (!enough)
                continue;
            measuredVariance += double(row->steps[side]) * sigma * sigma;
            measuredTime[side] += row->totalUs[side];
            stepSpread = std::max(stepSpread, (row->timeUs[side].q3 - row->timeUs[side].q1) / 2);
        }
    }
    if (measured) {
        GapNoise noise = judgeDelta(steps.deltaUs, steps.timeUs, kNoiseStandardErrors * std::sqrt(variance), "steps");
        noise.stepSpreadUs = stepSpread;
        return noise;
    }

    // Too few steps in some phase: only the other phases' and the GPU work's spreads are measured.
    const std::string few = fewStepsText(rows);
    GapNoise noise = judgeDelta(steps.deltaUs, steps.timeUs, 0, "floor");
    noise.basis = "floor";
    noise.stepSpreadUs = stepSpread;
    noise.fewSteps = few;
    if (!noise.significant())
        return within(noise,
            "within run-to-run noise: |A - B| " + formatDuration(std::fabs(steps.deltaUs))
                + " <= " + formatDuration(noise.noiseUs) + " (" + percentText(kNoiseFloorShare)
                + " of the faster side's time; " + few + ", so the steps' own spread is not measured)");
    // The phases whose spread is measured may differ beyond it on their own, in the gap's direction.
    const double measuredDelta = measuredTime[0] - measuredTime[1];
    if (measuredTime[0] > 0 && measuredTime[1] > 0 && (measuredDelta > 0) == (steps.deltaUs > 0)) {
        const GapNoise phases
            = judgeDelta(measuredDelta, measuredTime, kNoiseStandardErrors * std::sqrt(measuredVariance), "steps");
        if (phases.significant()) {
            noise.basis = "steps";
            noise.spreadUs = phases.spreadUs;
            noise.reason = "beyond run-to-run noise: the phases with enough steps alone differ by "
                + formatDuration(std::fabs(measuredDelta)) + " > " + formatDuration(phases.noiseUs)
                + " in the gap's direction (" + few + ", so that phase's spread is not measured)";
            return noise;
        }
    }
    double gpuDelta = 0;
    std::array<double, 2> gpuTime = steps.timeUs;
    for (const TimeGapPart& part : steps.parts) {
        if (isIdle(part.cause)) {
            gpuTime[0] -= part.timeUs[0];
            gpuTime[1] -= part.timeUs[1];
        } else if (part.cause != GapCause::Residual) {
            gpuDelta += part.deltaUs;
        }
    }
    const GapNoise gpu = judgeDelta(gpuDelta, gpuTime, gpuCallsSpreadUs, "calls");
    noise.spreadUs = gpu.spreadUs;
    const bool sameDirection = (gpuDelta > 0) == (steps.deltaUs > 0);
    if (gpu.significant() && sameDirection) {
        noise.basis = "calls";
        noise.reason = "beyond run-to-run noise: the GPU work alone differs by " + formatDuration(std::fabs(gpuDelta))
            + " > " + formatDuration(gpu.noiseUs) + " in the gap's direction (" + few
            + ", so the idle time's spread is not measured)";
        return noise;
    }
    noise.verdict = NoiseVerdict::CannotTell;
    noise.reason = "cannot tell from run-to-run noise: " + few
        + ", so the spread of the GPU idle time is not measured, and the GPU work differs by "
        + (gpuDelta < 0 ? "-" : "+") + formatDuration(std::fabs(gpuDelta)) + " ("
        + (gpu.significant() ? "the other way" : withinText(gpu)) + ")";
    return noise;
}

GapNoise wallTimeNoise(const TimeGapBreakdown& wall, const TimeGapBreakdown& kernelTime)
{
    GapNoise noise = judgeDelta(wall.deltaUs, wall.timeUs, 0, "floor");
    if (!noise.significant())
        return noise;
    if (kernelTime.noise.significant() && (kernelTime.deltaUs > 0) == (wall.deltaUs > 0)
        && std::fabs(kernelTime.deltaUs) > noise.floorUs) {
        noise.basis = "calls";
        noise.reason = "beyond run-to-run noise: the kernel time alone differs beyond noise in the same direction";
        return noise;
    }
    noise.verdict = NoiseVerdict::CannotTell;
    noise.reason = "cannot tell from run-to-run noise: the kernel time does not differ beyond noise in the same "
                   "direction, and the spread of the GPU idle time is not measured";
    return noise;
}

void judgeTimeGapNoise(FusionReport& report)
{
    TimeGap& gap = report.timeGap;
    gap.kernelTime.noise = kernelTimeNoise(gap.kernelTime, report.opSummary);
    if (gap.wallTime)
        gap.wallTime->noise = wallTimeNoise(*gap.wallTime, gap.kernelTime);
    if (gap.stepTime)
        gap.stepTime->noise = stepTimeNoise(*gap.stepTime, report.stepTime, gap.kernelTime.noise.spreadUs);
    gap.verdict = timeGapVerdict(gap, report.sideNames);

    for (OpFinding& finding : report.opFindings) {
        const GapNoise noise = judgeDelta(finding.savingUs, { finding.timeUs[0].total, finding.timeUs[1].total },
            pairedNoiseUs(finding.differenceUs), "calls");
        finding.significant = noise.significant();
        finding.noiseUs = noise.noiseUs;
        if (!finding.significant)
            finding.summary += " (" + withinText(noise) + ")";
    }
}

void judgeLookFirstNoise(FusionReport& report)
{
    const auto summaryOf = [&report](const std::string& op) -> const OpSummary* {
        for (const OpSummary& summary : report.opSummary) {
            if (summary.op == op)
                return &summary;
        }
        return nullptr;
    };
    const auto findingOf = [&report](const std::string& op) -> const OpFinding* {
        for (const OpFinding& finding : report.opFindings) {
            if (finding.op == op)
                return &finding;
        }
        return nullptr;
    };
    const GapNoise* steps = report.timeGap.stepTime ? &report.timeGap.stepTime->noise : nullptr;
    // A host, sync or launch entry against the spread of the steps of the phase it costs most in.
    const std::vector<const StepTimeRow*> phases = phaseRows(report.stepTime);
    const auto phaseOf = [&report, &phases](const LookFirstEntry& entry) -> const StepTimeRow* {
        std::string phase;
        for (const IdleCauseEntry& cause : report.stepTime.causes) {
            if (cause.key == entry.op && idleEntryKindOf(cause.cause) == entry.kind) {
                phase = cause.phase;
                break;
            }
        }
        for (const StepTimeRow* row : phases) {
            if (row->phase == phase || phases.size() == 1)
                return row;
        }
        return nullptr;
    };
    for (LookFirstEntry& entry : report.whereToLookFirst) {
        GapNoise noise;
        switch (entry.kind) {
        case LookFirstKind::Fusion:
            if (const OpFinding* finding = findingOf(entry.op)) {
                noise.verdict = finding->significant ? NoiseVerdict::Significant : NoiseVerdict::WithinNoise;
                noise.noiseUs = finding->noiseUs;
            }
            break;
        case LookFirstKind::Speed:
            if (const OpSummary* summary = summaryOf(entry.op))
                noise = judgeDelta(entry.stakeUs, entry.timeUs, pairedNoiseUs(summary->differenceUs), "calls");
            break;
        case LookFirstKind::OneSide: // an operation only one side runs is a difference in the work, not in its time
        case LookFirstKind::Straggler: // added by the job comparison (core/runs/), after this judgement
            break;
        case LookFirstKind::Collective:
        case LookFirstKind::KernelType:
            noise = judgeDelta(entry.stakeUs, entry.timeUs, 0, "floor");
            break;
        case LookFirstKind::Host:
        case LookFirstKind::Sync:
        case LookFirstKind::Launch: {
            const StepTimeRow* phase = phaseOf(entry);
            if (phase && spreadMeasured(*phase)) {
                noise = judgeDelta(entry.stakeUs, entry.timeUs, phaseSpreadUs(*phase), "steps");
            } else if (!phase && steps && steps->basis == "steps") {
                noise = judgeDelta(entry.stakeUs, entry.timeUs, steps->spreadUs, "steps");
            } else {
                noise.verdict = NoiseVerdict::CannotTell;
                const std::string few = !phase ? "too few steps in some phase"
                    : phases.size() > 1        ? phase->phase + ", where it costs most, has " + phaseStepsText(*phase)
                                               : phaseStepsText(*phase);
                entry.details.push_back(
                    "cannot tell from run-to-run noise: " + few + ", so the spread of the idle time is not measured");
            }
            break;
        }
        }
        entry.noise = noise.verdict;
        entry.noiseUs = noise.noiseUs;
        if (noise.verdict == NoiseVerdict::WithinNoise && entry.kind != LookFirstKind::Fusion)
            entry.title += " (" + withinText(noise) + ")"; // a fusion entry's title is its finding's summary
    }
    std::stable_partition(report.whereToLookFirst.begin(), report.whereToLookFirst.end(),
        [](const LookFirstEntry& entry) { return entry.noise != NoiseVerdict::WithinNoise; });
}

} // namespace fusiondiff
