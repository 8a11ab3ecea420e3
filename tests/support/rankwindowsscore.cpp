#include "rankwindows.h"

#include "classify/classifier.h"
#include "runs/jobside.h"
#include "runs/ranksummary.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace fusiondiff::test {

namespace {

constexpr double kBeginToleranceUs = 1;
constexpr double kWaitToleranceUs = 10;
constexpr double kWaitShare = 0.05;

JobSide sideOf(const RankWindowJob& job, const Classifier& classifier, std::vector<std::string>& notes)
{
    std::vector<RankSummary> summaries;
    for (const TraceStore& rank : job.ranks)
        summaries.push_back(summarizeRank(rank, classifier));
    return buildJobSide(std::move(summaries), "A", notes);
}

using CallKey = std::tuple<std::string, std::string, int32_t, size_t>; // collective, group, step, n-th in it

// Each measured call by its collective, group, step (mapped by `copyOfStep` to a copy) and place.
std::map<CallKey, const CollectiveInstance*> callsByCopy(const JobSide& side, const std::vector<int32_t>& copyOfStep)
{
    std::map<CallKey, const CollectiveInstance*> out;
    std::map<std::tuple<std::string, std::string, int32_t>, size_t> seen;
    for (const CollectiveInstance& instance : side.instances) {
        if (instance.step < 0 || size_t(instance.step) >= copyOfStep.size())
            continue;
        const int32_t copy = copyOfStep[size_t(instance.step)];
        const size_t nth = seen[{ instance.collective, instance.group, copy }]++;
        out[{ instance.collective, instance.group, copy, nth }] = &instance;
    }
    return out;
}

} // namespace

RankWindowScore scoreRankWindows(
    const std::vector<std::string>& rankPaths, const RankWindowSpec& spec, const Classifier& classifier)
{
    RankWindowScore score;
    RankWindowSpec fullSpec = spec;
    fullSpec.windows.clear();
    const RankWindowJob full = buildRankWindowJob(rankPaths, fullSpec);
    const RankWindowJob windowed = buildRankWindowJob(rankPaths, spec);
    std::vector<std::string> fullNotes;
    std::vector<std::string> notes;
    const JobSide fullSide = sideOf(full, classifier, fullNotes);
    const JobSide side = sideOf(windowed, classifier, notes);
    const size_t n = windowed.ranks.size();

    // The copies every rank holds, and those only some hold.
    std::vector<int32_t> common;
    std::vector<size_t> partial;
    for (size_t copy = 0; copy < windowed.copies; ++copy) {
        size_t holders = 0;
        for (size_t r = 0; r < n; ++r)
            holders += std::isnan(windowed.stepBeginUs[r][copy]) ? 0 : 1;
        if (holders == n)
            common.push_back(int32_t(copy));
        else if (holders > 0)
            partial.push_back(copy);
    }
    score.steps = side.steps.size() == common.size() && fullSide.steps.size() == spec.steps;
    for (size_t j = 0; score.steps && j < common.size(); ++j) {
        for (size_t r = 0; r < n && score.steps; ++r) {
            const double truth = windowed.stepBeginUs[size_t(side.ranks[r].rank)][size_t(common[j])];
            score.steps = j < side.ranks[r].steps.size()
                && std::fabs(side.ranks[r].steps[j].begin - truth) <= kBeginToleranceUs;
            if (!score.steps)
                score.failure += "rank " + std::to_string(side.ranks[r].rank) + "'s step " + std::to_string(j + 1)
                    + " is not copy " + std::to_string(common[j]) + "; ";
        }
    }
    if (side.steps.size() != common.size())
        score.failure += "job steps " + std::to_string(side.steps.size()) + ", every rank holds "
            + std::to_string(common.size()) + "; ";

    std::vector<int32_t> fullCopies;
    for (size_t s = 0; s < fullSide.steps.size(); ++s)
        fullCopies.push_back(int32_t(s + 1));
    const auto truth = callsByCopy(fullSide, fullCopies);
    const auto measured = callsByCopy(side, common);
    size_t expected = 0;
    for (const auto& [key, instance] : truth) {
        if (std::find(common.begin(), common.end(), std::get<2>(key)) != common.end())
            ++expected;
    }
    score.calls = measured.size();
    score.waits = measured.size() == expected && expected > 0;
    if (!score.waits)
        score.failure += std::to_string(measured.size()) + " calls measured of " + std::to_string(expected) + "; ";
    size_t wrong = 0;
    for (const auto& [key, instance] : measured) {
        const auto same = truth.find(key);
        bool right = same != truth.end();
        for (size_t r = 0; right && r < n; ++r) {
            const double want = same->second->waitUs[r];
            right = std::fabs(instance->waitUs[r] - want) <= kWaitToleranceUs + kWaitShare * want;
        }
        wrong += right ? 0 : 1;
    }
    if (wrong > 0) {
        score.waits = false;
        score.failure += std::to_string(wrong) + " of the calls measured have other waits than the full job's; ";
    }

    score.stragglers = side.steps.size() == common.size();
    for (size_t j = 0; score.stragglers && j < common.size(); ++j) {
        score.stragglers = side.steps[j].straggler == fullSide.steps[size_t(common[j] - 1)].straggler;
        if (!score.stragglers)
            score.failure += "step " + std::to_string(j + 1) + "'s straggler is rank "
                + std::to_string(side.steps[j].straggler) + ", the full job's "
                + std::to_string(fullSide.steps[size_t(common[j] - 1)].straggler) + "; ";
    }

    // Named: a note says the ranks' steps differ, with each partial step's number where they have one.
    std::string noteText;
    for (const std::string& note : notes)
        noteText += note + "\n";
    score.named = partial.empty() || noteText.find("did not record the same steps") != std::string::npos;
    for (const size_t copy : partial) {
        if (spec.numbered
            && noteText.find("ProfilerStep#" + std::to_string(spec.firstNumber + int64_t(copy)) + " ")
                == std::string::npos)
            score.named = false;
    }
    if (!score.named)
        score.failure += "the steps only some ranks hold are not named; ";
    return score;
}

} // namespace fusiondiff::test
