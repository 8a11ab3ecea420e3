#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace fusiondiff {

// What group matching looks at: the number of kernels and which kernel types occur.
struct GroupProfile
{
    uint32_t size = 0;
    uint64_t typeMask = 0; // bit t set if the group holds a kernel of type t
};

// The seed's greedy matching of correlation groups between two traces, with identical results:
// groups of the first trace, largest first (ties in trace order), each take the unused group of
// the second trace within the size tolerance (n in [a/(1+tol), a*(1+tol)]) that minimises
// |a - n| - 10 * shared types, the earliest one on ties.
//
// The seed compares every pair (quadratic). Here the second trace's groups sit in buckets of equal
// size and type set, visited outward from the best size; a bucket's groups are equivalent, so only
// its earliest unused one counts, and the search stops as soon as no closer size can still win.
// Within a size, buckets are visited by how many types their set holds, most first, and the visit
// stops at the first count too small to beat the best score so far.
// Returns (index in first, index in second) in matching order.
//
// `work`, if given, receives how many candidates were scored (for tests that check its growth, and
// benchmarks): the seed scores every group of the second trace within the tolerance for every group
// of the first.
struct MatchWork
{
    uint64_t bucketsScored = 0; // a bucket stands for its earliest unused group
    uint64_t sizesVisited = 0;
};
std::vector<std::pair<uint32_t, uint32_t>> matchGroups(std::span<const GroupProfile> first,
    std::span<const GroupProfile> second, double sizeTolerance, MatchWork* work = nullptr);

} // namespace fusiondiff
