#pragma once

#include "model/opreport.h"

#include <array>
#include <cstddef>
#include <string>
#include <vector>

namespace fusiondiff {

// The layer rows (FusionReport::layerTimes) of one compared phase, summed up: a verdict per phase,
// since a prefill step's layers can be slower on one side while a decode step's are faster.
struct LayerPhaseSummary
{
    std::string phase; // LayerTimes::phase
    size_t firstRow = 0; // the phase's rows are layerTimes[firstRow, firstRow + rows)
    size_t rows = 0; // its layers a step
    std::array<size_t, 2> longer {}; // layers that take longer in A (0) and in B (1); equal ones in neither
    double differenceUs = 0; // B − A over its layers
    size_t largestRow = 0; // the row (into layerTimes) whose B − A is largest in size
};

// One summary per phase, in the rows' order (layerTimes lists a phase's rows together).
std::vector<LayerPhaseSummary> layerPhaseSummaries(const std::vector<LayerTimes>& layers);

} // namespace fusiondiff
