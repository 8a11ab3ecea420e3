#include "ops/timegap/steptime.h"

#include "model/tracestore.h"
#include "ops/comparison/graphtail.h"
#include "ops/timegap/hosttimeline.h"
#include "ops/timegap/idlegaps.h"
#include "ops/timegap/waitedidle.h"
#include "util/bothsides.h"
#include "util/freememory.h"
#include "util/idmap.h"
#include "util/plural.h"
#include "util/sortedruns.h"
#include "util/textformat.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>

namespace fusiondiff {

namespace {

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
// Without steps, the step time leads when the GPU waits on the host at least this share of a trace's time.
constexpr double kIdleMattersShare = 0.10;
// ... or when the step times differ by this share of the longer one, and the host and sync idle
// by at least this share of that difference.
constexpr double kGapMattersShare = 0.02;
constexpr double kWaitingExplainsShare = 0.5;
// Work that starts this long after its launch call returned, on an idle GPU, waited for something else.
constexpr double kWaitedAfterLaunchUs = 100.0;
// With at least this many gaps, all of them so ended say more about the clocks than about the work.
constexpr uint64_t kClockOffsetGaps = 3;

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
    std::map<ThreadId, HostTimeline> m_timelines;
    IdleInterval m_pending { 0, 0, IdleCause::Other, -2, -1 };
    std::unordered_map<uint64_t, CauseSums> m_sums; // by cause << 32 | code
    std::vector<ThreadId> m_launchingThreads;
    std::unordered_map<uint64_t, int32_t> m_launchCodes; // by call name * 2 + queued
    std::unordered_map<const char*, int32_t> m_reasonCodes;
};

const RuntimeEvent* SideAnalysis::launchOf(const GpuItem& item) const
{
    return item.launch == IdMap::kMissing ? nullptr : &m_store.runtimeCalls[item.launch];
}

double SideAnalysis::endOf(const GpuItem& item) const
{
    if (item.source >= 0) {
        const KernelEvent& kernel = m_store.kernels[size_t(item.source)];
        return kernel.ts + std::max(0.0, kernel.dur);
    }
    const size_t other = size_t(-1 - int64_t(item.source));
    if (other < m_store.gpuCopies.size()) {
        const GpuCopyEvent& copy = m_store.gpuCopies[other];
        return copy.ts + std::max(0.0, copy.dur);
    }
    return (*notRecorded)[other - m_store.gpuCopies.size()].end;
}

bool SideAnalysis::earlier(const GpuItem& a, const GpuItem& b) const
{
    return a.start != b.start ? a.start < b.start : endOf(a) > endOf(b);
}

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

void SideAnalysis::collectItems()
{
    for (uint32_t i = 0; i < m_store.runtimeCalls.size(); ++i) {
        const RuntimeEvent& call = m_store.runtimeCalls[i];
        if (call.correlation != kNoId)
            m_launchOf.findOrInsert(call.correlation, i);
        graphLaunches += call.graphLaunch;
    }
    const auto launchCall
        = [this](int64_t correlation) { return correlation == kNoId ? IdMap::kMissing : m_launchOf.find(correlation); };
    // Kernels and copies each come mostly in time order: sorted apart (where they are not) and merged.
    // The kernels, nearly all of the items, are built in place in m_items and the few copies merged
    // in from its back, so that a large trace's items are held once (16 bytes a kernel), not twice.
    const auto earlier = [this](const GpuItem& a, const GpuItem& b) { return this->earlier(a, b); };
    std::vector<GpuItem> copies;
    copies.reserve(m_store.gpuCopies.size());
    for (size_t c = 0; c < m_store.gpuCopies.size(); ++c) {
        const GpuCopyEvent& copy = m_store.gpuCopies[c];
        copies.push_back({ copy.ts, launchCall(copy.correlation), int32_t(-1 - int64_t(c)) });
    }
    sortWhereOutOfOrder(copies.begin(), copies.end(), earlier);
    const size_t kernels = m_store.kernels.size();
    m_items.reserve(kernels + copies.size());
    for (size_t k = 0; k < kernels; ++k) {
        const KernelEvent& kernel = m_store.kernels[k];
        m_items.push_back({ kernel.ts, launchCall(kernel.correlation), int32_t(k) });
    }
    sortWhereOutOfOrder(m_items.begin(), m_items.end(), earlier);
    // As std::merge(kernels, copies) would: a copy goes after the kernels that do not come after it.
    m_items.resize(kernels + copies.size());
    size_t kernel = kernels, copy = copies.size(), to = m_items.size();
    while (copy > 0) {
        if (kernel > 0 && earlier(copies[copy - 1], m_items[kernel - 1]))
            m_items[--to] = m_items[--kernel];
        else
            m_items[--to] = copies[--copy];
    }
    std::vector<ThreadId> threads;
    for (const GpuItem& item : m_items) {
        if (const RuntimeEvent* call = launchOf(item)) {
            m_out.hostEvents = true;
            const ThreadId thread { call->pid, call->tid };
            if ((threads.empty() || !(threads.back() == thread))
                && std::find(threads.begin(), threads.end(), thread) == threads.end())
                threads.push_back(thread);
        }
    }
    m_out.launchingThreads = threads.size();
    m_launchingThreads = std::move(threads);
}

// The not recorded spans as GPU work of their graph launch: busy, and in the step of the launch.
void SideAnalysis::addNotRecorded()
{
    if (!notRecorded)
        return;
    const auto earlier = [this](const GpuItem& a, const GpuItem& b) { return this->earlier(a, b); };
    const int64_t copies = int64_t(m_store.gpuCopies.size());
    for (size_t i = 0; i < notRecorded->size(); ++i) {
        const NotRecordedSpan& span = (*notRecorded)[i];
        const GpuItem item { span.begin, m_launchOf.find(span.correlation), int32_t(-1 - copies - int64_t(i)) };
        m_items.insert(std::upper_bound(m_items.begin(), m_items.end(), item, earlier), item);
    }
}

void SideAnalysis::collectAllItems()
{
    collectItems();
    addNotRecorded();
    m_launchOf = IdMap(); // the items hold their launches now
}

void SideAnalysis::buildWindows(std::vector<HostStep> steps)
{
    if (steps.empty() && !m_items.empty()) {
        // The whole trace is one step: from the first launch (or GPU work) to the last GPU work's end.
        double begin = m_items.front().start;
        double end = 0;
        for (const GpuItem& item : m_items) {
            end = std::max(end, endOf(item));
            if (const RuntimeEvent* call = launchOf(item))
                begin = std::min(begin, call->ts);
        }
        steps.push_back({ begin, end, 0 });
    }
    std::sort(steps.begin(), steps.end(), [](const HostStep& a, const HostStep& b) { return a.begin < b.begin; });
    std::vector<double> gpuEnd(steps.size(), -std::numeric_limits<double>::infinity());
    for (const GpuItem& item : m_items) {
        const RuntimeEvent* call = launchOf(item);
        const double launched = call ? call->ts : item.start;
        const auto after = std::upper_bound(
            steps.begin(), steps.end(), launched, [](double ts, const HostStep& step) { return ts < step.begin; });
        if (after == steps.begin())
            continue;
        const size_t step = size_t(after - steps.begin()) - 1;
        if (launched <= steps[step].end || steps.size() == 1)
            gpuEnd[step] = std::max(gpuEnd[step], endOf(item));
    }
    // A step runs until the later of its last GPU work's end, its own end on the host (the host's
    // tail after the forward pass: sampling, scheduling, the optimizer's bookkeeping) and the next
    // step's start: the GPU's idle at its tail is the step's and is charged to a cause, not left
    // between steps.
    double previousEnd = -std::numeric_limits<double>::infinity();
    for (size_t s = 0; s < steps.size(); ++s) {
        StepRecord record;
        record.phase = steps[s].phase;
        record.begin = std::max(steps[s].begin, previousEnd);
        double end = std::isfinite(gpuEnd[s]) ? std::max(gpuEnd[s], steps[s].end) : steps[s].end;
        if (s + 1 < steps.size())
            end = std::max(end, steps[s + 1].begin);
        record.end = std::max(record.begin, end);
        previousEnd = record.end;
        if (record.phase >= 0)
            m_windows.push_back({ record.begin, record.end, uint32_t(m_out.steps.size()) });
        m_out.steps.push_back(record);
    }
}

void SideAnalysis::measureBusy(StepTimeTotals& totals, size_t side)
{
    for (const GpuItem& item : m_items) {
        // The step it starts in.
        const auto after = std::upper_bound(m_windows.begin(), m_windows.end(), item.start,
            [](double ts, const Window& window) { return ts < window.begin; });
        if (after == m_windows.begin() || item.start >= std::prev(after)->end)
            continue;
        StepRecord& step = m_out.steps[std::prev(after)->step];
        if (item.source >= 0) {
            totals.kernelInStep[side][size_t(item.source)] = true;
            ++step.kernels;
        } else if (size_t(-1 - int64_t(item.source)) >= m_store.gpuCopies.size()) {
            step.notRecordedUs += endOf(item) - item.start;
            totals.notRecordedUs[side] += endOf(item) - item.start;
        } else {
            totals.copiesUs[side] += endOf(item) - item.start;
            ++totals.copies[side];
        }
    }
    // The busy time inside each compared step: blocks and windows are both in time order and do
    // not overlap among themselves, so the (block, window) pairs that overlap come in the same order
    // block by block as window by window, and the sums add up in the same order either way.
    std::optional<double> firstStart;
    double lastEnd = 0;
    size_t w = 0; // the first window that can still overlap a block
    forEachBusyBlock([&](const BusyBlock& block) {
        if (!firstStart) {
            firstStart = block.start;
            lastEnd = block.end;
        }
        lastEnd = std::max(lastEnd, block.end);
        while (w < m_windows.size() && m_windows[w].end <= block.start)
            ++w;
        for (size_t i = w; i < m_windows.size() && m_windows[i].begin < block.end; ++i) {
            const Window& window = m_windows[i];
            const double overlap = std::min(window.end, block.end) - std::max(window.begin, block.start);
            if (overlap > 0) {
                m_out.steps[window.step].busyUs += overlap;
                totals.busyUs[side] += overlap;
            }
        }
    });
    if (firstStart)
        m_out.gpuSpanUs = lastEnd - *firstStart;
    for (const Window& window : m_windows)
        totals.timeUs[side] += window.end - window.begin;
}

void SideAnalysis::walkGaps(StepTimeTotals& totals, size_t side)
{
    if (m_items.empty()) {
        for (const Window& window : m_windows)
            splitGap(window.begin, window.end, nullptr, nullptr, totals, side);
        return;
    }
    std::optional<BusyBlock> previous;
    forEachBusyBlock([&](const BusyBlock& block) {
        if (previous)
            splitGap(previous->end, block.start, &m_items[previous->last], &m_items[block.first], totals, side);
        else if (!m_out.steps.empty() && m_out.steps.front().begin < block.start)
            splitGap(m_out.steps.front().begin, block.start, nullptr, &m_items[block.first], totals, side);
        previous = block;
    });
    if (!m_windows.empty() && m_windows.back().end > previous->end)
        splitGap(previous->end, m_windows.back().end, &m_items[previous->last], nullptr, totals, side);
    flushInterval();
}

// Splits one gap in the GPU's work at the compared steps' edges: outside them between_steps,
// inside a step by cause.
void SideAnalysis::splitGap(
    double from, double to, const GpuItem* previous, const GpuItem* next, StepTimeTotals& totals, size_t side)
{
    ++m_gap;
    double cursor = from;
    while (m_window < m_windows.size() && m_windows[m_window].begin < to) {
        const Window& window = m_windows[m_window];
        if (window.end <= cursor) {
            ++m_window;
            continue;
        }
        const double begin = std::max(cursor, window.begin);
        if (begin > cursor)
            add(cursor, begin, IdleCause::BetweenSteps, -1, -1, -1, nullptr, side);
        const double end = std::min(to, window.end);
        classify(begin, end, from, previous, next, window.step, totals, side);
        cursor = end;
        if (window.end > to)
            break;
        ++m_window;
    }
    if (cursor < to)
        add(cursor, to, IdleCause::BetweenSteps, -1, -1, -1, nullptr, side);
}

void SideAnalysis::classify(double from, double to, double gapStart, const GpuItem* previous, const GpuItem* next,
    uint32_t step, StepTimeTotals& totals, size_t side)
{
    const auto other = [&](const char* reason) {
        add(from, to, IdleCause::Other, namedCode(reason), int32_t(step), -1, &totals, side);
    };
    if (!m_out.hostEvents)
        return other(!next ? kReasonNothingFollows : kReasonNoHostEvents);
    if (!next) {
        // The step's host tail after its last GPU work, with no work after it in the trace: the
        // host code that the thread which launched the last work runs once that launch returned
        // (work that ended before its launch returned says the clocks disagree).
        const RuntimeEvent* last = previous ? launchOf(*previous) : nullptr;
        if (!last)
            return other(kReasonNothingFollows);
        const double launched = std::clamp(last->ts + last->dur, from, to);
        if (launched > from)
            add(from, launched, IdleCause::Other, namedCode(kReasonClocks), int32_t(step), -1, &totals, side);
        return hostPart(launched, to, { last->pid, last->tid }, nullptr, step, totals, side);
    }
    const RuntimeEvent* call = launchOf(*next);
    if (!call)
        return other(kReasonNoLaunch);
    const double gapEnd = next->start;
    if (call->ts > gapEnd + kClockToleranceUs) {
        ++clockSkewed;
        largestSkewUs = std::max(largestSkewUs, call->ts - gapEnd);
        return other(kReasonClocks);
    }
    // Work that started long after its launch returned, on an idle GPU, waited for something
    // else (an event, another process): launched earlier it would not have started earlier, so
    // the host before the launch did not keep the GPU waiting, and the whole gap is launch idle.
    const double afterLaunch = gapEnd - (call->ts + call->dur);
    const bool waitedAfterLaunch = afterLaunch > kWaitedAfterLaunchUs;
    if (from == gapStart) {
        ++launchedGaps;
        waitedGaps += waitedAfterLaunch;
        leastWaitUs = std::min(leastWaitUs, afterLaunch);
    }
    const double hostEnd = waitedAfterLaunch ? from : std::clamp(call->ts, from, to);
    if (hostEnd > from)
        hostPart(from, hostEnd, { call->pid, call->tid }, previous ? launchOf(*previous) : nullptr, step, totals, side);
    if (to > hostEnd) {
        const bool queued = call->ts + call->dur < gapStart;
        const auto [known, inserted] = m_launchCodes.try_emplace(uint64_t(call->name) * 2 + queued, 0);
        if (inserted)
            known->second = m_codes.named(
                std::string(m_store.name(call->name)) + (queued ? std::string(kQueuedCallSuffix) : std::string()),
                HostCodeKind::Runtime);
        add(hostEnd, to, IdleCause::Launch, known->second, int32_t(step), int64_t(call - m_store.runtimeCalls.data()),
            &totals, side);
    }
}

// The host had not launched the next work yet: what its launching thread ran, piece by piece.
// Where that thread ran no recorded code it was waiting, most likely for the thread that launched
// the work before the gap (the autograd thread hands the main thread its results): those pieces
// are charged to what that thread ran, where it ran recorded code.
void SideAnalysis::hostPart(double from, double to, const ThreadId& thread, const RuntimeEvent* previousLaunch,
    uint32_t step, StepTimeTotals& totals, size_t side)
{
    const HostTimeline& timeline = timelineOf(thread);
    const HostTimeline* other = nullptr;
    if (previousLaunch && !(ThreadId { previousLaunch->pid, previousLaunch->tid } == thread))
        other = &timelineOf({ previousLaunch->pid, previousLaunch->tid });
    // An idle piece of the launching thread, [begin, end): the other thread's code, else none.
    const auto unrecorded = [&](double begin, double end) {
        if (!other) {
            chargeHost(begin, end, nullptr, 0, step, totals, side);
            return;
        }
        double cursor = begin;
        for (size_t i = other->firstEndingAfter(begin); i < other->size() && (*other)[i].begin < end; ++i) {
            const HostSegment segment = (*other)[i];
            const double pieceBegin = std::max(cursor, segment.begin);
            const double pieceEnd = std::min(end, segment.end);
            if (pieceEnd <= pieceBegin || segment.code < 0)
                continue;
            chargeHost(cursor, pieceBegin, nullptr, 0, step, totals, side);
            chargeHost(pieceBegin, pieceEnd, other, i, step, totals, side);
            cursor = pieceEnd;
        }
        chargeHost(cursor, end, nullptr, 0, step, totals, side);
    };
    double cursor = from;
    for (size_t i = timeline.firstEndingAfter(from); i < timeline.size() && timeline[i].begin < to; ++i) {
        const HostSegment segment = timeline[i];
        const double begin = std::max(cursor, segment.begin);
        if (begin > cursor)
            unrecorded(cursor, begin);
        const double end = std::min(to, segment.end);
        if (end > begin) {
            if (segment.code >= 0)
                chargeHost(begin, end, &timeline, i, step, totals, side);
            else
                unrecorded(begin, end);
        }
        cursor = std::max(cursor, end);
    }
    if (cursor < to)
        unrecorded(cursor, to);
}

// One piece of host idle: the segment's code (sync where it is a blocking call), or no recorded code.
void SideAnalysis::chargeHost(double from, double to, const HostTimeline* timeline, size_t segment, uint32_t step,
    StepTimeTotals& totals, size_t side)
{
    if (to <= from)
        return;
    if (!timeline) {
        add(from, to, IdleCause::Host, namedCode(kNoHostCode), int32_t(step), -1, &totals, side);
        return;
    }
    const HostSegment piece = (*timeline)[segment];
    add(from, to, piece.blocking ? IdleCause::Sync : IdleCause::Host, piece.code, int32_t(step),
        piece.blocking ? int64_t(segment) : -1, &totals, side);
}

const HostTimeline& SideAnalysis::timelineOf(const ThreadId& thread)
{
    auto found = m_timelines.find(thread);
    if (found == m_timelines.end())
        found = m_timelines.emplace(thread, innermostTimeline(m_store, thread, m_codes)).first;
    return found->second;
}

void SideAnalysis::add(double from, double to, IdleCause cause, int32_t code, int32_t step, int64_t call,
    StepTimeTotals* totals, size_t side)
{
    const double us = to - from;
    if (us <= 0)
        return;
    m_out.idleUs[size_t(cause)] += us;
    if (step >= 0) {
        StepRecord& record = m_out.steps[size_t(step)];
        record.idleUs[size_t(cause)] += us;
        if (totals)
            totals->idleUs[side][size_t(cause)] += us;
        CauseSums& sums = m_sums[uint64_t(cause) << 32 | uint32_t(code)];
        if (sums.byPhase.empty()) {
            const HostCode& named = m_codes.codes()[size_t(code)];
            sums.name = named.name;
            sums.kind = named.kind;
            sums.byPhase.assign(m_phases, 0.0);
        }
        sums.idleUs += us;
        if (record.phase >= 0 && size_t(record.phase) < sums.byPhase.size())
            sums.byPhase[size_t(record.phase)] += us;
        if (sums.lastGap != m_gap) {
            sums.lastGap = m_gap;
            ++sums.intervals;
        }
        if (call >= 0 && sums.lastCall != call) {
            sums.lastCall = call;
            ++sums.calls;
        }
    }
    if (m_pending.step == step && m_pending.cause == cause && m_pending.code == code && m_pending.end == from) {
        m_pending.end = to;
        return;
    }
    flushInterval();
    m_pending = { from, to, cause, step, code };
}

void SideAnalysis::flushInterval()
{
    if (m_pending.step == -2 || m_pending.end - m_pending.begin < StepTimeReport::kShownIdleUs)
        return;
    if (m_out.idle.size() < StepTimeReport::kMaxIdleIntervals)
        m_out.idle.push_back(m_pending);
    else
        ++intervalsLeftOut;
    m_pending.step = -2;
}

// The sums by cause and code, by cause and pairing key (idlePairingKey), so that codes of one key add up.
void SideAnalysis::pairingKeys()
{
    for (auto& [causeAndCode, sums] : m_sums) {
        std::string key = idlePairingKey(m_codes.codes()[size_t(uint32_t(causeAndCode))]);
        const auto [it, inserted] = causes.try_emplace({ int(causeAndCode >> 32), std::move(key) }, sums);
        if (inserted)
            it->second.namedIdleUs = sums.idleUs;
        if (!inserted) {
            CauseSums& into = it->second;
            // The key's name as the side calls it with the most idle, whatever the hash order.
            if (sums.idleUs > into.namedIdleUs || (sums.idleUs == into.namedIdleUs && sums.name < into.name)) {
                into.name = sums.name;
                into.namedIdleUs = sums.idleUs;
            }
            into.idleUs += sums.idleUs;
            into.intervals += sums.intervals;
            into.calls += sums.calls;
            for (size_t phase = 0; phase < into.byPhase.size(); ++phase)
                into.byPhase[phase] += sums.byPhase[phase];
        }
    }
}

int32_t SideAnalysis::namedCode(const char* reason)
{
    const auto [it, inserted] = m_reasonCodes.try_emplace(reason, 0);
    if (inserted)
        it->second = m_codes.named(reason, HostCodeKind::None);
    return it->second;
}

// Each code's own time on the launching threads inside the compared steps.
void SideAnalysis::sumOwnTime()
{
    std::vector<double> ownOfCode; // by code
    std::map<std::pair<std::string, ThreadId>, double> ownOnThread; // (pairing key, thread)
    for (const auto& [thread, timeline] : m_timelines) {
        std::vector<double> ownHere(m_codes.codes().size(), 0.0);
        size_t w = 0;
        for (size_t s = 0; s < timeline.size(); ++s) {
            const HostSegment segment = timeline[s];
            if (segment.code < 0)
                continue;
            while (w < m_windows.size() && m_windows[w].end <= segment.begin)
                ++w;
            double own = 0;
            for (size_t i = w; i < m_windows.size() && m_windows[i].begin < segment.end; ++i)
                own += std::max(
                    0.0, std::min(segment.end, m_windows[i].end) - std::max(segment.begin, m_windows[i].begin));
            if (own > 0) {
                if (size_t(segment.code) >= ownOfCode.size())
                    ownOfCode.resize(m_codes.codes().size(), 0.0);
                ownOfCode[size_t(segment.code)] += own;
                if (size_t(segment.code) >= ownHere.size())
                    ownHere.resize(m_codes.codes().size(), 0.0);
                ownHere[size_t(segment.code)] += own;
            }
        }
        for (size_t code = 0; code < ownHere.size(); ++code) {
            const HostCode& named = m_codes.codes()[code];
            if (ownHere[code] > 0 && named.kind != HostCodeKind::Runtime && named.kind != HostCodeKind::None)
                ownOnThread[{ idlePairingKey(named), thread }] += ownHere[code];
        }
    }
    for (const auto& [keyAndThread, us] : ownOnThread) {
        CodeOwnTime& code = ownByKey[keyAndThread.first];
        code.us += us;
        if (us > code.homeUs) {
            code.homeUs = us;
            code.home = keyAndThread.second;
        }
    }
    for (size_t code = 0; code < ownOfCode.size(); ++code) {
        if (ownOfCode[code] > 0) {
            const HostCode& named = m_codes.codes()[code];
            ownTime[{ named.name, int(named.kind) }] += ownOfCode[code];
        }
    }
}

void SideAnalysis::run(
    std::vector<HostStep> steps, std::vector<bool>& kernelInStep, StepTimeTotals& totals, size_t side)
{
    // The analysis before the step time has freed its attributions and groups: their pages go back
    // before the items and timelines of a large trace are allocated, or both count in the peak.
    returnFreedMemoryToSystem();
    collectAllItems();
    kernelInStep.assign(m_store.kernels.size(), false);
    // Every launching thread's timeline, so that own times cover them even where no gap asked.
    // The steps and their busy time, which do not read them, are measured beside them when the
    // other trace's step time has left a core free.
    together(
        [&] {
            for (const ThreadId& thread : m_launchingThreads)
                timelineOf(thread);
        },
        [&] {
            buildWindows(std::move(steps));
            measureBusy(totals, side);
        });
    walkGaps(totals, side);
    sumOwnTime();
    pairingKeys();
    m_out.codes = m_codes.take();
    // What is read after run() is in the public fields and m_out: the working data goes now, so
    // that it is not held beside the other side's (run at once, or next).
    m_items = {};
    m_windows = {};
    m_timelines = {};
    m_launchOf = IdMap();
    m_sums = {};
    m_launchingThreads = {};
    m_launchCodes = {};
}

double median(std::vector<double> values)
{
    return spreadOf(std::move(values)).median;
}

StepTimeRow rowOf(const std::string& phase, const std::array<std::vector<const StepRecord*>, 2>& steps)
{
    StepTimeRow row;
    row.phase = phase;
    for (size_t side = 0; side < 2; ++side) {
        std::vector<double> times, busy, idle;
        for (const StepRecord* step : steps[side]) {
            times.push_back(step->timeUs());
            busy.push_back(step->busyUs);
            row.notRecordedUs[side] += step->notRecordedUs;
            idle.push_back(step->idleTotalUs());
            row.totalUs[side] += step->timeUs();
            for (size_t cause = 0; cause < kIdleCauses; ++cause)
                row.idleByCauseUs[side][cause] += step->idleUs[cause];
        }
        row.steps[side] = steps[side].size();
        row.timeUs[side] = spreadOf(times);
        row.busyUs[side] = median(busy);
        row.idleUs[side] = median(idle);
        row.notRecordedUs[side] = steps[side].empty() ? 0.0 : row.notRecordedUs[side] / double(steps[side].size());
        for (double& cause : row.idleByCauseUs[side])
            cause = steps[side].empty() ? 0.0 : cause / double(steps[side].size());
    }
    return row;
}

std::string sideLetterOf(size_t side)
{
    return side == 0 ? "A" : "B";
}

} // namespace

