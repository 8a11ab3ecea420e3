#pragma once

#include <array>
#include <vector>

namespace fusiondiff {

struct OpOccurrence;
struct TraceIterations;

// Where one trace's steps are all of one phase and the other's fall into several that differ only
// in a few calls (an operation that launches a kernel in some steps only, as another software stack
// may do: a copy, a reduction for logging), the several are one phase: else most of the steps
// would find no partner and the pair would be called different work. Steps differ "in a few calls"
// when the operations one runs and the other does not make at most 1% of their calls.
// `occurrences` are each side's, with their steps (findIterations).
void mergeNearPhases(
    const std::array<TraceIterations*, 2>& sides, const std::array<const std::vector<OpOccurrence>*, 2>& occurrences);

} // namespace fusiondiff
