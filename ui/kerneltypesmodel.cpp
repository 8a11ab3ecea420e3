#include "kerneltypesmodel.h"

#include "formatting.h"
#include "model/fusionreport.h"

namespace fusiondiff::ui {

KernelTypesModel::KernelTypesModel(QObject* parent)
    : ReportTableModel(parent)
{
    setColumns({
        { tr("Kernel type"), {}, Kind::Text },
        { tr("A kernels"), tr("Kernels of this type in A (trace1)"), Kind::Cost },
        { tr("B kernels"), tr("Kernels of this type in B (trace2)"), Kind::Cost },
        { tr("A/B"), tr("A's kernels divided by B's"), Kind::Cost },
        { tr("A time"), tr("GPU time of these kernels in A"), Kind::Cost },
        { tr("B time"), tr("GPU time of these kernels in B"), Kind::Cost },
        { tr("B \u2212 A kernels"), tr("How many more kernels of this type B runs than A (negative: fewer)"),
            Kind::Cost },
        { tr("B \u2212 A time"), tr("How much longer B's kernels of this type take than A's (negative: shorter)"),
            Kind::Cost },
    });
}

int KernelTypesModel::rows() const
{
    return static_cast<int>(m_report->globalCounts.size());
}

QVariant KernelTypesModel::display(int row, int column) const
{
    const TypeCount& counts = m_report->globalCounts[static_cast<size_t>(row)];
    switch (column) {
    case KernelTypeColumn:
        return toQString(m_report->typeName(counts.type));
    case CountAColumn:
        return formatCount(counts.count[0]);
    case CountBColumn:
        return formatCount(counts.count[1]);
    case RatioColumn:
        return formatRatio(counts.ratio());
    case TimeAColumn:
    case TimeBColumn: {
        // A side without kernels of this type has no time, not a time of zero.
        const size_t side = column == TimeAColumn ? 0 : 1;
        return counts.count[side] > 0 ? formatDuration(counts.timeUs[side]) : QString();
    }
    case CountDifferenceColumn:
        return formatSignedCount(static_cast<int64_t>(counts.count[1]) - static_cast<int64_t>(counts.count[0]));
    case TimeDifferenceColumn:
        return formatSignedDuration(counts.timeUs[1] - counts.timeUs[0]);
    }
    return {};
}

QVariant KernelTypesModel::sortValue(int row, int column) const
{
    const TypeCount& counts = m_report->globalCounts[static_cast<size_t>(row)];
    switch (column) {
    case KernelTypeColumn:
        return display(row, column);
    case CountAColumn:
        return QVariant::fromValue<qulonglong>(counts.count[0]);
    case CountBColumn:
        return QVariant::fromValue<qulonglong>(counts.count[1]);
    case RatioColumn:
        return counts.ratio();
    case TimeAColumn:
        return counts.timeUs[0];
    case TimeBColumn:
        return counts.timeUs[1];
    case CountDifferenceColumn:
        return QVariant::fromValue<qlonglong>(
            static_cast<qlonglong>(counts.count[1]) - static_cast<qlonglong>(counts.count[0]));
    case TimeDifferenceColumn:
        return counts.timeUs[1] - counts.timeUs[0];
    }
    return {};
}

QVariant KernelTypesModel::kernelType(int row) const
{
    return static_cast<int>(m_report->globalCounts[static_cast<size_t>(row)].type);
}

} // namespace fusiondiff::ui
