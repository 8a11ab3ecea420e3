#include "ops/timegap/steptimeside.h"

#include "model/tracestore.h"
#include "ops/comparison/graphtail.h"
#include "util/bothsides.h"
#include "util/freememory.h"
#include "util/sortedruns.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <utility>

namespace fusiondiff::steptime_detail {

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

} // namespace fusiondiff::steptime_detail
