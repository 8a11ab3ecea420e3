#pragma once

#include "model/opreport.h"
#include "model/tracestore.h"
#include "ops/comparison/kernelcomparison.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace fusiondiff {

// A finding's communication kernels (an all-reduce at the start of a decode graph: mostly a wait
// for the other ranks) are a collective difference, not fusion nor speed: the time gap counts every
// communication kernel as "collectives" (ops/timegap/timegap.h). A finding's times, savings and
// fused side leave them out, and keep their time apart (OpFinding::collectiveUs).

// Per position of a side's finding kernels: whether it is a communication kernel.
std::vector<bool> collectivePositions(const std::vector<FindingKernel>& kernels, const NamingContext& naming);

// Counts the finding's communication kernels per occurrence and their time over all occurrences
// (OpFinding::collectiveKernels, collectiveUs).
void setCollectiveKernels(OpFinding& finding, const std::array<const TraceStore*, 2>& stores,
    const std::array<std::vector<std::vector<uint32_t>>, 2>& occurrences,
    const std::array<std::vector<bool>, 2>& positions);

// Whether the two sides' kernel counts differ only in communication kernels: no fusion then.
bool differsOnlyInCollectives(const OpFinding& finding);

// "; its communication kernels are left out, counted as collectives: AMD 1 a launch, 19.2 ms in
// all; NVIDIA none" (empty when neither side has any).
std::string collectiveText(const OpFinding& finding, const NamingContext& naming);

} // namespace fusiondiff
