#include "multirankscore.h"

#include "classify/classifier.h"
#include "fusionanalysis.h"
#include "model/fusionreport.h"
#include "model/jobreport.h"
#include "runs/jobcompare.h"
#include "runs/ranksummary.h"
#include "runs/runloader.h"

#include <algorithm>
#include <cmath>
#include <memory>

namespace fusiondiff::test {

namespace {

constexpr double kJobTolerance = 0.1;
constexpr double kWaitTolerance = 0.3;
constexpr double kTransferTolerance = 0.05;
constexpr double kEndJitterUs = 3;

// Whether the entry's cause words fit the constructed cause.
bool causeFits(const LookFirstEntry& entry, const RankScoreCase& scoreCase, const std::string& kernelType)
{
    std::string words;
    for (const std::string& line : entry.details)
        words += line + "\n";
    switch (scoreCase.cause) {
    case StragglerCause::SlowerKernels:
    case StragglerCause::ExtraWork:
        return words.find(kernelType + " kernels +") != std::string::npos;
    case StragglerCause::HostStall:
    case StragglerCause::LateLaunch:
        return words.find("idle (host)") != std::string::npos || words.find("host code") != std::string::npos;
    case StragglerCause::None:
        break;
    }
    return false;
}

std::string numberText(double value)
{
    return std::to_string(int64_t(std::llround(value)));
}

} // namespace

std::vector<RankSummary> summariesOf(const MultiRankRun& run, const Classifier& classifier)
{
    std::vector<RankSummary> out;
    for (const TraceStore& rank : run.ranks)
        out.push_back(summarizeRank(rank, classifier));
    return out;
}

std::string causeName(StragglerCause cause)
{
    switch (cause) {
    case StragglerCause::SlowerKernels:
        return "kernels";
    case StragglerCause::HostStall:
        return "stall";
    case StragglerCause::LateLaunch:
        return "late-launch";
    case StragglerCause::ExtraWork:
        return "extra-work";
    case StragglerCause::None:
        break;
    }
    return "none";
}

RankScore scoreRankCase(const RankScoreCase& scoreCase, const Classifier& classifier)
{
    MultiRankSpec spec;
    spec.ranks = scoreCase.ranks;
    for (size_t r = 0; r < spec.ranks; ++r) // hosts' clocks: seconds apart, not in rank order
        spec.clockOffsetsUs.push_back(double((r * 7919) % 13) * 1.7e6 - 3e6);
    spec.endJitterUs = kEndJitterUs;
    const MultiRankRun probe = buildMultiRankRun(scoreCase.trace, spec, classifier);
    // The job's own skew: rank r starts its steps late by a share of the latest's, in a fixed
    // pattern that puts another rank than the straggler last.
    double stepUs = 0;
    {
        const RankSummary summary = summarizeRank(probe.ranks.front(), classifier);
        std::vector<double> times;
        for (const StepRecord& step : summary.steps)
            times.push_back(step.timeUs());
        std::sort(times.begin(), times.end());
        stepUs = times.empty() ? 0 : times[times.size() / 2];
    }
    const size_t n = spec.ranks;
    for (size_t r = 0; r < n; ++r) {
        const size_t place = (r + 2 * n - size_t(scoreCase.straggler) - 2) % n; // the straggler's next rank is n - 1
        spec.rankLateUs.push_back(scoreCase.skewShareOfStep * stepUs * double(place) / double(n - 1));
    }
    const MultiRankRun plain = buildMultiRankRun(scoreCase.trace, spec, classifier);
    spec.straggler = scoreCase.straggler;
    spec.cause = scoreCase.cause;
    spec.factor = scoreCase.factor;
    spec.stallShareOfStep = scoreCase.stallShareOfStep;
    const MultiRankRun slowRun = buildMultiRankRun(scoreCase.trace, spec, classifier);
    const MultiRankRun& a = scoreCase.inA ? slowRun : plain;
    const MultiRankRun& b = scoreCase.inA ? plain : slowRun;
    const size_t slow = scoreCase.inA ? 0 : 1;
    const Side slowSide = scoreCase.inA ? Side::Trace1 : Side::Trace2;

    RankScore score;
    score.addedUs = slowRun.endUs - plain.endUs;
    const auto job
        = std::make_shared<JobReport>(compareRankSummaries({ summariesOf(a, classifier), summariesOf(b, classifier) }));
    score.measuredUs = job->timeUs[slow] - job->timeUs[1 - slow];
    const double jitterUs = 2 * 2 * kEndJitterUs * double(slowRun.steps);
    // A straggler the job's skew hides whole adds nothing: there is then nothing to find.
    score.hidden = score.addedUs < 1;
    score.slowerJob = std::fabs(score.measuredUs - score.addedUs) <= std::max(kJobTolerance * score.addedUs, jitterUs);
    if (!score.slowerJob)
        score.failure
            += "job " + numberText(score.measuredUs) + " us slower, added " + numberText(score.addedUs) + "; ";

    score.waits = true;
    score.transfer = true;
    for (size_t r = 0; r < n && r < job->rankTimes.size(); ++r) {
        const RankTimeRow& row = job->rankTimes[r];
        const double expected = slowRun.waitUs[r] - plain.waitUs[r];
        const double measured = row.collectiveWaitUs[slow] - row.collectiveWaitUs[1 - slow];
        if (std::fabs(measured - expected) > std::max(kWaitTolerance * std::fabs(expected), 10 + jitterUs)) {
            score.waits = false;
            score.failure += "rank " + std::to_string(r) + " added wait " + numberText(measured) + " us, constructed "
                + numberText(expected) + "; ";
        }
        if (std::fabs(row.collectiveTransferUs[1] - row.collectiveTransferUs[0])
            > kTransferTolerance * slowRun.transferUs + 1) {
            score.transfer = false;
            score.failure += "rank " + std::to_string(r) + " transfer " + numberText(row.collectiveTransferUs[0])
                + " -> " + numberText(row.collectiveTransferUs[1]) + " us; ";
        }
    }

    const std::array<int32_t, 2> pair = job->detailedPair;
    FusionReport report
        = analyzeFusion(a.ranks[size_t(pair[0])], b.ranks[size_t(pair[1])], classifier, AnalysisOptions {});
    addJobToReport(report, job);
    const std::string kernelType
        = scoreCase.cause == StragglerCause::SlowerKernels || scoreCase.cause == StragglerCause::ExtraWork
        ? spec.kernelType
        : std::string();
    for (size_t i = 0; i < std::min<size_t>(2, report.whereToLookFirst.size()); ++i) {
        const LookFirstEntry& entry = report.whereToLookFirst[i];
        score.firstEntries += (i == 0 ? "" : " | ") + std::string(lookFirstKindKey(entry.kind)) + " "
            + numberText(entry.stakeUs) + " us: " + entry.title.substr(0, 90);
        if (i == 0 && entry.kind == LookFirstKind::Straggler && entry.rank == scoreCase.straggler
            && entry.slowerSide == slowSide) {
            score.entry = causeFits(entry, scoreCase, kernelType);
            if (!score.entry)
                score.failure += "its cause: " + (entry.details.empty() ? std::string() : entry.details.front()) + "; ";
        }
    }
    if (score.hidden) {
        score.entry = std::none_of(report.whereToLookFirst.begin(),
            report.whereToLookFirst.begin() + std::ptrdiff_t(std::min<size_t>(2, report.whereToLookFirst.size())),
            [](const LookFirstEntry& entry) { return entry.kind == LookFirstKind::Straggler; });
        if (!score.entry)
            score.failure += "a straggler entry where the straggler adds nothing; ";
    } else if (!score.entry && score.failure.find("its cause") == std::string::npos)
        score.failure += "the first entry is not rank " + std::to_string(scoreCase.straggler) + "'s straggler entry; ";
    // What the job lost bounds the entries: the detailed rank's own growth that its shorter waits
    // absorbed is no job time, so the entries that explain the gap add up to at most the job's loss.
    const double boundUs = std::max(0.0, score.addedUs) * (1 + kJobTolerance) + jitterUs + 1;
    for (const LookFirstEntry& entry : report.whereToLookFirst) {
        const bool explains = entry.noise != NoiseVerdict::WithinNoise && !entry.againstGap;
        if (explains && entry.kind != LookFirstKind::Straggler)
            score.entriesSumUs += entry.stakeUs;
    }
    score.bounded = score.entriesSumUs <= boundUs;
    if (!score.bounded)
        score.failure += "the entries add up to " + numberText(score.entriesSumUs) + " us, the job lost "
            + numberText(score.addedUs) + "; ";
    return score;
}

} // namespace fusiondiff::test
