#include "report/layerphases.h"

#include <cmath>

namespace fusiondiff {

std::vector<LayerPhaseSummary> layerPhaseSummaries(const std::vector<LayerTimes>& layers)
{
    std::vector<LayerPhaseSummary> phases;
    for (size_t row = 0; row < layers.size(); ++row) {
        const LayerTimes& layer = layers[row];
        if (phases.empty() || phases.back().phase != layer.phase)
            phases.push_back({ .phase = layer.phase, .firstRow = row, .largestRow = row });
        LayerPhaseSummary& summary = phases.back();
        ++summary.rows;
        const double difference = layer.differenceUs();
        if (difference != 0)
            ++summary.longer[difference > 0 ? 1 : 0];
        summary.differenceUs += difference;
        if (std::fabs(difference) > std::fabs(layers[summary.largestRow].differenceUs()))
            summary.largestRow = row;
    }
    return phases;
}

} // namespace fusiondiff
