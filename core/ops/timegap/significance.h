#pragma once

#include "model/opreport.h"
#include "model/timegap.h"

#include <array>
#include <cstdint>
#include <vector>

namespace fusiondiff {

struct FusionReport;
struct StepTimeReport;

// Run-to-run noise (docs/report-format.md, "Run-to-run noise"). A difference is significant when
// it is larger than both
// - the spread: kNoiseStandardErrors standard errors of the difference of two totals. Steps:
//   each side a sum of steps whose standard deviation is estimated from their interquartile range
//   (IQR / 1.349, which a few outlying steps do not inflate): sqrt(n_A s_A^2 + n_B s_B^2). Calls:
//   the sum of n paired differences (A - B per pair of calls), sqrt(n) s_d, and
// - the floor: kNoiseFloorShare of the faster side's time. Two runs of one build on one GPU differ
//   by more than their steps' spread shows (clocks, host load, the profiler's own overhead): the
//   Pi0 H200 trace and its rerun differ by 2.4% in GPU kernel time and by 3.5% in each launch of
//   their repeated graph, while those launches vary by 0.2% within each run.
inline constexpr double kNoiseStandardErrors = 2.0;
inline constexpr double kNoiseFloorShare = 0.05;
// Fewer steps than this on a side of a compared phase: the steps' spread is not measured.
inline constexpr uint64_t kMinStepsForSpread = 2;

// The standard deviation of one call (or step) estimated from the quartiles.
double robustSigma(const Spread& spread);

// kNoiseStandardErrors standard errors of the sum of `difference.count` paired differences
// (A - B per pair of calls): the calls' sizes vary alike on both sides, so the pairs' spread is
// what is left to noise.
double pairedNoiseUs(const Spread& difference);

// `deltaUs` (A - B) against max(spreadUs, the floor of the faster of `timeUs`).
GapNoise judgeDelta(double deltaUs, const std::array<double, 2>& timeUs, double spreadUs, const char* basis);

// The kernel-time gap against the compared operations' calls (the spread of their paired
// differences, summed over the operations) and the floor.
GapNoise kernelTimeNoise(const TimeGapBreakdown& kernelTime, const std::vector<OpSummary>& operations);

// The step-time gap against the steps' spread when every compared phase has at least
// kMinStepsForSpread steps on each side. With fewer, the idle time's run-to-run spread is not
// measured: the gap is within noise when below the floor, significant when the GPU work alone
// (its parts other than idle) differs beyond `gpuCallsSpreadUs` and its own floor in the gap's
// direction, and otherwise cannot be told.
GapNoise stepTimeNoise(const TimeGapBreakdown& steps, const StepTimeReport& report, double gpuCallsSpreadUs);

// The wall-time gap: within noise below its floor; significant where the kernel time is, in the
// same direction and beyond this floor; otherwise it cannot be told (the idle's spread is not measured).
GapNoise wallTimeNoise(const TimeGapBreakdown& wall, const TimeGapBreakdown& kernelTime);

// Each basis of the time gap, the headline's verdict text, and every operation finding
// (savingUs against its calls' spread; its summary says "within run-to-run noise" when it is).
// Before rankWhereToLookFirst, so that the fusion entries carry the findings' text.
void judgeTimeGapNoise(FusionReport& report);

// Each "where to look first" entry against its calls' spread (operations), the steps' spread
// (host, sync, launch: cannot be told without it) or the floor (collectives, kernel types); an
// operation only one side runs is never noise. Entries within noise say so and rank after the others.
void judgeLookFirstNoise(FusionReport& report);

} // namespace fusiondiff
