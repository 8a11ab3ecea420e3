#pragma once

#include "model/opreport.h"
#include "report/reporttimegap.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace fusiondiff {

struct FusionReport;

// A row of the Markdown layer table: one layer, or consecutive layers that look alike folded.
struct LayerRun
{
    uint32_t first = 0; // layer indices in the step
    uint32_t last = 0;
    std::array<uint64_t, 2> calls {}; // of each layer of the run (the same for all of them)
    std::array<uint64_t, 2> kernels {}; // likewise
    std::array<double, 2> meanUs {}; // the average layer's time over its calls, per side
    double totalDifferenceUs = 0; // B − A, summed over the run's layers

    uint32_t layers() const { return last - first + 1; }
};

// Consecutive layers fold into one run when they have the same calls and kernel counts on both
// sides and each side's time is within `tolerance` (a fraction) of the run's average so far: a
// model's identical decoder layers, whose times scatter by a few percent, read as one row; a layer
// that launches other kernels or takes clearly longer stands on its own.
inline constexpr double kLayerFoldTolerance = 0.10;
std::vector<LayerRun> foldLayers(const std::vector<LayerTimes>& layers, double tolerance = kLayerFoldTolerance);

// The "Layers" section (empty unless the traces were aligned layer by layer): the units and what
// the layers hold in one sentence, then the folded layer table, cut to the rows that differ most
// when it is still long.
inline constexpr size_t kMaxLayerRows = 20;
std::string layersMarkdown(const FusionReport& report, MarkdownCell cell);

} // namespace fusiondiff
