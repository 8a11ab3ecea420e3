#include "kernelsmodel.h"

#include "formatting.h"
#include "kernelnames.h"
#include "model/fusionreport.h"

namespace fusiondiff::ui {

namespace {

// The average of a side that ran the kernel; absent (-1 for sorting) for a side that did not.
double average(const KernelNameRow& row, size_t side)
{
    return row.count[side] > 0 ? row.timeUs[side] / static_cast<double>(row.count[side]) : -1.0;
}

} // namespace

KernelsModel::KernelsModel(QObject* parent)
    : ReportTableModel(parent)
{
    setColumns({
        { tr("Kernel name"), {}, Kind::Text },
        { tr("Type"), tr("Kernel type given by the classifier"), Kind::Text },
        { tr("A count"), tr("Launches in A (trace1)"), Kind::Cost },
        { tr("B count"), tr("Launches in B (trace2)"), Kind::Cost },
        { tr("A total"), tr("Total GPU time in A"), Kind::Cost },
        { tr("B total"), tr("Total GPU time in B"), Kind::Cost },
        { tr("A average"), tr("Average duration of one launch in A"), Kind::Cost },
        { tr("B average"), tr("Average duration of one launch in B"), Kind::Cost },
        { tr("B \u2212 A count"), tr("How many more launches B makes than A (negative: fewer)"), Kind::Cost },
        { tr("B \u2212 A time"), tr("How much longer B spends in this kernel than A (negative: less)"), Kind::Cost },
    });
}

void KernelsModel::rebuild()
{
    m_names.clear();
    m_shownNames.clear();
    if (!m_report)
        return;
    m_names.reserve(static_cast<qsizetype>(m_report->kernels.size()));
    m_shownNames.reserve(static_cast<qsizetype>(m_report->kernels.size()));
    for (const KernelNameRow& row : m_report->kernels) {
        m_names.append(toQString(row.name));
        m_shownNames.append(shownKernelName(m_names.last()));
    }
}

int KernelsModel::rows() const
{
    return static_cast<int>(m_names.size());
}

QVariant KernelsModel::display(int row, int column) const
{
    const KernelNameRow& kernel = m_report->kernels[static_cast<size_t>(row)];
    switch (column) {
    case NameColumn:
        return m_shownNames[row];
    case TypeColumn:
        return toQString(m_report->typeName(kernel.type));
    case CountAColumn:
        return formatCount(kernel.count[0]);
    case CountBColumn:
        return formatCount(kernel.count[1]);
    case TimeAColumn:
    case TimeBColumn: {
        // A side that never ran the kernel has no time, not a time of zero.
        const size_t side = column == TimeAColumn ? 0 : 1;
        return kernel.count[side] > 0 ? formatDuration(kernel.timeUs[side]) : QString();
    }
    case AverageAColumn:
    case AverageBColumn: {
        const double value = average(kernel, column == AverageAColumn ? 0 : 1);
        return value < 0 ? QString() : formatDuration(value);
    }
    case CountDifferenceColumn:
        return formatSignedCount(static_cast<int64_t>(kernel.count[1]) - static_cast<int64_t>(kernel.count[0]));
    case TimeDifferenceColumn:
        return formatSignedDuration(kernel.timeUs[1] - kernel.timeUs[0]);
    }
    return {};
}

QVariant KernelsModel::sortValue(int row, int column) const
{
    const KernelNameRow& kernel = m_report->kernels[static_cast<size_t>(row)];
    switch (column) {
    case NameColumn:
        return m_names[row];
    case TypeColumn:
        return display(row, column);
    case CountAColumn:
        return QVariant::fromValue<qulonglong>(kernel.count[0]);
    case CountBColumn:
        return QVariant::fromValue<qulonglong>(kernel.count[1]);
    case TimeAColumn:
        return kernel.timeUs[0];
    case TimeBColumn:
        return kernel.timeUs[1];
    case AverageAColumn:
        return average(kernel, 0);
    case AverageBColumn:
        return average(kernel, 1);
    case CountDifferenceColumn:
        return QVariant::fromValue<qlonglong>(
            static_cast<qlonglong>(kernel.count[1]) - static_cast<qlonglong>(kernel.count[0]));
    case TimeDifferenceColumn:
        return kernel.timeUs[1] - kernel.timeUs[0];
    }
    return {};
}

QVariant KernelsModel::fullText(int row, int column) const
{
    return column == NameColumn ? m_names[row] : display(row, column);
}

QVariant KernelsModel::toolTip(int row, int column) const
{
    return column == NameColumn ? kernelNameToolTip(m_names[row]) : ReportTableModel::toolTip(row, column);
}

QVariant KernelsModel::kernelType(int row) const
{
    return static_cast<int>(m_report->kernels[static_cast<size_t>(row)].type);
}

} // namespace fusiondiff::ui
