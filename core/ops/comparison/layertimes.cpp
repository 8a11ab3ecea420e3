#include "ops/comparison/layertimes.h"

#include "model/tracestore.h"
#include "util/textformat.h"

#include <algorithm>
#include <limits>
#include <map>
#include <set>
#include <tuple>

namespace fusiondiff {

namespace {

double layerKernelTime(const TraceStore& store, const std::vector<uint32_t>& kernels)
{
    double total = 0;
    for (const uint32_t k : kernels)
        total += store.kernels[k].dur;
    return total;
}

} // namespace

std::vector<int32_t> comparedPhaseOf(const PreparedSide& side, size_t sideIndex, const std::vector<int64_t>& partners)
{
    std::vector<int32_t> phaseOf(side.occurrences.size(), -1);
    for (size_t phase = 0; phase < partners.size(); ++phase) {
        if (partners[phase] < 0)
            continue;
        const size_t own = sideIndex == 0 ? phase : size_t(partners[phase]);
        if (own >= side.iterations.phases.size())
            continue;
        for (const uint32_t o : side.iterations.phases[own])
            phaseOf[o] = int32_t(phase);
    }
    return phaseOf;
}

std::string comparedPhaseName(const std::array<const TraceIterations*, 2>& iterations, int32_t phase)
{
    if (phase < 0)
        return "not compared";
    if (iterations[0]->steps.empty() || iterations[1]->steps.empty())
        return "whole trace";
    return "phase " + std::to_string(phase + 1);
}

std::vector<LayerTimes> layerTimesByPhase(
    const std::array<PreparedSide, 2>& sides, const std::vector<int64_t>& partners)
{
    // (phase, layer); the calls outside every compared phase (-1) after the phases
    std::map<std::pair<int32_t, int32_t>, LayerTimes> rows;
    const auto rowPhase = [](int32_t phase) { return phase < 0 ? std::numeric_limits<int32_t>::max() : phase; };
    for (size_t side = 0; side < 2; ++side) {
        const std::vector<int32_t> phaseOf = comparedPhaseOf(sides[side], side, partners);
        std::set<std::tuple<int32_t, int32_t, int32_t>> calls; // (phase, step, layer): a step holds each layer once
        for (size_t o = 0; o < sides[side].layerOf.size(); ++o) {
            const int32_t layer = sides[side].layerOf[o];
            if (layer < 0)
                continue;
            const int32_t phase = phaseOf[o];
            LayerTimes& row = rows[{ rowPhase(phase), layer }];
            const OpOccurrence& occurrence = sides[side].occurrences[o];
            if (calls.emplace(phase, occurrence.step, layer).second)
                ++row.calls[side];
            row.kernels[side] += occurrence.kernels.size();
            row.timeUs[side] += layerKernelTime(sides[side].store, occurrence.kernels);
        }
    }
    std::vector<LayerTimes> out;
    out.reserve(rows.size());
    for (auto& [key, row] : rows) {
        row.index = uint32_t(key.second);
        const int32_t phase = key.first == std::numeric_limits<int32_t>::max() ? -1 : key.first;
        row.phase = comparedPhaseName({ &sides[0].iterations, &sides[1].iterations }, phase);
        out.push_back(std::move(row));
    }
    return out;
}

std::string phaseLayerRanges(const std::vector<std::pair<std::string, uint32_t>>& layers)
{
    std::vector<std::pair<std::string, std::vector<uint32_t>>> byPhase;
    for (const auto& [phase, index] : layers) {
        if (byPhase.empty() || byPhase.back().first != phase)
            byPhase.emplace_back(phase, std::vector<uint32_t> {});
        byPhase.back().second.push_back(index);
    }
    if (byPhase.size() == 1)
        return numberRanges(byPhase.front().second);
    std::string text;
    for (const auto& [phase, indices] : byPhase)
        text += (text.empty() ? "" : "; ") + phase + ": " + numberRanges(indices);
    return text;
}

} // namespace fusiondiff
