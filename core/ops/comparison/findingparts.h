#pragma once

#include "classify/kerneltypes.h"
#include "model/opreport.h"
#include "model/tracestore.h"
#include "ops/comparison/kernelcomparison.h"

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace fusiondiff {

// What operation findings (opcomparison) and graph findings (graphfindings) compute alike.

// The GPU time of each occurrence, summed in kernel order, without the positions `leftOut` marks
// (a finding's communication kernels, ops/comparison/collectivepart.h).
std::vector<double> occurrenceTimes(const TraceStore& store, const std::vector<std::vector<uint32_t>>& occurrences,
    const std::vector<bool>& leftOut = {});

// The kernels of the first occurrence (each occurrence a list of kernel indices, all alike by
// type), each with its median duration over all occurrences.
std::vector<FindingKernel> findingKernels(
    const TraceStore& store, const KernelTypes& types, const std::vector<std::vector<uint32_t>>& occurrences);

// The share of the kernels that `alignment` pairs with one of the same type, over the longer side.
double typeAgreement(
    const std::array<std::vector<FindingKernel>, 2>& kernels, const std::vector<AlignedPair>& alignment);

// What operation and graph findings derive alike from their kernels and from each occurrence's GPU
// time per side (`times`, occurrence by occurrence in the same order on both sides): the fused
// side (the one with fewer kernels, communication kernels not counted: OpFinding::collectiveKernels),
// launchDifference, the slower side and savingUs.
void setFusedSideAndSaving(OpFinding& finding, const std::array<std::vector<double>, 2>& times);

// Every kernel the alignment leaves unpaired, in every occurrence (the extra runs list a run that
// repeats once), added to `extras` by type. Returns their time per side over all occurrences,
// splitSaving's `extraTime`, without the positions `leftOut` marks (communication kernels, which
// `times` leave out too). `onExtra`, if given, is called with each such kernel (side, index).
std::array<double, 2> addExtraKernels(const OpFinding& finding, const std::array<const TraceStore*, 2>& stores,
    const std::array<std::vector<std::vector<uint32_t>>, 2>& occurrences, std::vector<ExtraKernels>& extras,
    const std::array<std::vector<bool>, 2>& leftOut,
    const std::function<void(size_t side, uint32_t kernel)>& onExtra = {});

// savingExtraKernelsUs and savingSpeedUs, given the time over all occurrences of the kernels each
// side runs in addition (`extraTime`): signed, from the slower side's point of view, adding up to
// savingUs.
void splitSaving(
    OpFinding& finding, const std::array<std::vector<double>, 2>& times, const std::array<double, 2>& extraTime);

// What a finding's summary calls one occurrence: a call of an operation, a launch of a graph.
struct OccurrenceNoun
{
    std::string_view one;
    std::string_view many;
};
inline constexpr OccurrenceNoun kCallNoun { "call", "calls" };
inline constexpr OccurrenceNoun kLaunchNoun { "launch", "launches" };

// A finding in one sentence: "aten::linear: AMD runs 2 kernels (GEMM, Activation) where NVIDIA runs
// 1 (GEMM), in 1,206 calls; AMD takes 6.0 us and NVIDIA 3.0 us per call (median)". For whole graphs
// (`wholeGraphs`) of which fewer than half the kernels line up by type, it adds that these may not
// run the same model.
std::string findingSummary(
    const OpFinding& finding, const NamingContext& naming, OccurrenceNoun noun, bool wholeGraphs);

} // namespace fusiondiff
