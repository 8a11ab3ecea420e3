#pragma once

// The step time's measurement of one trace (ops/timegap/steptime.h): its GPU work as items in time
// order, its compared steps as windows, and every gap in the work charged to one cause. Internal to
// the step time: steptimeside.cpp measures the items, steps and own times, steptimegaps.cpp the gaps.

#include "model/steptime.h"
#include "ops/attribution/iterations.h"
#include "ops/timegap/hosttimeline.h"
#include "ops/timegap/idlegaps.h"
#include "ops/timegap/steptime.h"
#include "ops/timegap/waitedidle.h"
#include "util/idmap.h"

#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace fusiondiff {

struct NotRecordedSpan;
struct TraceStore;

namespace steptime_detail {

// A launch recorded this much after its work started says the host and device clocks disagree
// (a launch call and its kernel's start are on two clocks; a microsecond is the traces' rounding).
constexpr double kClockToleranceUs = 1.0;
constexpr const char* kNoHostCode = "(no recorded host code on the launching thread)";
constexpr const char* kReasonNoHostEvents
    = "no runtime call in the trace launches its GPU work (a GPU-only trace, or launches without correlation ids)";
constexpr const char* kReasonNoLaunch = "the launch of the GPU work after the gap is not in the trace";
constexpr const char* kReasonClocks
    = "the launch is recorded after its work started: the host and device clocks disagree";
constexpr const char* kReasonNothingFollows = "no GPU work follows in the trace";
// Work that starts this long after its launch call returned, on an idle GPU, waited for something else.
constexpr double kWaitedAfterLaunchUs = 100.0;
// Work whose launch returned this long before the GPU was free for it was queued: the host is ahead.
constexpr double kHostAheadUs = 100.0;

// A kernel, copy or memset on the device, or a NotRecordedSpan. Its end is read from what it is
// (SideAnalysis::endOf), so that a large trace's items take 16 bytes a kernel, not 24.
struct GpuItem
{
    double start;
    uint32_t launch; // into TraceStore::runtimeCalls; IdMap::kMissing when the launch is not in the trace
    // >= 0: into TraceStore::kernels; else -1 - source into TraceStore::gpuCopies and, after them,
    // into the NotRecordedSpans.
    int32_t source;
};
static_assert(sizeof(GpuItem) == 16);

// Consecutive GPU work without a gap: the union of the items' intervals.
struct BusyBlock
{
    double start;
    double end;
    uint32_t first; // the item that starts it (into the sorted items)
    uint32_t last; // the item that ends it
};

// A compared step's stretch of time: StepRecord begin to end.
struct Window
{
    double begin;
    double end;
    uint32_t step; // into StepTimeSide::steps
};

class SideAnalysis
{
public:
    SideAnalysis(const TraceStore& store, StepTimeSide& out, size_t phases)
        : m_store(store)
        , m_out(out)
        , m_phases(phases)
        , m_launchOf(idRangeOf(store.runtimeCalls, &RuntimeEvent::correlation, kNoId))
    { }

    // Steps with StepRecord::phase set (-1: not compared); empty: the whole trace is one step.
    void run(std::vector<HostStep> steps, std::vector<bool>& kernelInStep, StepTimeTotals& totals, size_t side);

