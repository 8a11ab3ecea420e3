#include "ops/alignment/layers.h"

#include "model/tracestore.h"
#include "util/bothsides.h"
#include "util/textformat.h"

#include <algorithm>
#include <unordered_map>

namespace fusiondiff {

namespace {

// Layers must hold at least this share of a phase's operations: a block that repeats in a corner
// of the model (its norms, its attention) does not structure the step. Of the blocks that do, the
// one that repeats most often is the finest structure (the encoder layers inside each of a step's
// forward passes); a block must hold more than one operation a call on average (a model made
// mostly of Linear layers is not cut at every GEMM).
constexpr double kLayerShare = 0.5;
constexpr uint32_t kFewestLayersPerStep = 2;
constexpr double kFewestOperationsPerCall = 2;

struct Candidate
{
    std::string unit;
    uint64_t covered = 0;
    int32_t lastFrame = -1;
    std::vector<uint32_t> callsPerStep; // by step rank in the phase
    uint32_t perStep = 0; // the same count in every step, else 0
    double share = 0;
};

// What one side's phase repeats: for every module class (and Python function) above the
// operations, its outermost calls counted per step.
class SideLayers
{
public:
    explicit SideLayers(const LayerSide& side)
        : m_side(side)
        , m_keyOfFrame(side.attribution.frames.size(), kUnknown)
        , m_unitAbove(side.attribution.frames.size(), kUnknown)
        , m_rank(side.phase.size(), 0)
    {
        for (size_t p = 1; p < side.phase.size(); ++p) {
            const bool newStep = side.occurrences[side.phase[p]].step != side.occurrences[side.phase[p - 1]].step;
            m_rank[p] = m_rank[p - 1] + (newStep ? 1 : 0);
        }
        m_steps = side.phase.empty() ? 0 : m_rank.back() + 1;
    }

    // The units that qualify as layers, modules only or Python functions too.
    std::vector<Candidate> candidates(bool withPython)
    {
        m_withPython = withPython;
        m_candidates.clear();
        m_units.clear();
        m_keyOfUnit.clear();
        m_seenAt.clear();
        m_outermost.clear();
        std::fill(m_keyOfFrame.begin(), m_keyOfFrame.end(), kUnknown);
        std::fill(m_unitAbove.begin(), m_unitAbove.end(), kUnknown);
        std::vector<int32_t> touched; // the keys above one operation
        for (size_t p = 0; p < m_side.phase.size(); ++p) {
            touched.clear();
            forEachUnitAbove(p, [&](int32_t key, int32_t frame) {
                if (m_seenAt[size_t(key)] != p) {
                    m_seenAt[size_t(key)] = p;
                    touched.push_back(key);
                }
                m_outermost[size_t(key)] = frame; // the last one seen is the outermost
            });
            for (const int32_t key : touched) {
                const int32_t frame = m_outermost[size_t(key)];
                Candidate& candidate = m_candidates[size_t(key)];
                ++candidate.covered;
                if (candidate.callsPerStep.size() <= m_rank[p])
                    candidate.callsPerStep.resize(m_rank[p] + 1, 0);
                if (frame != candidate.lastFrame) {
                    candidate.lastFrame = frame;
                    ++candidate.callsPerStep[m_rank[p]];
                }
            }
        }
        std::vector<Candidate> qualifying;
        for (Candidate& candidate : m_candidates) {
            candidate.share = m_side.phase.empty() ? 0 : double(candidate.covered) / double(m_side.phase.size());
            candidate.callsPerStep.resize(m_steps, 0);
            const uint32_t first = candidate.callsPerStep.empty() ? 0 : candidate.callsPerStep.front();
            const bool uniform = std::all_of(candidate.callsPerStep.begin(), candidate.callsPerStep.end(),
                [&](uint32_t calls) { return calls == first; });
            candidate.perStep = uniform ? first : 0;
            const uint64_t calls = uint64_t(candidate.perStep) * m_steps;
            if (candidate.perStep >= kFewestLayersPerStep && candidate.share >= kLayerShare
                && double(candidate.covered) >= kFewestOperationsPerCall * double(calls))
                qualifying.push_back(std::move(candidate));
        }
        return qualifying;
    }

    // The segments of the phase with `unit` as its layers.
    PhaseLayers segments(const Candidate& chosen)
    {
        PhaseLayers layers;
        layers.unit = chosen.unit;
        layers.perStep = chosen.perStep;
        layers.calls = uint64_t(chosen.perStep) * m_steps;
        layers.segmentOf.resize(m_side.phase.size());
        const auto wanted = int32_t(std::find(m_units.begin(), m_units.end(), chosen.unit) - m_units.begin());
        int32_t lastFrame = -1;
        uint32_t callsInStep = 0;
        for (size_t p = 0; p < m_side.phase.size(); ++p) {
            if (p > 0 && m_rank[p] != m_rank[p - 1])
                callsInStep = 0;
            int32_t call = -1;
            forEachUnitAbove(p, [&](int32_t key, int32_t frame) {
                if (key == wanted)
                    call = frame; // the last one seen is the outermost
            });
            uint32_t slot = 2 * callsInStep; // between calls
            if (call >= 0) {
                if (call != lastFrame) {
                    lastFrame = call;
                    ++callsInStep;
                }
                slot = 2 * (callsInStep - 1) + 1;
            }
            layers.segmentOf[p] = uint64_t(m_rank[p]) << 32 | slot;
        }
        return layers;
    }

private:
    static constexpr int32_t kUnknown = -2;
    static constexpr int32_t kNotUnit = -1;

