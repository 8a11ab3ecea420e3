#pragma once

#include <array>
#include <string>

namespace fusiondiff {

// Two traces whose labels are alike ("worker0.v100 (Tesla V100)" on both sides, as two runs of one
// job written to two folders give) are told apart by the folder where their paths part:
// "run_a/worker0.v100 (Tesla V100)" and "run_b/worker0.v100 (Tesla V100)". Folders between that
// one and the file are shown as "…". Where the paths do not part (the same file on both sides), the
// labels become "A: x" and "B: x". Labels that differ are returned as they are.
std::array<std::string, 2> distinctLabels(
    const std::array<std::string, 2>& labels, const std::array<std::string, 2>& paths);

} // namespace fusiondiff
