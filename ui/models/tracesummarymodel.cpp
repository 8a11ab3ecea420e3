#include "models/tracesummarymodel.h"

#include "display/formatting.h"
#include "model/fusionreport.h"
#include "report/reporttables.h"

#include <QStringList>

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

QString TraceSummaryModel::csvName() const
{
    // The CSV has a row per trace; this model turns it on its side, with more rows.
    return QString::fromLatin1(reportTableName(ReportTableId::Traces));
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
        case KernelTimeRow: // a trace that holds only part of its GPU work: what it records, and the rest
            return m_report->graphComparison.unrecordedUs[0] > 0 || m_report->graphComparison.unrecordedUs[1] > 0
                ? tr("Recorded kernel time")
                : tr("GPU kernel time");
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
        case OperationsRow:
            return tr("Operations (%1 level)").arg(QString::fromLatin1(opLevelKey(m_report->opAlignment.level)));
        case OperationsMatchedRow:
            return tr("Operations matched");
        case KernelsAttributedRow:
            return tr("Kernels attributed to operations");
        case KernelsUnattributedRow:
            return tr("Unattributed kernels (no launch in the trace)");
        case IterationsRow:
            return tr("Iterations");
        case IterationsComparedRow:
            return tr("Iterations compared");
        case PhasesRow:
            return tr("Phases");
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
        return trace.gpuName.empty() ? tr("(model not recorded)") : toQString(trace.gpuName);
    case KernelsRow:
        return formatCount(trace.kernels);
    case KernelTimeRow:
        if (const double notRecorded = m_report->graphComparison.unrecordedUs[sideIndex(side)]; notRecorded > 0)
            return tr("%1 (and %2 not recorded)").arg(formatDuration(trace.kernelTimeUs), formatDuration(notRecorded));
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
    case OperationsRow:
    case OperationsMatchedRow:
    case KernelsAttributedRow:
    case KernelsUnattributedRow:
        return operationsText(row, sideIndex(side));
    case IterationsRow:
    case IterationsComparedRow:
    case PhasesRow:
        return iterationsText(row, m_report->iterations[sideIndex(side)]);
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

QString TraceSummaryModel::operationsText(int row, size_t side) const
{
    const OpAlignment& alignment = m_report->opAlignment;
    switch (row) {
    case OperationsRow:
        return formatCount(alignment.occurrences[side]);
    case OperationsMatchedRow: {
        // Of the compared calls, as the verdict counts them; the calls left out (a warm-up step,
        // calls outside the steps) are named, so that the share reads the same as the verdict's.
        const uint64_t compared = alignment.compared[side];
        if (compared == 0)
            return formatCount(alignment.matched);
        const QString share
            = formatFixed(100.0 * static_cast<double>(alignment.matched) / static_cast<double>(compared), 0);
        if (compared == alignment.occurrences[side])
            return tr("%1 of %2 (%3%)").arg(formatCount(alignment.matched), formatCount(compared), share);
        return tr("%1 of the %2 compared (%3%; %4 outside the compared steps)")
            .arg(formatCount(alignment.matched), formatCount(compared), share,
                formatCount(alignment.occurrences[side] - compared));
    }
    case KernelsAttributedRow:
        return formatCount(alignment.attributedKernels[side]);
    case KernelsUnattributedRow:
        return tr("%1 (%2)").arg(
            formatCount(alignment.unattributedKernels[side]), formatDuration(alignment.unattributedTimeUs[side]));
    }
    return {};
}

QString TraceSummaryModel::iterationsText(int row, const Iterations& iterations) const
{
    switch (row) {
    case IterationsRow:
        // The core's methods (opreport.h): profiler steps, a repeating cycle, or none found.
        if (iterations.method == "ProfilerStep annotations")
            return iterations.count == 1 ? tr("1 profiler step")
                                         : tr("%1 profiler steps").arg(formatCount(iterations.count));
        if (iterations.method == "repeating operation cycle")
            return tr("a cycle of %1, %2")
                .arg(formatCountOf(iterations.cycleLength, tr("operation"), tr("operations")),
                    iterations.count == 1 ? tr("once") : tr("%1 times").arg(formatCount(iterations.count)));
        return toQString(iterations.method);
    case IterationsComparedRow:
        if (iterations.count == 0)
            return {};
        return iterations.warmupSkipped ? tr("%1 (the first left out as warm-up)").arg(formatCount(iterations.compared))
                                        : formatCount(iterations.compared);
    case PhasesRow: {
        QStringList phases;
        for (const std::string& phase : iterations.phases)
            phases.append(toQString(phase));
        return phases.join(QStringLiteral("; "));
    }
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
    if (row == OperationsMatchedRow)
        return toQString(m_report->opAlignment.verdict);
    return display(row, column);
}

} // namespace fusiondiff::ui
