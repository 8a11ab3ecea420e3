#include "extrakernelsmodel.h"

#include "formatting.h"
#include "model/fusionreport.h"

namespace fusiondiff::ui {

ExtraKernelsModel::ExtraKernelsModel(QObject* parent)
    : ReportTableModel(parent)
{
    setColumns({
        { tr("Kernel type"), {}, Kind::Text },
        { tr("A kernels"), tr("Kernels of this type A (trace1) runs where B has none"), Kind::Cost },
        { tr("B kernels"), tr("Kernels of this type B (trace2) runs where A has none"), Kind::Cost },
        { tr("A time"), tr("GPU time of A's extra kernels of this type"), Kind::Cost },
        { tr("B time"), tr("GPU time of B's extra kernels of this type"), Kind::Cost },
    });
}

int ExtraKernelsModel::rows() const
{
    return static_cast<int>(m_report->extraKernels.size());
}

QVariant ExtraKernelsModel::display(int row, int column) const
{
    const ExtraKernels& extra = m_report->extraKernels[static_cast<size_t>(row)];
    switch (column) {
    case TypeColumn:
        return toQString(m_report->typeName(extra.type));
    case KernelsAColumn:
        return formatCount(extra.kernels[0]);
    case KernelsBColumn:
        return formatCount(extra.kernels[1]);
    case TimeAColumn:
        return formatDuration(extra.timeUs[0]);
    case TimeBColumn:
        return formatDuration(extra.timeUs[1]);
    }
    return {};
}

QVariant ExtraKernelsModel::sortValue(int row, int column) const
{
    const ExtraKernels& extra = m_report->extraKernels[static_cast<size_t>(row)];
    switch (column) {
    case TypeColumn:
        return display(row, column);
    case KernelsAColumn:
        return QVariant::fromValue<qulonglong>(extra.kernels[0]);
    case KernelsBColumn:
        return QVariant::fromValue<qulonglong>(extra.kernels[1]);
    case TimeAColumn:
        return extra.timeUs[0];
    case TimeBColumn:
        return extra.timeUs[1];
    }
    return {};
}

QVariant ExtraKernelsModel::kernelType(int row) const
{
    return static_cast<int>(m_report->extraKernels[static_cast<size_t>(row)].type);
}

} // namespace fusiondiff::ui
