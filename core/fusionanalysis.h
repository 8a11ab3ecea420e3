#pragma once

#include "classify/classifier.h"
#include "model/analysisoptions.h"
#include "model/fusionreport.h"

#include <array>
#include <atomic>

namespace fusiondiff {

struct TraceStore;

// The whole comparison of two loaded traces: everything the seed's analyze_fusion_differences
// computes, with the same numbers, plus the tables the front ends show. Pure: no I/O, no globals.
// Throws Cancelled if `cancel` becomes true.
FusionReport analyzeFusion(const TraceStore& trace1, const TraceStore& trace2, const Classifier& classifier,
    const AnalysisOptions& options, const std::atomic<bool>* cancel = nullptr);

// The same, with a graph-capture trace for either side (null for none): graph findings then name
// the operations and Python code that issued each captured kernel (docs/operations.md).
FusionReport analyzeFusion(const TraceStore& trace1, const TraceStore& trace2,
    const std::array<const CaptureTrace*, 2>& captures, const Classifier& classifier, const AnalysisOptions& options,
    const std::atomic<bool>* cancel = nullptr);

} // namespace fusiondiff
