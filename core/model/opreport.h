#pragma once

#include "model/alignedpair.h"
#include "model/categoryid.h"
#include "util/side.h"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fusiondiff {

// What a kernel is attributed to when kernels are grouped by the CPU operation that launched them.
enum class OpLevel
{
    Operator, // the outermost PyTorch operator of the launch's stack (aten::linear, aten::layer_norm)
    Module, // the innermost nn.Module (Qwen2RMSNorm); the operator where there is none
    LaunchingOperator, // the innermost operator, the one that launched the kernel (aten::addmm)
    // Operations as for Operator, lined up level by level where the stacks differ: the whole stack,
    // Python frames, operator names, module paths, and last the kernels themselves
    // (docs/operations.md, "Aligning the two sequences").
    Auto,
};
const char* opLevelKey(OpLevel level); // "operator", "module", "launching_operator", "auto"

// A difference and its two signed parts in words, each part saying which way it works: "NVIDIA
// takes 976 us longer in all: the kernels it runs in addition cost it 5.2 ms; the kernels both run
// take 4.2 ms less on NVIDIA (this part works the other way)". `scope` follows "longer" ("in all").
std::string savingText(const std::array<std::string, 2>& sideNames, Side slower, double totalUs, double extraKernelsUs,
    double speedUs, std::string_view scope);

// A value measured once per occurrence, summarised.
struct Spread
{
    uint64_t count = 0;
    double total = 0;
    double median = 0;
    double q1 = 0; // first quartile
    double q3 = 0; // third quartile
};
Spread spreadOf(std::vector<double> values);
// The spread of a[i] - b[i] over the pairs (the shorter length): what pairing leaves of the
// calls' spread, for run-to-run noise (calls of different sizes vary alike on both sides).
Spread pairedDifferenceSpread(const std::vector<double>& a, const std::vector<double>& b);

struct FindingKernel
{
    std::string name;
    CategoryId type = 0;
    uint64_t tags = 0;
    double medianUs = 0; // over the occurrences
};

// A run of consecutive kernels one side runs where the other has none (an alignment gap).
struct ExtraRun
{
    Side side;
    std::vector<uint32_t> kernels; // indices into the side's kernel list (of the first such run)
    std::string explanation;
    uint32_t repeats = 1; // runs with the same kernels and explanation in the same operation
};

