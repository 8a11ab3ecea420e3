#pragma once

#include "model/opreport.h"
#include "util/side.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace fusiondiff {

// One kernel launch recorded while a CUDA/HIP graph was captured (a graph-capture trace), with the
// CPU operation and the Python code that issued it. A graph's replay runs these kernels in order.
struct CapturedLaunch
{
    std::string kernel; // the kernel's name as the launch call records it (empty if it does not)
    std::string op; // the outermost PyTorch operator around the launch, else the innermost Python frame
    std::vector<std::string> stack; // Python frames and operators around the launch, outermost first
};

// One captured graph: the launches between a stream's begin-capture and end-capture calls.
struct CapturedGraph
{
    std::string name; // the user annotation around the capture (e.g. "capture_32_DECODE"), with its number
    std::vector<CapturedLaunch> launches;
};

// What a graph-capture trace tells about the graphs a replay trace launches.
struct CaptureTrace
{
    std::string path;
    std::string fileName;
    std::vector<CapturedGraph> graphs;
};

// Graph launches that replay the same kernels (the same names in the same order): one kind.
struct GraphKind
{
    uint32_t number = 0; // 1-based, in the order of the kind's first launch in its trace
    uint64_t launches = 0;
    double launchesPerIteration = 0; // per profiler step, 0 without steps
    uint32_t kernels = 0; // per launch
    std::vector<CategoryId> types; // the kernel types of one launch, in order
    Spread timeUs; // GPU kernel time per launch
    int64_t firstCorrelation = 0; // the correlation id of its first launch
    bool launchRecorded = true; // false: kernels share a correlation id whose launch is not in the trace
    std::string captured; // the captured graph it maps to (with a capture trace), empty if none
    // Its launches per compared phase, as step_times names them ("phase 1: 24, phase 2: 90"; "not
    // compared" for launches outside the compared steps); empty when neither trace has phases.
    std::string phases;
};

// Two graph kinds, one of each trace, that do the same work; their launches are compared in order.
struct GraphKindPair
{
    std::array<uint32_t, 2> kind {}; // indices into GraphComparison::kinds[side]
    uint64_t comparedLaunches = 0; // launch pairs (the i-th launch of one kind with the i-th of the other)
    double typeAgreement = 0; // kernels paired with one of the same type, over the longer side
    std::array<Spread, 2> timeUs; // GPU time per compared launch
    std::string matchedBy; // "launch sequence alignment" or "kind similarity"
    std::string finding; // the finding's summary if the kernels differ, else empty
};

// A kind pair's launches in one compared phase (a prefill step's and a decode step's launches of
// one graph can go opposite ways): the i-th launch of one side's kind in the phase with the i-th
// of the other's.
struct GraphPairPhase
{
    uint32_t pair = 0; // index into GraphComparison::pairs
    std::string phase; // as step_times names it: "phase 1", ..., "whole trace" when a side has no steps
    std::array<uint64_t, 2> launches {}; // the kinds' launches in the phase, per side
    uint64_t comparedLaunches = 0;
    std::array<Spread, 2> timeUs; // GPU time per compared launch
};

// A part of one graph that does the work of one graph of the other trace.
struct GraphCoveragePart
{
    uint32_t otherLaunch = 0; // 1-based position of the covered launch among the other trace's graph launches
    int64_t otherCorrelation = 0; // the covered launch's correlation id
    uint32_t otherKind = 0; // its kind, 1-based
    std::array<uint64_t, 2> kernels {}; // kernels of the covering part and of the covered launch, by side
    std::array<double, 2> timeUs {};
    uint32_t firstKernel = 0; // 1-based positions of the part in the covering launch
    uint32_t lastKernel = 0;
    uint64_t matchedKernels = 0; // kernels of the two that line up by type
    std::string differences; // what one side runs that the other does not, in words
    // The first or last part, much shorter than the other parts for the same kind: the covering
    // launch holds only some of that work (its trace starts or ends inside it). Not a finding.
    bool partial = false;
};

// One graph launch that covers the work of several graph launches of the other trace.
struct GraphCoverage
{
    Side coveringSide = Side::Trace1;
    uint32_t launch = 0; // 1-based position among its trace's graph launches
    int64_t correlation = 0; // its correlation id
    uint32_t kind = 0; // 1-based
    uint64_t kernels = 0;
    double timeUs = 0;
    std::vector<GraphCoveragePart> parts; // in order
    std::vector<uint32_t> uncovered; // the other trace's launches (1-based) with no counterpart in the window
    // The covering launch ran on after its last recorded kernel: the blocking call that waited for
    // it (waitCall) returned unrecordedUs later, with no GPU work of the trace in between, so the
    // trace holds only the first part of its kernels. The other trace's launches that follow the
    // last part (unrecordedParts, 1-based) do their work in that time: they have a counterpart,
    // whose kernels the trace does not hold. 0 and empty when the launch is recorded whole.
    double unrecordedUs = 0;
    std::string waitCall;
    std::vector<uint32_t> unrecordedParts;
    double unrecordedOtherUs = 0; // the other trace's time for that work (with the rest of a partial last part)
    double unrecordedEstimateUs = 0; // that work at the covering launch's speed in its whole parts
    std::string statement; // "MI350's graph 1 covers H200's graphs 1-6: ..."
};

// Graphs compared as units: kinds, their matches, which graph covers which, and notes.
struct GraphComparison
{
    std::array<uint64_t, 2> launches {};
    std::array<uint64_t, 2> kernels {}; // kernels replayed by graph launches
    std::array<double, 2> timeUs {};
    std::array<std::vector<GraphKind>, 2> kinds;
    std::vector<GraphKindPair> pairs; // by the time at stake, largest first
    // Each pair's launches phase by phase, in the pairs' order, then trace 1's phase order (a row per
    // pair and compared phase with launches of it; one "whole trace" row when a side has no steps).
    std::vector<GraphPairPhase> pairPhases;
    std::vector<GraphCoverage> coverage;
    std::array<double, 2> unrecordedUs {}; // per side: GPU time of graph launches past their recorded kernels
    std::array<uint64_t, 2> alignedLaunches {}; // launches in the window whose kernel sequences were aligned
    std::array<std::string, 2> captureFiles; // the capture traces given, empty if none
    std::array<uint64_t, 2> capturedKinds {}; // kinds mapped to a captured graph
    std::vector<std::string> notes;
};

} // namespace fusiondiff
