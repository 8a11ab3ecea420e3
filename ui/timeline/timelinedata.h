#pragma once

#include "model/categoryid.h"
#include "model/steptime.h"

#include <QString>
#include <QStringList>

#include <array>
#include <cstddef>
#include <vector>

namespace fusiondiff {
class Classifier;
struct FusionReport;
struct GroupDiff;
struct OpFinding;
struct TraceStore;
} // namespace fusiondiff

namespace fusiondiff::ui {

// What the two-lane timeline draws: each side's kernels to scale from the side's own start, and
// which kernel of A the core's alignment pairs with which kernel of B.
struct TimelineKernel
{
    double start = 0; // microseconds from the lane's first kernel
    double duration = 0;
    CategoryId type = 0;
    bool extra = false; // an alignment gap on the other side: a kernel only this side runs
    int row = -1; // the row of the side-by-side table that shows the kernel; -1: none
    int name = 0; // index into TimelineLane::names
    int64_t traceKernel = -1; // index into TraceStore::kernels (the whole-trace timeline); -1: none
};

// A stretch of time the GPU ran nothing, with its cause (the core's IdleInterval, from the lane's
// start): the whole-trace timeline shades them.
struct TimelineGap
{
    double start = 0; // microseconds from the lane's first kernel
    double duration = 0;
    IdleCause cause = IdleCause::Other;
    int32_t code = -1; // into TimelineLane::gapCodes: the host code, call or reason; -1: none
    int32_t step = -1; // into the side's StepTimeSide::steps; -1 between the steps
};

// One step of the trace (StepTimeSide::steps), from the lane's start: the whole-trace timeline
// marks where each begins.
struct TimelineStep
{
    double start = 0; // microseconds from the lane's first kernel (before it: negative)
    double end = 0;
    int number = 0; // from 1, as the Steps tab numbers them (StepTimeSide::steps[number - 1])
    int32_t phase = -1; // StepRecord::phase; -1: not compared
};

struct TimelineLane
{
    QString title;
    std::vector<TimelineKernel> kernels; // by start
    QStringList names;
    double maxDuration = 0; // of one kernel: how far back a kernel can reach into a range
    double end = 0; // the last kernel's end: the lane's wall span from its first kernel's start
    double kernelTime = 0; // the sum of the kernels' durations (less than `end` where the GPU idles)
    size_t traceKernels = 0; // the kernels the trace has, where the lane shows only the first ones
    // The GPU's idle intervals the report lists (StepTimeSide::idle, at least kShownIdleUs each)
    // within the lane's span, in time order: gaps[i] is StepTimeSide::idle[firstIdle + i].
    std::vector<TimelineGap> gaps;
    size_t firstIdle = 0;
    std::vector<HostCode> gapCodes; // StepTimeSide::codes
    size_t idleLeftOut = 0; // intervals the report lists beyond the lane's span (a capped lane)
    // GPU time the trace holds no kernels for (StepTimeSide::notRecorded: a graph launch that ran on
    // after its last recorded kernel), from the lane's start; the lane's span reaches its end.
    std::vector<TimelineGap> notRecorded;
    double notRecordedTime = 0;
    std::vector<TimelineStep> steps; // the trace's steps that begin within the lane's span
    // How much later than its own start the lane is drawn (every time above includes it), so that
    // a step of A and the same step of B start together (TimelineView::shiftLanes).
    double shift = 0;

    // Sets maxDuration and end from the kernels (sorted by start).
    void finish();
};

struct TimelineConnector
{
    int a = 0; // index into lanes[0].kernels
    int b = 0; // index into lanes[1].kernels
};

struct TimelineData
{
    std::array<TimelineLane, 2> lanes;
    std::vector<TimelineConnector> connectors; // in alignment order
    QStringList typeNames;
    QString placement; // how the kernels were placed in time, in words

    bool isEmpty() const { return lanes[0].kernels.empty() && lanes[1].kernels.empty(); }
    double end() const;
};

// One call of an operation finding: its kernels end to end by median duration (the report keeps
// durations per kernel of a call, not times), joined as OpFinding::alignment pairs them; `row` is
// the alignment row.
TimelineData timelineOfFinding(const FusionReport& report, const OpFinding& finding);
// A drilled-into group pair (a graph replay): the kernels at their recorded times, from each
// group's first kernel, joined as the drill-down aligned them; `row` is the drill-down's row.
TimelineData timelineOfGroups(const FusionReport& report, const GroupDiff& diff);
// Every kernel of each trace at its recorded time, from the trace's first kernel, at most
// `maxKernels` per side (a whole iteration and more); no connectors: the report aligns operations,
// not a whole trace's kernels. With the report's step time, each lane has its GPU idle gaps too.
TimelineData timelineOfTraces(const std::array<const TraceStore*, 2>& stores, const Classifier& classifier,
    size_t maxKernels, const StepTimeReport* stepTime = nullptr);

// The idle gaps of lane `side` that the core charges to a "where to look first" entry or a
// host_time row (idleIntervalsOf): indices into TimelineLane::gaps.
std::vector<int> gapsCharged(const TimelineData& data, int side, IdleCause cause, const std::string& key,
    HostCodeKind kind, const StepTimeSide& source);

} // namespace fusiondiff::ui