// An operation (or graph) that runs a different number of kernels on the two sides, with every
// occurrence that shows the same pattern of kernel types.
struct OpFinding
{
    std::string op; // the operator, module class, or "graph <correlation ids>"
    std::vector<std::string> stack; // a representative call stack, outermost first, down to `op`
    Side fusedSide; // the side with fewer kernels
    std::array<std::vector<FindingKernel>, 2> kernels; // per side, in time order
    std::vector<AlignedPair> alignment; // kernels of A against kernels of B, by type
    std::vector<ExtraRun> extraRuns;
    double typeAgreement = 0; // kernels paired with one of the same type, over the longer side
    bool isGraph = false; // from a matched pair of graph launches (correlation groups)
    uint64_t occurrences = 0;
    int64_t launchDifference = 0; // per occurrence: unfused side's kernels minus the fused side's
    std::array<Spread, 2> timeUs; // GPU time of the operation's kernels, per occurrence
    Spread differenceUs; // A - B per pair of occurrences
    // The finding's own difference: the slower side's time minus the faster side's over all
    // occurrences (>= 0), in two signed parts that add up to it, from the slower side's point of
    // view: the kernels one side runs in addition (the slower side's extra kernels minus the faster
    // side's) and the kernels both run, aligned (their speed). A part below 0 works the other way.
    Side slowerSide = Side::Trace1;
    double savingUs = 0;
    double savingExtraKernelsUs = 0;
    double savingSpeedUs = 0;
    // Whether savingUs is beyond run-to-run noise, from the calls' spread (ops/timegap/significance.h).
    bool significant = true;
    double noiseUs = 0;
    std::string summary; // the finding in one sentence
    std::array<double, 2> firstTs {}; // start of the first occurrence on each side (CPU time)
    // The first occurrence's kernels on each side: indices into the trace's kernels, in time order
    // (the app's "Show on the timeline").
    std::array<std::vector<uint32_t>, 2> firstKernels;
    // The operation and a representative stack as each trace names them (they differ where the
    // stacks do: a vendor's custom operator against another's); `op` is "A's / B's" then.
    std::array<std::string, 2> sideOps;
    std::array<std::vector<std::string>, 2> sideStacks;
    std::string alignedOn; // the alignment level that paired the occurrences (AlignmentLevel::key)
    std::vector<uint32_t> layerIndices; // the layers its calls are in, by index in the step, ascending
    // The same with each layer's compared phase, as LayerTimes::phase names it ("phase 1", 3): layer
    // 3 of a forward phase is not layer 3 of a backward or eval phase. Ascending.
    std::vector<std::pair<std::string, uint32_t>> phaseLayers;
    // The same as text ("0–23", or "phase 1: 0–23; phase 2: 0–5" where they are in several phases);
    // all three empty unless the traces were aligned by layers.
    std::string layers;
    // Where one side repeats a block of kernels (a layer stack, a loop over images or requests)
    // more times than the other (ops/comparison/repeatedblocks.h): the copies each side runs and
    // the kernels of one copy (0: none found), and the extra copies' kernels (positions in the
    // kernel list of the side with more). Their time is a difference in the work, neither extra
    // kernels nor speed: savingWorkUs, signed as the other parts, which then add up to savingUs.
    std::array<uint32_t, 2> blockCopies {};
    std::array<uint32_t, 2> blockKernels {};
    std::vector<uint32_t> workPositions;
    double savingWorkUs = 0;
    // Its communication kernels (an all-reduce in a decode graph: mostly a wait for other ranks) are
    // the collectives' part of the gap, as the time gap counts them (ops/comparison/collectivepart.h):
    // the times, savings, fused side and launch difference above leave them out. Per side: their
    // count per occurrence and their time over all occurrences.
    std::array<uint32_t, 2> collectiveKernels {};
    std::array<double, 2> collectiveUs {};
};

// Per operation name, over all compared occurrences.
struct OpSummary
{
    std::string op;
    uint64_t occurrences = 0; // matched pairs
    uint64_t differing = 0; // pairs whose kernel counts differ
    std::array<uint64_t, 2> kernels {};
    std::array<Spread, 2> timeUs;
    Spread differenceUs; // A - B per matched pair
    double savingUs = 0;
};

// Kernels one side runs in addition to the other, by type, over all findings.
struct ExtraKernels
{
    CategoryId type = 0;
    std::array<uint64_t, 2> kernels {}; // run by A only, run by B only
    std::array<double, 2> timeUs {};
};

// Kernels of the two traces that the comparison lined up, by their two names: kernels at the same
// position of matched operations (or graphs) with as many kernels on each side, and kernels the
// kernel alignment pairs where the counts differ; only pairs of one kernel type. Which kernel of A
// does the work of which kernel of B (a hipBLASLt GEMM against a cuBLAS one), whatever the vendors
// call them.
struct MatchedKernels
{
    std::array<std::string, 2> names;
    std::array<CategoryId, 2> types {};
    uint64_t pairs = 0; // kernels of A paired with a kernel of B under these two names
    std::array<double, 2> timeUs {}; // total of the paired kernels, per side

    double differenceUs() const { return timeUs[1] - timeUs[0]; } // B - A
};

// One layer (ops/alignment/layers.h) of both traces in one compared phase: the kernels its calls launched,
// summed over the phase's compared steps (layer i of a step is the i-th call of the repeating block in that step).
struct LayerTimes
{
    uint32_t index = 0; // in the step, from 0
    std::array<uint64_t, 2> calls {};
    std::array<uint64_t, 2> kernels {};
    std::array<double, 2> timeUs {};
    // The compared phase its calls ran in, as the step_times table names it ("phase 1", ...; "whole
    // trace" when a side has no steps): a prefill step's layers and a decode step's differ.
    std::string phase;

