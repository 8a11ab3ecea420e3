#pragma once

#include "model/opreport.h"
#include "ops/alignment/opalignment.h"

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace fusiondiff {

// The name the report gives a compared phase of trace 1 (0-based): "phase 1", ... as the step_times
// table names it, or "whole trace" when a side has no steps (then each trace is one phase); a
// negative phase (outside every compared phase: the warm-up, a phase the other trace has not) is
// "not compared", as graph_pairs names it.
std::string comparedPhaseName(const std::array<const TraceIterations*, 2>& iterations, int32_t phase);

// What each layer's calls launched on each side (PreparedSide::layerOf), phase by phase: a row per
// pair of phases (`partners`, as pairPhases gives them) and layer index in the step, in trace 1's
// phase order, then by index, the calls outside every compared phase last (phase "not compared").
// A prefill step's layers and a decode step's are different work and never share a row.
std::vector<LayerTimes> layerTimesByPhase(
    const std::array<PreparedSide, 2>& sides, const std::vector<int64_t>& partners);

// Per occurrence of side `sideIndex`: the trace-1 phase it is compared in (an index into
// `partners`), -1 if none.
std::vector<int32_t> comparedPhaseOf(const PreparedSide& side, size_t sideIndex, const std::vector<int64_t>& partners);

// OpFinding::layers: the layer indices as ranges ("0–23"), each phase's named where they are in
// several ("phase 1: 0–23; phase 2: 5"). `layers` ascending, as OpFinding::phaseLayers.
std::string phaseLayerRanges(const std::vector<std::pair<std::string, uint32_t>>& layers);

} // namespace fusiondiff
