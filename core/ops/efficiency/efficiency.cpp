#include "ops/efficiency/efficiency.h"

#include "model/tracestore.h"
#include "ops/attribution/opattribution.h"
#include "ops/efficiency/opwork.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_map>

namespace fusiondiff {

namespace {

constexpr std::string_view kNoShapes = "no shapes recorded for this operator (the trace was recorded without "
                                       "record_shapes, or the operator ran inside a CUDA/HIP graph)";

// One group of calls of one side: the row's key and work, and each call's GPU time.
struct CallGroup
{
    EfficiencyRow row; // op, family, shape, dtype, flops, bytes, workBlank
    std::vector<double> callUs;
};

// The median, -1 for no values (a blank cell).
double medianOrNone(std::vector<double> values)
{
    if (values.empty())
        return -1;
    const size_t middle = values.size() / 2;
    std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(middle), values.end());
    if (values.size() % 2 == 1)
        return values[middle];
    const double upper = values[middle];
    const double lower = *std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(middle));
    return (lower + upper) / 2;
}

class SideGroups
{
public:
    explicit SideGroups(const EfficiencyTrace& trace)
        : m_store(trace.store)
        , m_attribution(trace.attribution)
        , m_rank(trace.store.strings.size(), -1)
    { }

    // Groups every call of an operator that launched kernels, by its key; the time of all kernels
    // and of those in calls with a work model.
    std::map<std::string, CallGroup> group(double& kernelUs, double& modelledUs)
    {
        std::unordered_map<int32_t, double> ownerUs;
        const size_t operators = m_store.cpuOps.size();
        for (size_t kernel = 0; kernel < m_store.kernels.size(); ++kernel) {
            kernelUs += m_store.kernels[kernel].dur;
            const int32_t launching = m_attribution.launchingFrame[kernel];
            if (launching < 0)
                continue;
            int32_t owner = -1;
            int bestRank = 0;
            for (int32_t frame = launching; frame >= 0; frame = m_attribution.frames[size_t(frame)].parent) {
                if (static_cast<size_t>(frame) >= operators)
                    continue;
                if (owner < 0)
                    owner = frame;
                const int rank = rankOf(m_store.cpuOps[size_t(frame)].name);
                if (rank > 0 && rank >= bestRank) {
                    owner = frame;
                    bestRank = rank;
                }
            }
            if (owner >= 0)
                ownerUs[owner] += m_store.kernels[kernel].dur;
        }
        std::vector<std::pair<int32_t, double>> owners(ownerUs.begin(), ownerUs.end());
        std::sort(owners.begin(), owners.end());
        std::map<std::string, CallGroup> groups;
        for (const auto& [op, us] : owners) {
            const EfficiencyRow& key = keyOf(static_cast<uint32_t>(op));
            const std::string text = key.op + '\x1f' + key.shape + '\x1f' + key.dtype + '\x1f' + key.workBlank;
            auto [group, added] = groups.try_emplace(text);
            if (added)
                group->second.row = key;
            group->second.callUs.push_back(us);
            if (key.flops >= 0 || key.bytes >= 0)
                modelledUs += us;
        }
        return groups;
    }

private:
    int rankOf(StringId name)
    {
        int8_t& rank = m_rank[name];
        if (rank < 0)
            rank = static_cast<int8_t>(workOperatorRank(m_store.name(name)));
        return rank;
    }

    StringId shapeOf(uint32_t op, bool& found) const
    {
        const auto at = std::lower_bound(m_store.opShapes.begin(), m_store.opShapes.end(), op,
            [](const OpShapes& shapes, uint32_t index) { return shapes.cpuOp < index; });
        found = at != m_store.opShapes.end() && at->cpuOp == op;
        return found ? at->text : 0;
    }

    // The row an operator call belongs to, once per operator name and shape.
    const EfficiencyRow& keyOf(uint32_t op)
    {
        const StringId name = m_store.cpuOps[op].name;
        bool hasShape = false;
        const StringId shape = shapeOf(op, hasShape);
        const uint64_t cacheKey = (uint64_t(name) << 32) | (hasShape ? uint64_t(shape) + 1 : 0);
        auto [known, added] = m_rows.try_emplace(cacheKey);
        if (!added)
            return known->second;
        EfficiencyRow& row = known->second;
        row.op = m_store.name(name);
        if (rankOf(name) == 0) {
            row.workBlank = "unsupported operator: no FLOPs or bytes model";
            return row;
        }
        if (!hasShape) {
            row.workBlank = kNoShapes;
            return row;
        }
        const std::optional<OpInputs> inputs = parseOpInputs(m_store.shapeTexts.get(shape));
        const WorkEstimate estimate = inputs ? estimateWork(row.op, *inputs)
                                             : noWork("shapes not understood: Input Dims is not a list of lists");
        if (!estimate.work) {
            row.workBlank = estimate.reason;
            return row;
        }
        row.family = workFamilyName(estimate.work->family);
        row.shape = estimate.work->shape;
        row.dtype = estimate.work->dtype;
        row.bytes = estimate.work->bytes;
        row.flops = estimate.work->family == WorkFamily::Memory ? -1 : estimate.work->flops;
        return row;
    }