StepTimeAnalysis analyzeStepTime(
    const std::array<StepTimeTrace, 2>& traces, const std::vector<int64_t>& phasePartners, bool sidesInParallel)
{
    StepTimeAnalysis result;
    StepTimeReport& report = result.report;
    const bool wholeTrace = traces[0].steps.empty() || traces[1].steps.empty();

    // The report's phases: trace 1's phases that have a partner, in order.
    std::array<std::vector<int32_t>, 2> phaseOf; // per side: the trace's phase -> the report's
    if (wholeTrace) {
        report.phases.emplace_back("whole trace");
        for (size_t side = 0; side < 2; ++side) {
            if (traces[side].steps.empty())
                report.notes.push_back(sideLetterOf(side)
                    + " has no steps (no ProfilerStep annotations, no repeated Python call that holds the "
                      "operations): each trace's whole run is compared as one step.");
        }
    } else {
        size_t phases2 = 0;
        for (const HostStep& step : traces[1].steps)
            phases2 = std::max(phases2, size_t(step.phase + 1));
        phaseOf[0].assign(phasePartners.size(), -1);
        phaseOf[1].assign(phases2, -1);
        for (size_t phase = 0; phase < phasePartners.size(); ++phase) {
            const int64_t partner = phasePartners[phase];
            if (partner < 0 || size_t(partner) >= phases2)
                continue;
            phaseOf[0][phase] = int32_t(report.phases.size());
            phaseOf[1][size_t(partner)] = int32_t(report.phases.size());
            report.phases.push_back("phase " + std::to_string(phase + 1));
        }
    }

    // Which steps are compared: in each pair of phases, the first min(n1, n2) of each side.
    std::array<std::vector<HostStep>, 2> steps;
    if (!wholeTrace) {
        std::array<std::vector<size_t>, 2> counts { std::vector<size_t>(report.phases.size(), 0),
            std::vector<size_t>(report.phases.size(), 0) };
        for (size_t side = 0; side < 2; ++side) {
            steps[side] = traces[side].steps;
            std::sort(steps[side].begin(), steps[side].end(),
                [](const HostStep& a, const HostStep& b) { return a.begin < b.begin; });
            for (HostStep& step : steps[side]) {
                step.phase = step.phase >= 0 && size_t(step.phase) < phaseOf[side].size()
                    ? phaseOf[side][size_t(step.phase)]
                    : -1;
                if (step.phase >= 0)
                    ++counts[side][size_t(step.phase)];
            }
        }
        std::vector<size_t> compared(report.phases.size());
        for (size_t phase = 0; phase < compared.size(); ++phase) {
            compared[phase] = std::min(counts[0][phase], counts[1][phase]);
            if (counts[0][phase] != counts[1][phase])
                report.notes.push_back(report.phases[phase] + ": A has " + std::to_string(counts[0][phase])
                    + " steps, B " + std::to_string(counts[1][phase]) + "; the first " + std::to_string(compared[phase])
                    + " of each are compared.");
        }
        for (size_t side = 0; side < 2; ++side) {
            std::vector<size_t> taken(compared.size(), 0);
            for (HostStep& step : steps[side]) {
                if (step.phase >= 0 && taken[size_t(step.phase)]++ >= compared[size_t(step.phase)])
                    step.phase = -1;
            }
        }
    }

    std::array<std::map<CauseKey, CauseSums>, 2> causes;
    std::array<std::map<std::pair<std::string, int>, double>, 2> ownTime;
    std::array<std::map<std::string, CodeOwnTime>, 2> ownByKey;
    std::array<std::optional<SideAnalysis>, 2> analyses;
    for (size_t side = 0; side < 2; ++side) {
        analyses[side].emplace(traces[side].store, report.sides[side], report.phases.size());
        analyses[side]->notRecorded = traces[side].notRecorded;
        if (traces[side].notRecorded) {
            for (const NotRecordedSpan& span : *traces[side].notRecorded)
                report.sides[side].notRecorded.push_back({ span.begin, span.end });
        }
    }
    forBothSides(sidesInParallel, [&](size_t side) {
        analyses[side]->run(std::move(steps[side]), result.totals.kernelInStep[side], result.totals, side);
    });
    for (size_t side = 0; side < 2; ++side) {
        SideAnalysis& analysis = *analyses[side];
        causes[side] = std::move(analysis.causes);
        ownTime[side] = std::move(analysis.ownTime);
        ownByKey[side] = std::move(analysis.ownByKey);
        const StepTimeSide& out = report.sides[side];
        const std::string letter = sideLetterOf(side);
        if (!out.hostEvents && !traces[side].store.kernels.empty())
            report.notes.push_back(letter + ": " + kReasonNoHostEvents + "; its idle time is other_idle.");
        if (out.launchingThreads > 1)
            report.notes.push_back(letter + ": " + std::to_string(out.launchingThreads)
                + " host threads launch GPU work; each gap is charged to the thread that launched the work that ends "
                  "it.");
        if (analysis.graphLaunches > 0)
            report.notes.push_back(letter + " launches " + countedNoun(analysis.graphLaunches, "graph", "graphs")
                + ": a gap between kernels of a launched graph is launch idle (the work was already launched).");
        if (analysis.clockSkewed > 0)
            report.notes.push_back(letter + ": " + countedNoun(analysis.clockSkewed, "gap ends", "gaps end")
                + " with work that started before its launch was recorded (by up to "
                + formatDuration(analysis.largestSkewUs)
                + "): the host and device clocks disagree; those gaps are other_idle.");
        // A device clock ahead of the host's by a constant makes every piece of work start long
        // after its launch: the gaps are launch idle then, and the note says the clocks may be why.
        if (analysis.launchedGaps >= kClockOffsetGaps && analysis.waitedGaps == analysis.launchedGaps)
            report.notes.push_back(letter + ": the work after every one of its "
                + countedNoun(analysis.launchedGaps, "gap", "gaps") + " starts at least "
                + formatDuration(analysis.leastWaitUs)
                + " after its launch returned, on an idle GPU: the device clock may be ahead of the host's; the "
                  "gaps are launch idle, charged to no host code.");
        if (analysis.intervalsLeftOut > 0)
            report.notes.push_back(letter + ": " + withThousands(int64_t(analysis.intervalsLeftOut))
                + " idle intervals beyond the first " + withThousands(int64_t(StepTimeReport::kMaxIdleIntervals))
                + " are counted but not listed.");
        analyses[side].reset();
    }

    // The step_times rows.
    std::array<std::vector<const StepRecord*>, 2> all;
    for (size_t phase = 0; phase < report.phases.size(); ++phase) {
        std::array<std::vector<const StepRecord*>, 2> inPhase;
        for (size_t side = 0; side < 2; ++side) {
            for (const StepRecord& step : report.sides[side].steps) {
                if (step.phase == int32_t(phase)) {
                    inPhase[side].push_back(&step);
                    all[side].push_back(&step);
                }
            }
        }
        report.rows.push_back(rowOf(report.phases[phase], inPhase));
    }
    if (report.phases.size() > 1)
        report.rows.push_back(rowOf("all steps", all));

    for (std::string& note : chargeWaitsToOtherThreads({ WaitedIdleSide { causes[0], ownByKey[0], report.sides[0] },
                                                           WaitedIdleSide { causes[1], ownByKey[1], report.sides[1] } },
             { sideLetterOf(0), sideLetterOf(1) }))
        report.notes.push_back(std::move(note));

    // Idle by cause, paired by name.
    std::map<CauseKey, IdleCauseEntry> entries;
    for (size_t side = 0; side < 2; ++side) {
        for (const auto& [key, sums] : causes[side]) {
            if (key.first == int(IdleCause::BetweenSteps))
                continue;
            IdleCauseEntry& entry = entries[key];
            entry.cause = IdleCause(key.first);
            entry.key = key.second;
            entry.kind = sums.kind;
            entry.name[side] = sums.name;
            entry.idleUs[side] = sums.idleUs;
            entry.intervals[side] = sums.intervals;
            entry.calls[side] = sums.calls;
        }
    }
    for (auto& [key, entry] : entries) {
        const size_t slow = entry.idleUs[0] >= entry.idleUs[1] ? 0 : 1;
        const auto found = causes[slow].find(key);
        if (found != causes[slow].end() && !found->second.byPhase.empty()) {
            const auto most = std::max_element(found->second.byPhase.begin(), found->second.byPhase.end());
            entry.phase = report.phases[size_t(most - found->second.byPhase.begin())];
        }
        report.causes.push_back(std::move(entry));
    }
    std::stable_sort(report.causes.begin(), report.causes.end(), [](const IdleCauseEntry& a, const IdleCauseEntry& b) {
        return std::fabs(a.idleUs[0] - a.idleUs[1]) > std::fabs(b.idleUs[0] - b.idleUs[1]);
    });

    // The host_time table: own time per step, paired by name and kind.
    std::array<double, 2> comparedSteps {};
    for (size_t side = 0; side < 2; ++side)
        comparedSteps[side] = double(std::max<size_t>(1, all[side].size()));
    if (report.phases.size() == 1)
        for (size_t side = 0; side < 2; ++side)
            comparedSteps[side] = double(std::max<uint64_t>(1, report.rows.front().steps[side]));
    std::map<std::pair<std::string, int>, HostTimeRow> hostRows;
    for (size_t side = 0; side < 2; ++side) {
        for (const auto& [key, own] : ownTime[side]) {
            HostTimeRow& row = hostRows[key];
            row.code = key.first;
            row.kind = HostCodeKind(key.second);
            row.ownUsPerStep[side] = own / comparedSteps[side];
        }
    }
    for (const IdleCauseEntry& entry : report.causes) {
        if (entry.cause != IdleCause::Host)
            continue;
        const auto found = hostRows.find({ entry.key, int(entry.kind) });
        if (found == hostRows.end())
            continue;
        for (size_t side = 0; side < 2; ++side) {
            found->second.idleUs[side] = entry.idleUs[side];
            found->second.idleUsPerStep[side] = entry.idleUs[side] / comparedSteps[side];
        }
    }
    for (auto& [key, row] : hostRows)
        report.hostTime.push_back(std::move(row));
    std::stable_sort(report.hostTime.begin(), report.hostTime.end(), [](const HostTimeRow& a, const HostTimeRow& b) {
        return std::max(a.ownUsPerStep[0], a.ownUsPerStep[1]) > std::max(b.ownUsPerStep[0], b.ownUsPerStep[1]);
    });
    if (report.hostTime.size() > StepTimeReport::kMaxHostRows)
        report.hostTime.resize(StepTimeReport::kMaxHostRows);

    // The step time leads when both traces have steps, or when the GPU waits on the host (its code
    // or its blocking calls) for a share of it. Launch idle alone does not make it lead: a trace
    // whose launches all come long before the GPU starts them says nothing about the host.
    const StepTimeTotals& totals = result.totals;
    bool idleMatters = false;
    for (size_t side = 0; side < 2; ++side) {
        const double waiting
            = totals.idleUs[side][size_t(IdleCause::Host)] + totals.idleUs[side][size_t(IdleCause::Sync)];
        idleMatters |= waiting >= kIdleMattersShare * totals.timeUs[side];
    }
    // Or when the GPU's waiting on the host differs by most of a gap that is a fair share of the
    // time: a host that got slower is the gap, however busy the GPU is besides.
    const auto waitingOf = [&totals](size_t side) {
        return totals.idleUs[side][size_t(IdleCause::Host)] + totals.idleUs[side][size_t(IdleCause::Sync)];
    };
    const double timeGap = std::fabs(totals.timeUs[1] - totals.timeUs[0]);
    idleMatters |= timeGap >= kGapMattersShare * std::max(totals.timeUs[0], totals.timeUs[1])
        && std::fabs(waitingOf(1) - waitingOf(0)) >= kWaitingExplainsShare * timeGap;
    report.notRecorded = totals.notRecordedUs[0] > 0 || totals.notRecordedUs[1] > 0;
    report.headline = totals.timeUs[0] > 0 && totals.timeUs[1] > 0 && (!wholeTrace || idleMatters);
    return result;
}

} // namespace fusiondiff
