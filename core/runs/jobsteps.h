#pragma once

#include "model/jobreport.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace fusiondiff {

// Which job steps of A and B are compared with each other. The phases of the two jobs (a step's
// the one most of its ranks run, runs/jobphases.h) pair as a single pair's do: the same operations,
// else the same position. In each pair of phases the first min(n1, n2) steps of each side pair in
// order; the steps in no phase (the warm-up) pair among themselves the same way.
struct ComparedJobSteps
{
    std::vector<std::array<int32_t, 2>> pairs; // A's step and B's, in A's step order
    std::vector<std::string> phaseOfPair; // "phase 1", ... (A's phase number); "": no phase
    std::array<std::vector<int32_t>, 2> partner; // per side and job step: the other side's step, -1: not compared
    std::vector<std::string> phases; // the paired phases' names, in A's order

    bool compared(size_t side, int32_t step) const
    {
        return step >= 0 && size_t(step) < partner[side].size() && partner[side][size_t(step)] >= 0;
    }
};

// `notes` gets the phases whose step counts differ and those with no partner.
ComparedJobSteps pairJobSteps(const std::array<JobSide, 2>& sides, std::vector<std::string>& notes);

// The job's time per pair of phases: per step median and total on each side.
std::vector<JobPhaseRow> jobPhaseRows(const std::vector<JobStepRow>& steps, const std::vector<std::string>& phases);

} // namespace fusiondiff