    const TraceStore& m_store;
    const KernelAttribution& m_attribution;
    std::vector<int8_t> m_rank; // per operator name: workOperatorRank, -1 not asked yet
    std::unordered_map<uint64_t, EfficiencyRow> m_rows;
};

// A side's cells from its calls, the row's work and the GPU's peaks.
EfficiencySide sideOf(const EfficiencyRow& row, const std::vector<double>& callUs, const GpuMatch& gpu)
{
    EfficiencySide side;
    side.calls = callUs.size();
    side.medianUs = medianOrNone(callUs);
    if (!row.workBlank.empty() || side.medianUs <= 0) {
        side.blank = !row.workBlank.empty() ? row.workBlank : "no GPU time";
        return side;
    }
    const double seconds = side.medianUs * 1e-6;
    if (row.flops >= 0)
        side.tflops = row.flops / seconds / 1e12;
    side.tbps = row.bytes / seconds / 1e12;
    if (!gpu.peak) {
        side.blank = gpu.how;
        return side;
    }
    side.peakTbps = gpu.peak->hbmTBps;
    if (row.flops < 0) {
        side.bound = "memory";
        side.peakShare = side.tbps / side.peakTbps;
        return side;
    }
    const auto peak = gpu.peak->matrixTflops.find(row.dtype);
    if (peak == gpu.peak->matrixTflops.end()) {
        side.blank = "the peaks file gives no " + row.dtype + " peak for " + gpu.peak->gpu;
        return side;
    }
    side.peakTflops = peak->second;
    // The ridge point: the intensity (FLOPs per byte) where the compute roof meets the memory roof.
    const double ridge = side.peakTflops / side.peakTbps;
    const bool compute = row.bytes <= 0 || row.flops / row.bytes >= ridge;
    side.bound = compute ? "compute" : "memory";
    side.peakShare = compute ? side.tflops / side.peakTflops : side.tbps / side.peakTbps;
    return side;
}

} // namespace

EfficiencyReport analyzeEfficiency(const std::array<EfficiencyTrace, 2>& traces, const GpuPeakTable& peaks)
{
    EfficiencyReport report;
    report.peaksDefinition = peaks.definition;
    report.peaksOrigin = peaks.origin;
    std::array<GpuMatch, 2> gpus;
    std::array<std::map<std::string, CallGroup>, 2> groups;
    for (size_t side = 0; side < 2; ++side) {
        gpus[side] = detectGpu(peaks, traces[side].store.gpu, traces[side].store.platform);
        report.gpus[side] = { gpus[side].peak ? gpus[side].peak->gpu : "", gpus[side].how,
            gpus[side].peak ? gpus[side].peak->source : "" };
        groups[side] = SideGroups(traces[side]).group(report.kernelUs[side], report.modelledUs[side]);
    }
    std::map<std::string, std::array<const CallGroup*, 2>> joined;
    for (size_t side = 0; side < 2; ++side) {
        for (const auto& [key, group] : groups[side])
            joined[key][side] = &group;
    }
    for (const auto& [key, pair] : joined) {
        EfficiencyRow row = (pair[0] ? pair[0] : pair[1])->row;
        for (size_t side = 0; side < 2; ++side) {
            if (pair[side]) {
                row.sides[side] = sideOf(row, pair[side]->callUs, gpus[side]);
            } else {
                row.sides[side].blank
                    = std::string("not run on this side: only ") + (side == 0 ? "B" : "A") + " runs this shape";
            }
        }
        const EfficiencySide& a = row.sides[0];
        const EfficiencySide& b = row.sides[1];
        if (pair[0] && pair[1])
            row.stakeUs = static_cast<double>(std::min(a.calls, b.calls)) * (a.medianUs - b.medianUs);
        else if (pair[0])
            row.stakeUs = static_cast<double>(a.calls) * a.medianUs;
        else
            row.stakeUs = -static_cast<double>(b.calls) * b.medianUs;
        report.rows.push_back(std::move(row));
    }
    std::stable_sort(report.rows.begin(), report.rows.end(),
        [](const EfficiencyRow& x, const EfficiencyRow& y) { return std::fabs(x.stakeUs) > std::fabs(y.stakeUs); });
    return report;
}

} // namespace fusiondiff
