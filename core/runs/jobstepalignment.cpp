#include "runs/jobstepalignment.h"

#include "runs/collectiveinstances.h"
#include "util/textformat.h"

#include <algorithm>
#include <map>
#include <set>

namespace fusiondiff {

namespace {

using StepKeys = std::vector<std::vector<int64_t>>; // per rank and own step: the step's place in the job

// The ProfilerStep numbers, where every rank has steps, every step one, and no rank one twice.
StepKeys keysFromNumbers(const std::vector<RankSummary>& ranks)
{
    StepKeys keys;
    for (const RankSummary& rank : ranks) {
        if (rank.steps.empty() || rank.stepNumbers.size() != rank.steps.size())
            return {};
        std::set<int64_t> seen;
        for (const int64_t number : rank.stepNumbers) {
            if (number < 0 || !seen.insert(number).second)
                return {};
        }
        keys.push_back(rank.stepNumbers);
    }
    return keys;
}

// Each rank's steps shifted onto the first rank's: per instance, a member's step against that of
// a member already placed; the shift most instances agree on. A rank that shares no instance with
// a placed one keeps its steps' positions.
StepKeys keysFromCollectives(const JobSide& side)
{
    const size_t n = side.ranks.size();
    std::vector<int64_t> shift(n, 0);
    std::vector<bool> placed(n, false);
    placed[0] = true;
    for (bool progress = true; progress;) {
        progress = false;
        for (size_t r = 1; r < n; ++r) {
            if (placed[r])
                continue;
            std::map<int64_t, size_t> votes;
            for (const CollectiveInstance& instance : side.instances) {
                if (!instance.member[r] || instance.rankStep[r] < 0)
                    continue;
                for (size_t q = 0; q < n; ++q) {
                    if (q != r && placed[q] && instance.member[q] && instance.rankStep[q] >= 0) {
                        ++votes[shift[q] + instance.rankStep[q] - instance.rankStep[r]];
                        break;
                    }
                }
            }
            if (votes.empty())
                continue;
            shift[r] = std::max_element(votes.begin(), votes.end(), [](const auto& a, const auto& b) {
                return a.second < b.second;
            })->first;
            placed[r] = true;
            progress = true;
        }
    }
    StepKeys keys(n);
    for (size_t r = 0; r < n; ++r) {
        for (size_t s = 0; s < side.ranks[r].steps.size(); ++s)
            keys[r].push_back(int64_t(s) + shift[r]);
    }
    return keys;
}

// The ranks that recorded a step, as a note names them.
std::string rankWords(const std::vector<uint32_t>& holders, size_t ranks)
{
    if (holders.size() * 2 <= ranks)
        return (holders.size() == 1 ? "rank " : "ranks ") + numberRanges(holders) + " only";
    std::vector<uint32_t> others;
    for (uint32_t r = 0; r < ranks; ++r) {
        if (!std::binary_search(holders.begin(), holders.end(), r))
            others.push_back(r);
    }
    return "all ranks but " + numberRanges(others);
}

std::string stepWords(int64_t key, bool numbered, const std::vector<int64_t>& common)
{
    if (numbered)
        return "ProfilerStep#" + std::to_string(key);
    if (common.empty())
        return "step " + std::to_string(key + 1) + " of rank 0's numbering";
    if (key < common.front()) {
        const int64_t before = common.front() - key;
        return before == 1 ? "the step before the first every rank recorded"
                           : "the step " + std::to_string(before) + " before the first every rank recorded";
    }
    if (key > common.back()) {
        const int64_t after = key - common.back();
        return after == 1 ? "the step after the last every rank recorded"
                          : "the step " + std::to_string(after) + " after the last every rank recorded";
    }
    return "a step between those every rank recorded";
}

// Each rank's summary cut to the steps in `kept` (keys, ascending): its step s is job step s.
void keepSteps(RankSummary& rank, const std::vector<int64_t>& keys, const std::vector<int64_t>& kept)
{
    std::vector<int32_t> jobStep(rank.steps.size(), -1);
    RankSummary cut;
    for (size_t s = 0; s < rank.steps.size(); ++s) {
        const auto at = std::lower_bound(kept.begin(), kept.end(), keys[s]);
        if (at == kept.end() || *at != keys[s])
            continue;
        jobStep[s] = int32_t(cut.steps.size());
        cut.steps.push_back(rank.steps[s]);
        if (s < rank.stepKernelTypesUs.size())
            cut.stepKernelTypesUs.push_back(std::move(rank.stepKernelTypesUs[s]));
        if (s < rank.stepHostIdleUs.size())
            cut.stepHostIdleUs.push_back(std::move(rank.stepHostIdleUs[s]));
        cut.stepNumbers.push_back(s < rank.stepNumbers.size() ? rank.stepNumbers[s] : -1);
    }
    rank.steps = std::move(cut.steps);
    rank.stepKernelTypesUs = std::move(cut.stepKernelTypesUs);
    rank.stepHostIdleUs = std::move(cut.stepHostIdleUs);
    rank.stepNumbers = std::move(cut.stepNumbers);
    for (RankCollectiveCall& call : rank.collectives)
        call.step = call.step >= 0 && size_t(call.step) < jobStep.size() ? jobStep[size_t(call.step)] : -1;
}

} // namespace

bool alignRankSteps(JobSide& side, std::vector<std::string>& notes, const std::string& sideName)
{
    side.partialSteps.clear();
    const size_t n = side.ranks.size();
    if (n < 2)
        return false;
    StepKeys keys = keysFromNumbers(side.ranks);
    bool numbered = !keys.empty();
    std::map<int64_t, std::vector<uint32_t>> holders; // per step: the ranks (indices) that recorded it
    std::vector<int64_t> common;
    const auto findCommon = [&] {
        holders.clear();
        common.clear();
        for (size_t r = 0; r < n; ++r) {
            for (const int64_t key : keys[r])
                holders[key].push_back(uint32_t(r));
        }
        for (const auto& entry : holders) {
            if (entry.second.size() == n)
                common.push_back(entry.first);
        }
    };
    if (numbered)
        findCommon();
    if (numbered && common.empty()) {
        // Numbers that share no step: the ranks' profilers counted from different steps.
        notes.push_back(sideName
            + ": the ranks' ProfilerStep numbers have no step in common (their profilers count from different "
              "steps): the steps are aligned on the collectives");
        numbered = false;
    }
    if (!numbered) {
        std::vector<std::string> unused; // the final matching, on aligned steps, says what does not match
        matchCollectiveInstances(side, false, unused, sideName);
        keys = keysFromCollectives(side);
        side.instances.clear();
        findCommon();
    }
    std::string partial;
    for (const auto& [key, ranks] : holders) {
        if (ranks.size() == n)
            continue;
        std::vector<uint32_t> numbers;
        for (const uint32_t r : ranks)
            numbers.push_back(uint32_t(side.ranks[r].rank));
        side.partialSteps.push_back(stepWords(key, numbered, common) + " (" + rankWords(numbers, n) + ")");
        partial += (partial.empty() ? "" : "; ") + side.partialSteps.back();
    }
    if (!partial.empty())
        notes.push_back(sideName + ": the ranks' profilers did not record the same steps; "
            + (common.empty() ? std::string("no step is recorded on every rank, so no step is measured")
                              : "the steps every rank recorded are aligned "
                        + std::string(numbered ? "by their ProfilerStep numbers" : "on the collectives")
                        + " and measured, these are left out")
            + ": " + partial);
    for (size_t r = 0; r < n; ++r)
        keepSteps(side.ranks[r], keys[r], common);
    return numbered;
}

} // namespace fusiondiff