    std::map<CauseKey, CauseSums> causes;
    std::map<std::pair<std::string, int>, double> ownTime; // (code, kind) -> own time in the compared steps
    std::map<std::string, CodeOwnTime> ownByKey; // by pairing key, runtime calls left out (waitedidle.h)
    uint64_t clockSkewed = 0;
    double largestSkewUs = 0;
    uint64_t launchedGaps = 0; // gaps in a step ended by work whose launch is in the trace and comes before it
    uint64_t waitedGaps = 0; // those whose work started long after its launch returned
    double leastWaitUs = std::numeric_limits<double>::infinity(); // the shortest such wait
    uint64_t graphLaunches = 0;
    uint64_t intervalsLeftOut = 0;
    const std::vector<NotRecordedSpan>* notRecorded = nullptr; // StepTimeTrace::notRecorded

private:
    const RuntimeEvent* launchOf(const GpuItem& item) const;
    double endOf(const GpuItem& item) const;
    bool earlier(const GpuItem& a, const GpuItem& b) const; // the items' time order
    template<typename Visit>
    void forEachBusyBlock(Visit&& visit) const;
    void collectAllItems(); // the kernels, copies and not recorded spans as items, sorted by time
    void collectItems();
    void addNotRecorded();
    void buildWindows(std::vector<HostStep> steps);
    void measureBusy(StepTimeTotals& totals, size_t side);
    void walkGaps(StepTimeTotals& totals, size_t side);
    void splitGap(
        double from, double to, const GpuItem* previous, const GpuItem* next, StepTimeTotals& totals, size_t side);
    void classify(double from, double to, double gapStart, const GpuItem* previous, const GpuItem* next, uint32_t step,
        StepTimeTotals& totals, size_t side);
    void hostPart(double from, double to, const ThreadId& thread, const RuntimeEvent* previousLaunch, uint32_t step,
        StepTimeTotals& totals, size_t side);
    void chargeHost(double from, double to, const HostTimeline* timeline, size_t segment, uint32_t step,
        StepTimeTotals& totals, size_t side);
    void add(double from, double to, IdleCause cause, int32_t code, int32_t step, int64_t call, StepTimeTotals* totals,
        size_t side);
    void flushInterval();
    void closeDrainWhereHostAhead(uint32_t first, uint32_t end); // the items [first, end) of one busy block
    void chargeDrained(double us, int32_t launchCode);
    void pairingKeys();
    int32_t namedCode(const char* reason); // the code of a fixed text
    const HostTimeline& timelineOf(const ThreadId& thread);
    void sumOwnTime();

    const TraceStore& m_store;
    StepTimeSide& m_out;
    size_t m_phases;
    IdMap m_launchOf;
    HostCodes m_codes;
    std::vector<GpuItem> m_items;
    std::vector<Window> m_windows;
    size_t m_window = 0; // the first window that can still hold a gap
    int64_t m_gap = 0;
    // The host code whose gap drained the GPU's queue, while the host has not got ahead of the GPU
    // again (-1: none): the launch idle until then is its drained launch idle (drainedlaunch.h).
    int32_t m_drainedBy = -1;
    int32_t m_gapHostCode = -1; // the host code charged the longest piece of the current gap
    double m_gapHostUs = 0;
    std::map<ThreadId, HostTimeline> m_timelines;
    IdleInterval m_pending { 0, 0, IdleCause::Other, -2, -1 };
    std::unordered_map<uint64_t, CauseSums> m_sums; // by cause << 32 | code
    std::vector<ThreadId> m_launchingThreads;
    std::unordered_map<uint64_t, int32_t> m_launchCodes; // by call name * 2 + queued
    std::unordered_map<const char*, int32_t> m_reasonCodes;
};

// Calls visit(block) for each busy block of the time-sorted items, in time order. The blocks are
// made as they are visited, not held: on a large graph trace most kernels start a block of their
// own, and a vector of them would be as large as the items.
template<typename Visit>
void SideAnalysis::forEachBusyBlock(Visit&& visit) const
{
    if (m_items.empty())
        return;
    BusyBlock block { m_items.front().start, endOf(m_items.front()), 0, 0 };
    for (uint32_t i = 1; i < m_items.size(); ++i) {
        const GpuItem& item = m_items[i];
        if (item.start > block.end) {
            visit(std::as_const(block));
            block = { item.start, endOf(item), i, i };
        } else if (const double end = endOf(item); end > block.end) {
            block.end = end;
            block.last = i;
        }
    }
    visit(std::as_const(block));
}

} // namespace steptime_detail

} // namespace fusiondiff