    double differenceUs() const { return timeUs[1] - timeUs[0]; } // B - A
};

// How many occurrences one level of the alignment paired (OpLevel::Auto has several).
struct AlignmentLevel
{
    std::string key; // "stack", "python", "operator", "module", "kernels", "kernel_type"
    std::string description; // in words
    uint64_t matched = 0; // occurrences paired at this level
    double share = 0; // matched / the larger side's occurrences
};

// The layers the automatic alignment went through (ops/alignment/layers.h): the phases of the two traces cut
// into the calls of a repeating block, paired in order, the operations aligned inside each pair.
struct LayerAlignment
{
    std::array<std::string, 2> unit; // per side, "" when no phase was aligned layer by layer
    // The units are pieces of a torch.compile graph (Python functions of the compiler's runtime that
    // run one piece each), not the model's layers: the report calls them graph pieces.
    bool graphPieces = false;
    uint64_t perStep = 0; // layer calls a step (of the phase with the most operations)
    std::array<uint64_t, 2> calls {}; // compared layer calls, over the phases
    std::array<double, 2> share {}; // of the compared operations, inside a layer call
    uint64_t matched = 0; // occurrence pairs made inside paired layer calls
};

// "layers" or "graph pieces" (LayerAlignment::graphPieces), "layer" or "graph piece" for one.
std::string layerNoun(const LayerAlignment& layers, bool plural = true);

// Whether a layer unit found among Python functions is a torch.compile graph piece: a function of
// the compiler's or a graph backend's runtime (Dynamo, Inductor, AOT autograd, FX graph modules,
// vLLM's and SGLang's piecewise backends) rather than of the model.
bool isCompiledGraphPiece(std::string_view unit);

struct OpAlignment
{
    OpLevel level = OpLevel::Operator;
    std::array<uint64_t, 2> occurrences {}; // operation occurrences that launched kernels
    // Of them, those in the compared steps and phases (a warm-up step and calls outside the steps
    // are left out; all of them where the trace has no steps).
    std::array<uint64_t, 2> compared {};
    uint64_t matched = 0; // occurrences paired by the alignment
    double matchedShare = 0; // matched / the larger side's compared occurrences
    std::array<uint64_t, 2> attributedKernels {};
    std::array<uint64_t, 2> unattributedKernels {}; // launched outside the CPU part of the trace
    std::array<double, 2> unattributedTimeUs {};
    // Of those, the kernels whose launch call is in the trace but outside every operation (a graph
    // launch issued from Python or C++ code with no operator around it).
    std::array<uint64_t, 2> unattributedLaunchedKernels {};
    std::array<double, 2> unattributedLaunchedTimeUs {};
    bool comparable = false; // the sequences align well enough to compare operations
    // Enough operations for a verdict and too few of them line up: the traces run different work.
    bool differentWork = false;
    std::string verdict; // in words
    std::vector<AlignmentLevel> levels; // what the alignment paired on, in the order it tried them
    LayerAlignment layers;
    std::vector<std::string> notes; // structure that was missing and what the alignment did instead
};

// How a trace repeats: profiler steps, or a repeating cycle of operations (layers).
struct Iterations
{
    // "ProfilerStep annotations", "repeated Python call <file.py: function>", "repeating operation
    // cycle", or "none found"
    std::string method;
    uint64_t count = 0;
    uint64_t cycleLength = 0; // operations per cycle, for cycles
    uint64_t compared = 0; // iterations whose operations were compared
    bool warmupSkipped = false; // the first step was left out
    std::vector<std::string> phases; // e.g. "phase 1: 1 step of 812 operations", one per distinct kind of step
};

struct CollectiveComparison
{
    std::string collective; // AllReduce, AllGather, ReduceScatter, SendRecv, AllToAll, Broadcast, Reduce, Other
    std::array<uint64_t, 2> count {};
    std::array<double, 2> timeUs {};
    std::array<std::string, 2> implementation; // e.g. "NCCL", "RCCL", "custom (vLLM cross_device_reduce)"
};

} // namespace fusiondiff
