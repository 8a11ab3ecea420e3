#pragma once

#include "ops/attribution/opoccurrences.h"

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace fusiondiff {

struct TraceStore;

// The layers of one phase of one trace: the calls of one module class or Python function that
// repeat as often in every step and hold most of the step's operations (a model's decoder layers).
struct PhaseLayers
{
    std::string unit; // "nn.Module: Qwen2DecoderLayer", or a Python function ("llama.py: forward")
    uint32_t perStep = 0; // calls in each step (0: no layers)
    // Per position in the phase: the segment it falls in. Segments are numbered per step: 2i + 1 is
    // the step's layer call i, 2i the operations between calls i - 1 and i (before the first, after
    // the last); the step's rank in the phase is in the upper 32 bits. Two traces' segments with
    // the same number hold the same part of the model.
    std::vector<uint64_t> segmentOf;
    uint64_t calls = 0;
};

// Segment numbers (PhaseLayers::segmentOf).
constexpr bool isLayerSegment(uint64_t segment)
{
    return (segment & 1) != 0;
}
constexpr uint32_t layerIndexOf(uint64_t segment) // within its step; for layer segments
{
    return uint32_t(segment & 0xffffffffu) / 2;
}

struct LayerSide
{
    const TraceStore& store;
    const KernelAttribution& attribution;
    const std::vector<OpOccurrence>& occurrences;
    std::span<const uint32_t> phase; // occurrence indices, in order
};

// Finds the layers of a pair of phases, on each side on its own: of the module classes (or, where
// no module pairs, the Python functions) whose outermost calls hold at least half the phase's
// operations and repeat the same number of times (two or more) in every step, the pair with as
// many calls a step on both sides that covers the most. The same unit on both sides is not
// required (a vendor's model class may be named differently); the same count is. Both sides'
// perStep stay 0 when no pair is found; `reason` then says what each side had.
struct LayerPairing
{
    std::array<PhaseLayers, 2> sides;
    std::string reason; // empty when paired, or when neither side repeats anything
    bool paired() const { return sides[0].perStep > 0; }
};
// With `sidesInParallel` each side's layers are looked for on a thread of its own; the pairing is the same.
LayerPairing pairLayers(
    const std::array<LayerSide, 2>& sides, const std::array<std::string, 2>& sideNames, bool sidesInParallel = false);

} // namespace fusiondiff
