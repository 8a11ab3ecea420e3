#pragma once

#include "classify/classifier.h"
#include "model/analysisoptions.h"
#include "model/fusionreport.h"

#include <atomic>

namespace fusiondiff {

struct TraceStore;

// The whole comparison of two loaded traces: everything the seed's analyze_fusion_differences
// computes, with the same numbers, plus the tables the front ends show. Pure: no I/O, no globals.
// Throws Cancelled if `cancel` becomes true.
FusionReport analyzeFusion(const TraceStore& trace1, const TraceStore& trace2, const Classifier& classifier,
    const AnalysisOptions& options, const std::atomic<bool>* cancel = nullptr);

} // namespace fusiondiff
