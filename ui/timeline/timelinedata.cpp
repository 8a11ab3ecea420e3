#include "timeline/timelinedata.h"

#include "classify/classifier.h"
#include "display/formatting.h"
#include "display/sidenames.h"
#include "model/fusionreport.h"
#include "model/tracestore.h"
#include "ops/comparison/groupdiff.h"
#include "ops/timegap/idlegaps.h"
#include "timeline/timelinesteps.h"

#include <QCoreApplication>
#include <QHash>

#include <algorithm>

namespace fusiondiff::ui {

namespace {

QStringList typeNamesOf(const std::vector<std::string>& categories)
{
    QStringList names;
    for (const std::string& name : categories)
        names.append(QString::fromStdString(name));
    return names;
}

QString laneTitle(size_t side, const QString& name)
{
    return QStringLiteral("%1: %2").arg(side == 0 ? QStringLiteral("A") : QStringLiteral("B"), name);
}

void markExtras(TimelineData& data, const std::vector<AlignedPair>& alignment)
{
    for (size_t row = 0; row < alignment.size(); ++row) {
        const AlignedPair& pair = alignment[row];
        const auto mark = [&](int side, int64_t kernel) {
            std::vector<TimelineKernel>& kernels = data.lanes[static_cast<size_t>(side)].kernels;
            if (kernel >= 0 && static_cast<size_t>(kernel) < kernels.size()) {
                kernels[static_cast<size_t>(kernel)].row = static_cast<int>(row);
                kernels[static_cast<size_t>(kernel)].extra = !pair.isMatch();
            }
        };
        mark(0, pair.first);
        mark(1, pair.second);
        if (pair.isMatch() && static_cast<size_t>(pair.first) < data.lanes[0].kernels.size()
            && static_cast<size_t>(pair.second) < data.lanes[1].kernels.size())
            data.connectors.push_back({ static_cast<int>(pair.first), static_cast<int>(pair.second) });
    }
}

} // namespace

void TimelineLane::finish()
{
    maxDuration = 0;
    end = 0;
    kernelTime = 0;
    for (const TimelineKernel& kernel : kernels) {
        kernelTime += kernel.duration;
        maxDuration = std::max(maxDuration, kernel.duration);
        end = std::max(end, kernel.start + kernel.duration);
    }
}

double TimelineData::end() const
{
    return std::max(lanes[0].end, lanes[1].end);
}

TimelineData timelineOfFinding(const FusionReport& report, const OpFinding& finding)
{
    TimelineData data;
    data.typeNames = typeNamesOf(report.classifier.categories);
    data.placement = QCoreApplication::translate("TimelineData", "one call, its kernels end to end by median duration");
    for (size_t side = 0; side < 2; ++side) {
        TimelineLane& lane = data.lanes[side];
        lane.title = laneTitle(side, sideAlias(report, static_cast<int>(side)));
        double time = 0;
        for (const FindingKernel& kernel : finding.kernels[side]) {
            TimelineKernel shown;
            shown.start = time;
            shown.duration = kernel.medianUs;
            shown.type = kernel.type;
            shown.name = static_cast<int>(lane.names.size());
            lane.names.append(QString::fromStdString(kernel.name));
            lane.kernels.push_back(shown);
            time += kernel.medianUs;
        }
    }
    markExtras(data, finding.alignment);
    for (TimelineLane& lane : data.lanes)
        lane.finish();
    return data;
}

TimelineData timelineOfGroups(const FusionReport& report, const GroupDiff& diff)
{
    TimelineData data;
    data.typeNames = typeNamesOf(report.classifier.categories);
    data.placement = QCoreApplication::translate(
        "TimelineData", "the kernels at their recorded times, from each group's first kernel");
    for (size_t side = 0; side < 2; ++side) {
        TimelineLane& lane = data.lanes[side];
        lane.title = laneTitle(side, sideAlias(report, static_cast<int>(side)));
        const std::vector<GroupKernel>& kernels = diff.kernels[side];
        if (kernels.empty())
            continue;
        double first = kernels.front().ts;
        for (const GroupKernel& kernel : kernels)
            first = std::min(first, kernel.ts);
        for (const GroupKernel& kernel : kernels) {
            TimelineKernel shown;
            shown.start = kernel.ts - first;
            shown.duration = kernel.dur;
            shown.type = kernel.type;
            shown.name = static_cast<int>(lane.names.size());
            lane.names.append(QString::fromStdString(kernel.name));
            lane.kernels.push_back(shown);
        }
    }
    // The drill-down's kernels are in time order, as the timeline needs them.
    markExtras(data, diff.rows);
    for (TimelineLane& lane : data.lanes)
        lane.finish();
    return data;
}

namespace {

// The side's idle intervals within the lane's span, from the lane's first kernel at `first`.
void addGaps(TimelineLane& lane, const StepTimeSide& side, double first)
{
    const auto from = std::lower_bound(side.idle.begin(), side.idle.end(), first,
        [](const IdleInterval& interval, double time) { return interval.end <= time; });
    lane.firstIdle = static_cast<size_t>(from - side.idle.begin());
    for (auto it = from; it != side.idle.end(); ++it) {
        // In the lane's own time, as its kernels are.
        const double begin = std::max(it->begin - first, 0.0);
        if (begin >= lane.end) {
            lane.idleLeftOut = static_cast<size_t>(side.idle.end() - it);
            break;
        }
        lane.gaps.push_back({ begin, std::min(it->end - first, lane.end) - begin, it->cause, it->code, it->step });
    }
    lane.gapCodes = side.codes;
}

// The side's not recorded GPU time after the lane's first kernel; the lane then spans it too
// (not for a capped lane, whose span ends with the kernels it draws).
void addNotRecorded(TimelineLane& lane, const StepTimeSide& side, double first)
{
    for (const TimeSpan& span : side.notRecorded) {
        if (span.end <= first || lane.traceKernels > 0)
            continue;
        const double begin = std::max(span.begin - first, 0.0);
        TimelineGap shown;
        shown.start = begin;
        shown.duration = span.end - first - begin;
        lane.notRecorded.push_back(shown);
        lane.notRecordedTime += shown.duration;
        lane.end = std::max(lane.end, span.end - first);
    }
}

} // namespace

std::vector<int> gapsCharged(const TimelineData& data, int side, IdleCause cause, const std::string& key,
    HostCodeKind kind, const StepTimeSide& source)
{
    const TimelineLane& lane = data.lanes[static_cast<size_t>(side)];
    std::vector<int> gaps;
    for (const uint32_t interval : idleIntervalsOf(source, cause, key, kind)) {
        if (interval >= lane.firstIdle && interval - lane.firstIdle < lane.gaps.size())
            gaps.push_back(static_cast<int>(interval - lane.firstIdle));
    }
    return gaps;
}

TimelineData timelineOfTraces(const std::array<const TraceStore*, 2>& stores, const Classifier& classifier,
    size_t maxKernels, const StepTimeReport* stepTime)
{
    TimelineData data;
    data.typeNames = typeNamesOf(classifier.categories());
    data.placement = QCoreApplication::translate(
        "TimelineData", "every kernel at its recorded time, from the trace's first kernel");
    for (size_t side = 0; side < 2; ++side) {
        const TraceStore* store = stores[side];
        TimelineLane& lane = data.lanes[side];
        if (!store)
            continue;
        lane.title = laneTitle(side, QString::fromStdString(store->label));
        std::vector<const KernelEvent*> kernels;
        kernels.reserve(store->kernels.size());
        for (const KernelEvent& kernel : store->kernels)
            kernels.push_back(&kernel);
        std::sort(
            kernels.begin(), kernels.end(), [](const KernelEvent* a, const KernelEvent* b) { return a->ts < b->ts; });
        if (kernels.size() > maxKernels) {
            lane.traceKernels = kernels.size();
            kernels.resize(maxKernels);
        }
        if (kernels.empty())
            continue;
        // One classification and one name per distinct kernel name.
        QHash<StringId, std::pair<CategoryId, int>> known;
        const double first = kernels.front()->ts;
        lane.kernels.reserve(kernels.size());
        for (const KernelEvent* kernel : kernels) {
            auto it = known.find(kernel->name);
            if (it == known.end()) {
                const std::string_view name = store->name(kernel->name);
                it = known.insert(kernel->name, { classifier.classify(name), static_cast<int>(lane.names.size()) });
                lane.names.append(QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size())));
            }
            TimelineKernel shown;
            shown.start = kernel->ts - first;
            shown.duration = kernel->dur;
            shown.type = it->first;
            shown.name = it->second;
            shown.traceKernel = kernel - store->kernels.data();
            lane.kernels.push_back(shown);
        }
        lane.finish();
        if (stepTime) {
            addGaps(lane, stepTime->sides[side], first);
            addNotRecorded(lane, stepTime->sides[side], first);
            addSteps(lane, stepTime->sides[side], first);
        }
    }
    // Where a lane is capped, the placement says so: how many it draws of how many, and where
    // the rest are counted.
    for (size_t side = 0; side < 2; ++side) {
        const TimelineLane& lane = data.lanes[side];
        if (lane.traceKernels == 0)
            continue;
        data.placement += QCoreApplication::translate("TimelineData",
            "; %1: the first %2 of its %3 kernels, up to %4 (the timeline draws at most %2 a side; the "
            "Kernels tab and the exports count every kernel)")
                              .arg(side == 0 ? QStringLiteral("A") : QStringLiteral("B"), formatCount(maxKernels),
                                  formatCount(lane.traceKernels), formatDuration(lane.end));
    }
    return data;
}

} // namespace fusiondiff::ui
