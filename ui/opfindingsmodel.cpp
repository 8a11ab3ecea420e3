#include "opfindingsmodel.h"

#include "formatting.h"
#include "model/fusionreport.h"
#include "sidenames.h"

#include <QStringList>

namespace fusiondiff::ui {

namespace {

// "Memory, Attention": the types of a finding's kernels on one side, in time order.
QString typesText(const FusionReport& report, const std::vector<FindingKernel>& kernels)
{
    QStringList types;
    for (const FindingKernel& kernel : kernels)
        types.append(toQString(report.typeName(kernel.type)));
    return types.join(QStringLiteral(", "));
}

} // namespace

OpFindingsModel::OpFindingsModel(QObject* parent)
    : ReportTableModel(parent)
{
    setColumns({
        { tr("Operation"), tr("The operator, module or graph launch that runs different kernels"), Kind::Text },
        { tr("Fused by"), tr("The side that runs fewer kernels"), Kind::Text },
        { tr("Calls"), tr("Calls (occurrences) of the operation that show this pattern"), Kind::Cost },
        { tr("A kernels"), tr("Kernels A (trace1) runs per call"), Kind::Cost },
        { tr("B kernels"), tr("Kernels B (trace2) runs per call"), Kind::Cost },
        { tr("Extra/call"), tr("Launch difference: kernels per call the unfused side launches beyond the fused side's"),
            Kind::Cost },
        { tr("A time/call (IQR)"), tr("A's GPU time per call: median (first to third quartile)"), Kind::Cost },
        { tr("B time/call (IQR)"), tr("B's GPU time per call: median (first to third quartile)"), Kind::Cost },
        { tr("Could save"),
            tr("Summed over the calls: how much longer the side with more kernels takes (never negative)"),
            Kind::Cost },
        { tr("Summary"), {}, Kind::Text },
    });
}

int OpFindingsModel::rows() const
{
    return static_cast<int>(m_report->opFindings.size());
}

QVariant OpFindingsModel::display(int row, int column) const
{
    const FusionReport& report = *m_report;
    const OpFinding& finding = report.opFindings[static_cast<size_t>(row)];
    switch (column) {
    case OpColumn:
        return toQString(finding.op);
    case FusedByColumn:
        return tr("%1 (%2)").arg(sideAlias(report, sideIndex(finding.fusedSide)),
            finding.fusedSide == Side::Trace1 ? QStringLiteral("A") : QStringLiteral("B"));
    case CallsColumn:
        return formatCount(finding.occurrences);
    case KernelsAColumn:
        return formatCount(finding.kernels[0].size());
    case KernelsBColumn:
        return formatCount(finding.kernels[1].size());
    case LaunchDifferenceColumn:
        return formatInteger(finding.launchDifference);
    case MedianAColumn:
        return formatSpread(finding.timeUs[0]);
    case MedianBColumn:
        return formatSpread(finding.timeUs[1]);
    case SavingColumn:
        return formatDuration(finding.savingUs);
    case SummaryColumn:
        return withSideAliases(report, toQString(finding.summary));
    }
    return {};
}

QVariant OpFindingsModel::sortValue(int row, int column) const
{
    const OpFinding& finding = m_report->opFindings[static_cast<size_t>(row)];
    switch (column) {
    case OpColumn:
    case FusedByColumn:
    case SummaryColumn:
        return display(row, column);
    case CallsColumn:
        return QVariant::fromValue<qulonglong>(finding.occurrences);
    case KernelsAColumn:
        return QVariant::fromValue<qulonglong>(finding.kernels[0].size());
    case KernelsBColumn:
        return QVariant::fromValue<qulonglong>(finding.kernels[1].size());
    case LaunchDifferenceColumn:
        return QVariant::fromValue<qlonglong>(finding.launchDifference);
    case MedianAColumn:
        return finding.timeUs[0].median;
    case MedianBColumn:
        return finding.timeUs[1].median;
    case SavingColumn:
        return finding.savingUs;
    }
    return {};
}

QVariant OpFindingsModel::toolTip(int row, int column) const
{
    const FusionReport& report = *m_report;
    const OpFinding& finding = report.opFindings[static_cast<size_t>(row)];
    switch (column) {
    case KernelsAColumn:
    case KernelsBColumn:
        return typesText(report, finding.kernels[column == KernelsAColumn ? 0 : 1]);
    case MedianAColumn:
    case MedianBColumn: {
        const Spread& time = finding.timeUs[column == MedianAColumn ? 0 : 1];
        return tr("median %1, first quartile %2, third quartile %3; %4 in all over %5 calls")
            .arg(formatDuration(time.median), formatDuration(time.q1), formatDuration(time.q3),
                formatDuration(time.total), formatCount(time.count));
    }
    default:
        return ReportTableModel::toolTip(row, column);
    }
}

} // namespace fusiondiff::ui
