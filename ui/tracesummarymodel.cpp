#include "tracesummarymodel.h"

#include "formatting.h"
#include "fusionreport.h"

namespace fusiondiff::ui {

TraceSummaryModel::TraceSummaryModel(QObject* parent)
    : ReportTableModel(parent)
{
    setColumns({
        { {}, {}, Kind::Text },
        { tr("A (trace1)"), {}, Kind::Text },
        { tr("B (trace2)"), {}, Kind::Text },
    });
}

int TraceSummaryModel::rows() const
{
    return NumRows;
}

QVariant TraceSummaryModel::display(int row, int column) const
{
    if (column == PropertyColumn) {
        switch (row) {
        case LabelRow:
            return tr("Label");
        case FileRow:
            return tr("File");
        case PlatformRow:
            return tr("Platform");
        case GpuRow:
            return tr("GPU");
        case KernelsRow:
            return tr("Kernels");
        case KernelTimeRow:
            return tr("GPU kernel time");
        case DistinctNamesRow:
            return tr("Distinct kernel names");
        case CorrelationGroupsRow:
            return tr("Correlation groups");
        case LargeGroupsRow:
            return tr("Groups with %1+ kernels").arg(m_report->options.minGroupSize);
        case KernelsInLargeGroupsRow:
            return tr("Kernels in those groups");
        case MatchedGroupsRow:
            return tr("Matched group pairs");
        case KernelsWithoutCorrelationRow:
            return tr("Kernels without correlation id");
        case RuntimeCallsRow:
            return tr("Runtime calls");
        case GraphLaunchesRow:
            return tr("Graph launches");
        case CpuOpsRow:
            return tr("CPU operators");
        case FileSizeRow:
            return tr("File size (decompressed)");
        case EventsRow:
            return tr("Events (skipped)");
        case NameInFindingsRow:
            return tr("Named in findings as");
        }
        return {};
    }

    const Side side = column == TraceAColumn ? Side::Trace1 : Side::Trace2;
    const TraceSummary& trace = m_report->traces[sideIndex(side)];
    switch (row) {
    case LabelRow:
        return toQString(trace.label);
    case FileRow:
        return toQString(trace.fileName);
    case PlatformRow:
        return QString::fromLatin1(platformName(trace.platform));
    case GpuRow:
        return trace.gpuName.empty() ? tr("(not recorded)") : toQString(trace.gpuName);
    case KernelsRow:
        return formatCount(trace.kernels);
    case KernelTimeRow:
        return formatDuration(trace.kernelTimeUs);
    case DistinctNamesRow:
        return formatCount(trace.distinctKernelNames);
    case CorrelationGroupsRow:
        return formatCount(trace.correlationGroups);
    case LargeGroupsRow:
        return formatCount(trace.largeGroups);
    case KernelsInLargeGroupsRow:
        return formatCount(trace.kernelsInLargeGroups);
    case MatchedGroupsRow:
        return formatCount(m_report->groupPairs.size());
    case KernelsWithoutCorrelationRow:
        return formatCount(trace.kernelsWithoutCorrelation);
    case RuntimeCallsRow:
        return formatCount(trace.runtimeCalls);
    case GraphLaunchesRow:
        return formatCount(trace.graphLaunches);
    case CpuOpsRow:
        return formatCount(trace.cpuOps);
    case FileSizeRow:
        return tr("%1 (%2)").arg(formatBytes(trace.statistics.fileBytes), formatBytes(trace.statistics.dataBytes));
    case EventsRow:
        return tr("%1 (%2)").arg(formatCount(trace.statistics.events),
            formatCount(trace.statistics.nonObjectEvents + trace.statistics.eventsMissingFields));
    case NameInFindingsRow:
        return toQString(m_report->sideName(side));
    }
    return {};
}

QVariant TraceSummaryModel::sortValue(int row, int column) const
{
    // The rows are properties in a fixed order; sorting keeps that order.
    if (column == PropertyColumn)
        return row;
    return display(row, column);
}

QVariant TraceSummaryModel::toolTip(int row, int column) const
{
    if (row == FileRow && column != PropertyColumn)
        return toQString(m_report->traces[column == TraceAColumn ? 0 : 1].path);
    return display(row, column);
}

} // namespace fusiondiff::ui
