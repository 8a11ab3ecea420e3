#pragma once

#include "model/jobreport.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace fusiondiff {

// A rank's role in its job, from the process groups its trace records (distributedInfo's
// pg_config): jobs of different world sizes (TP4 against TP8) pair ranks that play the same part
// in the parallel layout both share (the same pipeline stage, the same place in a data-parallel
// group), not ranks of the same number.
//
// A layout is read as families of process groups: groups of the same shape (their ranks' offsets
// from the first, e.g. {0, 4} for a pipeline of two stages over a tensor-parallel group of four)
// that split the job's ranks into disjoint groups covering them all. The world group and
// single-rank groups give no role. A rank's place in a family is its index within its group there.
struct RoleFamily
{
    std::vector<int32_t> shape; // offsets from the group's first rank
    std::vector<std::vector<int32_t>> groups; // sorted ranks of each group
    std::vector<int32_t> place; // per rank: its index within its group
};

// The families of `side`'s layout, from the union of its ranks' pg_config; none when the traces
// record no groups, or none splits the job's ranks.
std::vector<RoleFamily> roleFamilies(const JobSide& side);

struct RolePairing
{
    // By rank number, -1 where a side has none: the ranks of A and B whose places agree in every
    // family of the same group size on both sides, first with first in rank order; empty when no
    // such family exists.
    std::vector<std::array<int32_t, 2>> pairs;
    std::string words; // what was paired, for JobReport::pairing; empty without pairs
};

// For sides of different world sizes.
RolePairing pairRanksByRole(const JobSide& a, const JobSide& b);

} // namespace fusiondiff
