#include "ops/comparison/graphphases.h"

#include "util/textformat.h"

#include <algorithm>
#include <map>
#include <string>

namespace fusiondiff {

namespace {

constexpr int32_t kNotCompared = -1;

// Per side, trace 1's compared phase of each of the side's own phases (kNotCompared: none).
std::array<std::vector<int32_t>, 2> comparedPhaseOfOwn(
    const std::array<const std::vector<HostStep>*, 2>& steps, const std::vector<int64_t>& partners)
{
    std::array<std::vector<int32_t>, 2> phaseOf;
    for (size_t side = 0; side < 2; ++side) {
        int32_t phases = 0;
        for (const HostStep& step : *steps[side])
            phases = std::max(phases, step.phase + 1);
        phaseOf[side].assign(size_t(phases), kNotCompared);
    }
    for (size_t phase = 0; phase < partners.size(); ++phase) {
        const int64_t partner = partners[phase];
        if (partner < 0 || phase >= phaseOf[0].size() || size_t(partner) >= phaseOf[1].size())
            continue;
        phaseOf[0][phase] = int32_t(phase);
        phaseOf[1][size_t(partner)] = int32_t(phase);
    }
    return phaseOf;
}

// Per side, the steps in time order with the compared phase each counts in (kNotCompared: none), as
// the step time compares them: in each pair of phases, the first min(n1, n2) steps of each side.
std::array<std::vector<HostStep>, 2> stepsAsCompared(
    const std::array<const std::vector<HostStep>*, 2>& steps, const std::array<std::vector<int32_t>, 2>& comparedOfOwn)
{
    std::array<std::vector<HostStep>, 2> out;
    std::array<std::map<int32_t, size_t>, 2> counts;
    for (size_t side = 0; side < 2; ++side) {
        out[side] = *steps[side];
        std::sort(
            out[side].begin(), out[side].end(), [](const HostStep& a, const HostStep& b) { return a.begin < b.begin; });
        for (HostStep& step : out[side]) {
            step.phase = step.phase >= 0 && size_t(step.phase) < comparedOfOwn[side].size()
                ? comparedOfOwn[side][size_t(step.phase)]
                : kNotCompared;
            if (step.phase != kNotCompared)
                ++counts[side][step.phase];
        }
    }
    for (size_t side = 0; side < 2; ++side) {
        std::map<int32_t, size_t> seen;
        for (HostStep& step : out[side]) {
            if (step.phase == kNotCompared)
                continue;
            const auto other = counts[1 - side].find(step.phase);
            const size_t compared = other == counts[1 - side].end() ? 0 : other->second;
            if (seen[step.phase]++ >= compared)
                step.phase = kNotCompared;
        }
    }
    return out;
}

// The compared phase (trace 1's index) of a launch issued at `ts`: that of the compared step holding it.
int32_t phaseAt(const std::vector<HostStep>& steps, double ts)
{
    for (const HostStep& step : steps) {
        if (ts >= step.begin && ts <= step.end)
            return step.phase;
    }
    return kNotCompared;
}

std::string phaseName(int32_t phase)
{
    return phase == kNotCompared ? "not compared" : "phase " + std::to_string(phase + 1);
}

// The GPU times of the first `count` launches.
Spread firstLaunches(const std::vector<GraphLaunchTime>& launches, uint64_t count)
{
    std::vector<double> times;
    times.reserve(size_t(count));
    for (size_t i = 0; i < count && i < launches.size(); ++i)
        times.push_back(launches[i].timeUs);
    return spreadOf(std::move(times));
}

} // namespace

void addGraphPhases(GraphComparison& graphs, const std::array<std::vector<std::vector<GraphLaunchTime>>, 2>& launches,
    const std::array<const std::vector<HostStep>*, 2>& steps, const std::vector<int64_t>& partners)
{
    graphs.pairPhases.clear();
    if (steps[0]->empty() || steps[1]->empty()) {
        for (size_t p = 0; p < graphs.pairs.size(); ++p) {
            const GraphKindPair& pair = graphs.pairs[p];
            graphs.pairPhases.push_back({ .pair = uint32_t(p),
                .phase = "whole trace",
                .launches = { graphs.kinds[0][pair.kind[0]].launches, graphs.kinds[1][pair.kind[1]].launches },
                .comparedLaunches = pair.comparedLaunches,
                .timeUs = pair.timeUs });
        }
        return;
    }
    const std::array<std::vector<HostStep>, 2> compared = stepsAsCompared(steps, comparedPhaseOfOwn(steps, partners));
    // Per side and kind, its launches by compared phase (kNotCompared last).
    std::array<std::vector<std::map<int32_t, std::vector<GraphLaunchTime>>>, 2> byPhase;
    for (size_t side = 0; side < 2; ++side) {
        for (size_t kind = 0; kind < launches[side].size(); ++kind) {
            auto& phases = byPhase[side].emplace_back();
            for (const GraphLaunchTime& launch : launches[side][kind])
                phases[phaseAt(compared[side], launch.cpuTs)].push_back(launch);
            std::string text;
            for (const auto& [phase, inPhase] : phases) {
                if (phase != kNotCompared)
                    text += (text.empty() ? "" : ", ") + phaseName(phase) + ": "
                        + withThousands(int64_t(inPhase.size()));
            }
            if (const auto outside = phases.find(kNotCompared); outside != phases.end())
                text += (text.empty() ? "" : ", ") + phaseName(kNotCompared) + ": "
                    + withThousands(int64_t(outside->second.size()));
            if (kind < graphs.kinds[side].size())
                graphs.kinds[side][kind].phases = std::move(text);
        }
    }
    for (size_t p = 0; p < graphs.pairs.size(); ++p) {
        const GraphKindPair& pair = graphs.pairs[p];
        if (pair.kind[0] >= byPhase[0].size() || pair.kind[1] >= byPhase[1].size())
            continue;
        const auto& phasesA = byPhase[0][pair.kind[0]];
        const auto& phasesB = byPhase[1][pair.kind[1]];
        for (int32_t phase = 0; phase < int32_t(partners.size()); ++phase) {
            const auto a = phasesA.find(phase);
            const auto b = phasesB.find(phase);
            if (a == phasesA.end() && b == phasesB.end())
                continue;
            GraphPairPhase row {
                .pair = uint32_t(p), .phase = phaseName(phase), .launches = {}, .comparedLaunches = 0, .timeUs = {}
            };
            row.launches = { a == phasesA.end() ? 0 : a->second.size(), b == phasesB.end() ? 0 : b->second.size() };
            row.comparedLaunches = std::min(row.launches[0], row.launches[1]);
            if (a != phasesA.end())
                row.timeUs[0] = firstLaunches(a->second, row.comparedLaunches);
            if (b != phasesB.end())
                row.timeUs[1] = firstLaunches(b->second, row.comparedLaunches);
            graphs.pairPhases.push_back(std::move(row));
        }
    }
}

} // namespace fusiondiff