    // Calls f(key, frame) for each module (and Python frame) above position p's operation, from
    // the innermost out.
    template<typename F>
    void forEachUnitAbove(size_t p, F&& f)
    {
        const int32_t own = m_side.occurrences[m_side.phase[p]].frame;
        for (int32_t frame = own >= 0 ? unitAbove(own) : -1; frame >= 0; frame = unitAbove(frame))
            f(m_keyOfFrame[size_t(frame)], frame);
    }

    // The innermost unit strictly above `frame`, -1 if none. Each position's walk up its stack
    // passes mostly frames that are no unit (operators, Python frames without modules), and the
    // operations of one layer share their stack: remembered for every frame passed. The frames
    // are asked innermost out, as a walk frame by frame asks them, so that units get their keys in
    // the same order.
    int32_t unitAbove(int32_t frame)
    {
        if (m_unitAbove[size_t(frame)] != kUnknown)
            return m_unitAbove[size_t(frame)];
        const std::vector<OpFrame>& frames = m_side.attribution.frames;
        m_passed.clear();
        int32_t unit = -1;
        for (int32_t current = frame;;) {
            m_passed.push_back(current);
            const int32_t parent = frames[size_t(current)].parent;
            if (parent < 0)
                break;
            if (keyOf(parent) != kNotUnit) {
                unit = parent;
                break;
            }
            if (m_unitAbove[size_t(parent)] != kUnknown) {
                unit = m_unitAbove[size_t(parent)];
                break;
            }
            current = parent;
        }
        for (const int32_t passed : m_passed)
            m_unitAbove[size_t(passed)] = unit;
        return unit;
    }

    int32_t keyOf(int32_t frame)
    {
        int32_t& key = m_keyOfFrame[size_t(frame)];
        if (key != kUnknown)
            return key;
        const OpFrame& own = m_side.attribution.frames[size_t(frame)];
        if (!own.isModule && !(own.isPython && m_withPython && !isModuleDispatch(m_side.store.name(own.name))))
            return key = kNotUnit;
        const std::string unit = own.isModule ? "nn.Module: " + moduleClassName(m_side.store.name(own.name))
                                              : std::string(m_side.store.name(own.name));
        const auto [it, inserted] = m_keyOfUnit.try_emplace(unit, int32_t(m_units.size()));
        if (inserted) {
            m_units.push_back(unit);
            m_candidates.push_back({ unit, 0, -1, {}, 0, 0 });
            m_seenAt.push_back(SIZE_MAX);
            m_outermost.push_back(-1);
        }
        return key = it->second;
    }

    const LayerSide& m_side;
    std::vector<int32_t> m_keyOfFrame;
    std::vector<int32_t> m_unitAbove; // per frame: unitAbove's answer, or kUnknown
    std::vector<int32_t> m_passed; // unitAbove's frames on the way up
    std::vector<uint32_t> m_rank; // per position: its step's rank in the phase
    uint32_t m_steps = 0;
    bool m_withPython = false;
    std::unordered_map<std::string, int32_t> m_keyOfUnit;
    std::vector<std::string> m_units;
    std::vector<Candidate> m_candidates;
    std::vector<size_t> m_seenAt; // per key: the last position it was seen above
    std::vector<int32_t> m_outermost; // per key: its outermost frame above that position
};

// Of the pairs of candidates with as many calls a step on each side, the one with the most calls a
// step, then the one that covers the most of both, then the same unit on both sides; {-1, -1}
// when there is none.
std::pair<int64_t, int64_t> bestPair(const std::array<std::vector<Candidate>, 2>& candidates)
{
    std::pair<int64_t, int64_t> best { -1, -1 };
    double bestScore = -1;
    for (size_t a = 0; a < candidates[0].size(); ++a) {
        for (size_t b = 0; b < candidates[1].size(); ++b) {
            const Candidate& first = candidates[0][a];
            const Candidate& second = candidates[1][b];
            if (first.perStep != second.perStep)
                continue;
            const double score = double(first.perStep) + std::min(first.share, second.share) * 0.5
                + (first.unit == second.unit ? 1e-9 : 0);
            if (score > bestScore) {
                bestScore = score;
                best = { int64_t(a), int64_t(b) };
            }
        }
    }
    return best;
}

std::string describe(const std::vector<Candidate>& candidates)
{
    if (candidates.empty())
        return "no call that repeats in every step and holds half its operations";
    const auto widest = std::max_element(
        candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) { return a.share < b.share; });
    return std::to_string(widest->perStep) + " calls of " + widest->unit + " a step";
}

} // namespace

LayerPairing pairLayers(
    const std::array<LayerSide, 2>& sides, const std::array<std::string, 2>& sideNames, bool sidesInParallel)
{
    LayerPairing pairing;
    std::array<SideLayers, 2> finders { SideLayers(sides[0]), SideLayers(sides[1]) };
    std::array<std::vector<Candidate>, 2> candidates;
    for (const bool withPython : { false, true }) {
        forBothSides(sidesInParallel, [&](size_t side) { candidates[side] = finders[side].candidates(withPython); });
        const auto [first, second] = bestPair(candidates);
        if (first >= 0) {
            const std::array<size_t, 2> chosen { size_t(first), size_t(second) };
            forBothSides(sidesInParallel,
                [&](size_t side) { pairing.sides[side] = finders[side].segments(candidates[side][chosen[side]]); });
            return pairing;
        }
    }
    if (!candidates[0].empty() || !candidates[1].empty())
        pairing.reason
            = sideNames[0] + " has " + describe(candidates[0]) + ", " + sideNames[1] + " " + describe(candidates[1]);
    return pairing;
}

} // namespace fusiondiff
