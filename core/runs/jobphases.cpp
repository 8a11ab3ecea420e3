#include "runs/jobphases.h"

#include "util/textformat.h"

#include <algorithm>
#include <map>

namespace fusiondiff {

namespace {

// What a rank runs in a step, comparable across ranks: its phase's signature; "" outside phases.
std::string stepPhaseKey(const RankSummary& rank, size_t step)
{
    const int32_t phase = rank.steps[step].phase;
    if (phase < 0)
        return {};
    if (size_t(phase) < rank.phaseSignatures.size())
        return rank.phaseSignatures[size_t(phase)];
    return "#" + std::to_string(phase); // a summary without signatures: its own numbering
}

} // namespace

void labelJobStepPhases(JobSide& side, const std::string& sideName, std::vector<std::string>& notes)
{
    side.phaseSignatures.clear();
    if (side.ranks.empty())
        return;
    std::vector<std::string> leading(side.steps.size());
    std::map<size_t, std::vector<uint32_t>> otherSteps; // per rank: the steps (from 1) it runs another phase in
    for (size_t s = 0; s < side.steps.size(); ++s) {
        std::vector<std::string> keys;
        std::map<std::string, size_t> count;
        for (const RankSummary& rank : side.ranks) {
            keys.push_back(stepPhaseKey(rank, s));
            ++count[keys.back()];
        }
        // The first rank's key among those most ranks share: ties go to the lowest rank.
        size_t most = 0;
        for (const std::string& key : keys) {
            if (count[key] > most) {
                most = count[key];
                leading[s] = key;
            }
        }
        for (size_t r = 0; r < keys.size(); ++r) {
            if (keys[r] != leading[s])
                otherSteps[r].push_back(uint32_t(s + 1));
        }
    }
    const auto indexOf = [&side](const std::string& key) {
        const auto it = std::find(side.phaseSignatures.begin(), side.phaseSignatures.end(), key);
        return int32_t(it - side.phaseSignatures.begin());
    };
    // The first rank's phases keep their numbers where they lead a step; then the others' that do.
    for (const std::string& signature : side.ranks[0].phaseSignatures) {
        if (std::find(leading.begin(), leading.end(), signature) != leading.end()
            && size_t(indexOf(signature)) == side.phaseSignatures.size())
            side.phaseSignatures.push_back(signature);
    }
    for (size_t s = 0; s < side.steps.size(); ++s) {
        if (!leading[s].empty() && size_t(indexOf(leading[s])) == side.phaseSignatures.size())
            side.phaseSignatures.push_back(leading[s]);
        side.steps[s].phase = leading[s].empty() ? -1 : indexOf(leading[s]);
    }
    for (const auto& [rank, steps] : otherSteps) {
        notes.push_back(sideName + ": rank " + std::to_string(side.ranks[rank].rank) + " runs another phase than most "
            + "ranks in step" + (steps.size() == 1 ? " " : "s ") + numberRanges(steps)
            + ": each job step is labelled with the phase most of its ranks run");
    }
}

} // namespace fusiondiff
