#include "ops/timegap/steptimeside.h"

#include "model/tracestore.h"

#include <algorithm>
#include <optional>
#include <string>

namespace fusiondiff::steptime_detail {

void SideAnalysis::walkGaps(StepTimeTotals& totals, size_t side)
{
    if (m_items.empty()) {
        for (const Window& window : m_windows)
            splitGap(window.begin, window.end, nullptr, nullptr, totals, side);
        return;
    }
    std::optional<BusyBlock> previous;
    forEachBusyBlock([&](const BusyBlock& block) {
        if (previous) {
            closeDrainWhereHostAhead(previous->first, block.first);
            splitGap(previous->end, block.start, &m_items[previous->last], &m_items[block.first], totals, side);
        } else if (!m_out.steps.empty() && m_out.steps.front().begin < block.start)
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
    m_gapHostCode = -1;
    m_gapHostUs = 0;
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
        m_drainedBy = -1;
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
    if (hostEnd > from) {
        hostPart(from, hostEnd, { call->pid, call->tid }, previous ? launchOf(*previous) : nullptr, step, totals, side);
        m_drainedBy = m_gapHostCode; // none where the host waited for the GPU (sync) all the gap
    }
    if (to > hostEnd) {
        const bool queued = call->ts + call->dur < gapStart;
        const auto [known, inserted] = m_launchCodes.try_emplace(uint64_t(call->name) * 2 + queued, 0);
        if (inserted)
            known->second = m_codes.named(
                std::string(m_store.name(call->name)) + (queued ? std::string(kQueuedCallSuffix) : std::string()),
                HostCodeKind::Runtime);
        add(hostEnd, to, IdleCause::Launch, known->second, int32_t(step), int64_t(call - m_store.runtimeCalls.data()),
            &totals, side);
        // Work launched before the GPU went idle was queued: the host is ahead. A graph's launch
        // latency is its own, one a graph however full the queue was.
        if (queued)
            m_drainedBy = -1;
        else if (!waitedAfterLaunch && !call->graphLaunch)
            chargeDrained(to - hostEnd, known->second);
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
        if (cause == IdleCause::Host && us > m_gapHostUs) {
            m_gapHostUs = us;
            m_gapHostCode = code;
        }
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

// The host is ahead of the GPU again where an item's launch returned long before the work before
// it ended: the queue the drained host code emptied is refilled, and later launch idle is not its.
void SideAnalysis::closeDrainWhereHostAhead(uint32_t first, uint32_t end)
{
    if (m_drainedBy < 0 || first >= end)
        return;
    double busyUntil = endOf(m_items[first]);
    for (uint32_t i = first + 1; i < end; ++i) {
        const GpuItem& item = m_items[i];
        if (const RuntimeEvent* call = launchOf(item); call && busyUntil - (call->ts + call->dur) >= kHostAheadUs) {
            m_drainedBy = -1;
            return;
        }
        busyUntil = std::max(busyUntil, endOf(item));
    }
}

// Launch idle while the queue a host code's gap drained is not refilled: that code's too, as far
// as the other side does not have as much (drainedlaunch.h).
void SideAnalysis::chargeDrained(double us, int32_t launchCode)
{
    if (m_drainedBy < 0 || us <= 0)
        return;
    for (CauseSums* sums : { &m_sums[uint64_t(IdleCause::Host) << 32 | uint32_t(m_drainedBy)],
             &m_sums[uint64_t(IdleCause::Launch) << 32 | uint32_t(launchCode)] }) {
        sums->drainedLaunchUs += us;
        ++sums->drainedLaunches;
    }
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
            into.drainedLaunchUs += sums.drainedLaunchUs;
            into.drainedLaunches += sums.drainedLaunches;
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

} // namespace fusiondiff::steptime_detail
