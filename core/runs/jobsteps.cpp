#include "runs/jobsteps.h"

#include "ops/attribution/iterations.h"
#include "runs/jobside.h"
#include "util/plural.h"

#include <map>
#include <set>

namespace fusiondiff {

ComparedJobSteps pairJobSteps(const std::array<JobSide, 2>& sides, std::vector<std::string>& notes)
{
    ComparedJobSteps out;
    for (size_t s = 0; s < 2; ++s)
        out.partner[s].assign(sides[s].steps.size(), -1);
    const std::vector<int64_t> partner = pairPhaseSignatures(sides[0].phaseSignatures, sides[1].phaseSignatures);
    // Per side, the steps of each group: -1 for the steps in no phase, else A's phase number.
    std::array<std::map<int32_t, std::vector<int32_t>>, 2> groups;
    std::vector<int32_t> groupOfB(sides[1].phaseSignatures.size(), -2);
    for (size_t p = 0; p < partner.size(); ++p) {
        if (partner[p] >= 0)
            groupOfB[size_t(partner[p])] = int32_t(p);
    }
    for (size_t s = 0; s < 2; ++s) {
        for (size_t i = 0; i < sides[s].steps.size(); ++i) {
            const int32_t phase = sides[s].steps[i].phase;
            int32_t group = -1;
            if (phase >= 0)
                group = s == 0 ? (size_t(phase) < partner.size() && partner[size_t(phase)] >= 0 ? phase : -2)
                               : (size_t(phase) < groupOfB.size() ? groupOfB[size_t(phase)] : -2);
            groups[s][group].push_back(int32_t(i));
        }
    }
    const bool phased = partner.size() > 1 || sides[1].phaseSignatures.size() > 1;
    for (size_t p = 0; p < partner.size(); ++p) {
        if (partner[p] >= 0)
            out.phases.push_back("phase " + std::to_string(p + 1));
    }
    std::set<int32_t> both; // the groups of either side (B may have a warm-up where A has none)
    for (size_t s = 0; s < 2; ++s) {
        for (const auto& [group, members] : groups[s])
            both.insert(group);
    }
    for (const int32_t group : both) {
        if (group == -2)
            continue;
        const std::vector<int32_t>& stepsA = groups[0][group];
        const std::vector<int32_t>& stepsB = groups[1][group];
        const size_t compared = std::min(stepsA.size(), stepsB.size());
        if (stepsA.size() != stepsB.size()) {
            const std::string what = group < 0 ? "steps in no phase" : "phase " + std::to_string(group + 1);
            notes.push_back((phased || group < 0 ? what + ": " : std::string()) + "A's job has "
                + countedNoun(stepsA.size(), "step", "steps") + ", B's " + std::to_string(stepsB.size())
                + ": the first " + std::to_string(compared) + " are compared");
        }
        for (size_t k = 0; k < compared; ++k) {
            out.partner[0][size_t(stepsA[k])] = stepsB[k];
            out.partner[1][size_t(stepsB[k])] = stepsA[k];
        }
    }
    for (size_t s = 0; s < 2; ++s) {
        const auto unpaired = groups[s].find(-2);
        if (unpaired != groups[s].end())
            notes.push_back(std::string(s == 0 ? "A" : "B") + "'s job has "
                + countedNoun(unpaired->second.size(), "step", "steps")
                + " in phases the other job does not run: not compared");
    }
    for (size_t i = 0; i < out.partner[0].size(); ++i) {
        if (out.partner[0][i] < 0)
            continue;
        out.pairs.push_back({ int32_t(i), out.partner[0][i] });
        const int32_t phase = sides[0].steps[i].phase;
        out.phaseOfPair.push_back(phase < 0 ? std::string() : "phase " + std::to_string(phase + 1));
    }
    return out;
}

std::vector<JobPhaseRow> jobPhaseRows(const std::vector<JobStepRow>& steps, const std::vector<std::string>& phases)
{
    std::vector<JobPhaseRow> rows;
    for (const std::string& phase : phases) {
        JobPhaseRow row;
        row.phase = phase;
        std::array<std::vector<double>, 2> times;
        for (const JobStepRow& step : steps) {
            if (step.phase != phase)
                continue;
            ++row.steps;
            for (size_t s = 0; s < 2; ++s) {
                times[s].push_back(step.timeUs[s]);
                row.totalUs[s] += step.timeUs[s];
            }
        }
        if (row.steps == 0)
            continue;
        for (size_t s = 0; s < 2; ++s)
            row.medianUs[s] = medianOf(times[s]);
        rows.push_back(std::move(row));
    }
    return rows;
}

} // namespace fusiondiff
