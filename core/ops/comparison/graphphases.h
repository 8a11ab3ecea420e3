#pragma once

#include "model/graphreport.h"
#include "ops/attribution/iterations.h"
#include "ops/comparison/graphcomparison.h"

#include <array>
#include <cstdint>
#include <vector>

namespace fusiondiff {

// Splits each matched kind pair's launches by the compared phase they were launched in (the step
// that holds the launch call, its phase paired across the traces by `partners`, as pairPhases gives
// them; the steps the step time compares: a warm-up step's launches and those of steps one side has
// more of are not compared), into graphs.pairPhases, and counts each kind's launches per phase (GraphKind::phases). A
// graph that runs in prefill and in decode steps can be slower in one and faster in the other; one
// spread over both hides that. Without steps on a side each pair has one "whole trace" row.
void addGraphPhases(GraphComparison& graphs, const std::array<std::vector<std::vector<GraphLaunchTime>>, 2>& launches,
    const std::array<const std::vector<HostStep>*, 2>& steps, const std::vector<int64_t>& partners);

} // namespace fusiondiff
