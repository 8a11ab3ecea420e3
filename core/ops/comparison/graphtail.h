#pragma once

#include "model/stringtable.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace fusiondiff {

struct GraphComparison;
struct GraphCoverage;

struct GraphLaunch;
struct TraceStore;

// What the GPU ran of a graph launch after the last of its kernels the trace records.
struct UnrecordedTail
{
    double us = 0; // 0: the launch is recorded whole (as far as the trace can tell)
    StringId waitCall = 0; // the blocking call whose return bounds it
};

// A graph launch whose recorded kernels stop before its work does: a blocking call of the
// launching process (…Synchronize) that was already waiting when the last recorded kernel ended
// returns clearly later (kMinTailUs, and a share kMinTailShare of the launch's recorded time), and
// no other GPU work of the device starts in between, so the GPU was still running the launch.
// Profilers drop a graph's kernel records when their buffer fills; the launch then looks shorter
// than it ran. A launch without its call in the trace is never judged so.
UnrecordedTail unrecordedTail(const TraceStore& store, const GraphLaunch& launch);

// A stretch of one trace's GPU time that the trace holds no kernels for: from the last recorded
// kernel of a graph launch that ran on (GraphCoverage::unrecordedUs) to when its wait returned.
struct NotRecordedSpan
{
    double begin = 0; // microseconds, the trace's clock
    double end = 0;
    int64_t correlation = 0; // the graph launch's
};

// Each side's not recorded spans, from the graph comparison's coverage (in time order); the step
// time counts them busy and the time gap as the part "not recorded" (GapCause::NotRecorded).
std::array<std::vector<NotRecordedSpan>, 2> notRecordedSpans(
    const GraphComparison& graphs, const std::array<const TraceStore*, 2>& stores);

// The other trace's work a covering launch did after its last recorded kernel, in words: "the rest
// of B's launch 6 and its launches 7–12"; empty if none is known.
std::string unrecordedWork(const GraphCoverage& coverage, const std::string& otherName);

// What the verdict says first when a trace holds only part of its GPU work (GraphCoverage::unrecordedUs):
// which launch ran on, how long, whose work that was, and that the times after it count that time
// as "not recorded"; empty when every graph launch is recorded whole. `names` as the verdict names the sides.
std::string unrecordedWorkLead(const GraphComparison& graphs, const std::array<std::string, 2>& names);

} // namespace fusiondiff
