#include "matchedkernelsmodel.h"

#include "formatting.h"
#include "kernelnames.h"
#include "model/fusionreport.h"

namespace fusiondiff::ui {

namespace {

double meanOf(const MatchedKernels& row, size_t side)
{
    return row.pairs > 0 ? row.timeUs[side] / static_cast<double>(row.pairs) : 0.0;
}

} // namespace

MatchedKernelsModel::MatchedKernelsModel(QObject* parent)
    : ReportTableModel(parent)
{
    setColumns({
        { tr("A kernel"), tr("The kernel of trace A (trace1)"), Kind::Text },
        { tr("A type"), tr("Its kernel type"), Kind::Text },
        { tr("B kernel"), tr("The kernel of trace B (trace2) that the comparison lined up with it"), Kind::Text },
        { tr("B type"), tr("Its kernel type"), Kind::Text },
        { tr("Pairs"),
            tr("How many kernels of A the comparison paired with a kernel of B under these two names: same "
               "position in matched operations or graphs, or aligned by kernel type where the counts differ"),
            Kind::Cost },
        { tr("A total"), tr("GPU time of A's paired kernels"), Kind::Cost },
        { tr("A mean"), tr("GPU time of one of A's paired kernels, on average"), Kind::Cost },
        { tr("B total"), tr("GPU time of B's paired kernels"), Kind::Cost },
        { tr("B mean"), tr("GPU time of one of B's paired kernels, on average"), Kind::Cost },
        { tr("B − A time"), tr("B's total minus A's: positive where B takes longer"), Kind::Number },
    });
}

void MatchedKernelsModel::rebuild()
{
    for (QStringList& names : m_names)
        names.clear();
    if (!m_report)
        return;
    for (QStringList& names : m_names)
        names.reserve(static_cast<qsizetype>(m_report->matchedKernels.size()));
    for (const MatchedKernels& row : m_report->matchedKernels) {
        m_names[0].append(toQString(row.names[0]));
        m_names[1].append(toQString(row.names[1]));
    }
}

int MatchedKernelsModel::rows() const
{
    return m_report ? static_cast<int>(m_report->matchedKernels.size()) : 0;
}

QString MatchedKernelsModel::text(int row, int column) const
{
    const MatchedKernels& kernels = m_report->matchedKernels[static_cast<size_t>(row)];
    switch (column) {
    case NameAColumn:
        return m_names[0][row];
    case NameBColumn:
        return m_names[1][row];
    case TypeAColumn:
        return toQString(m_report->typeName(kernels.types[0]));
    case TypeBColumn:
        return toQString(m_report->typeName(kernels.types[1]));
    default:
        return {};
    }
}

QVariant MatchedKernelsModel::display(int row, int column) const
{
    const MatchedKernels& kernels = m_report->matchedKernels[static_cast<size_t>(row)];
    switch (column) {
    case NameAColumn:
    case NameBColumn:
        return shownKernelName(text(row, column));
    case TypeAColumn:
    case TypeBColumn:
        return text(row, column);
    case PairsColumn:
        return formatCount(kernels.pairs);
    case TotalAColumn:
        return formatDuration(kernels.timeUs[0]);
    case MeanAColumn:
        return formatDuration(meanOf(kernels, 0));
    case TotalBColumn:
        return formatDuration(kernels.timeUs[1]);
    case MeanBColumn:
        return formatDuration(meanOf(kernels, 1));
    case DifferenceColumn:
        return formatSignedDuration(kernels.differenceUs());
    default:
        return {};
    }
}

QVariant MatchedKernelsModel::sortValue(int row, int column) const
{
    const MatchedKernels& kernels = m_report->matchedKernels[static_cast<size_t>(row)];
    switch (column) {
    case NameAColumn:
    case NameBColumn:
    case TypeAColumn:
    case TypeBColumn:
        return text(row, column);
    case PairsColumn:
        return QVariant::fromValue<qulonglong>(kernels.pairs);
    case TotalAColumn:
        return kernels.timeUs[0];
    case MeanAColumn:
        return meanOf(kernels, 0);
    case TotalBColumn:
        return kernels.timeUs[1];
    case MeanBColumn:
        return meanOf(kernels, 1);
    case DifferenceColumn:
        return kernels.differenceUs();
    default:
        return {};
    }
}

QVariant MatchedKernelsModel::kernelType(int row) const
{
    return static_cast<int>(m_report->matchedKernels[static_cast<size_t>(row)].types[0]);
}

QVariant MatchedKernelsModel::toolTip(int row, int column) const
{
    if (column == NameAColumn || column == NameBColumn)
        return kernelNameToolTip(text(row, column));
    if (column == MeanAColumn || column == MeanBColumn || column == PairsColumn) {
        const MatchedKernels& kernels = m_report->matchedKernels[static_cast<size_t>(row)];
        return tr("%1 pairs: A %2 in all (%3 each), B %4 in all (%5 each)")
            .arg(formatCount(kernels.pairs), formatDuration(kernels.timeUs[0]), formatDuration(meanOf(kernels, 0)),
                formatDuration(kernels.timeUs[1]), formatDuration(meanOf(kernels, 1)));
    }
    return ReportTableModel::toolTip(row, column);
}

QVariant MatchedKernelsModel::fullText(int row, int column) const
{
    if (column == NameAColumn || column == NameBColumn || column == TypeAColumn || column == TypeBColumn)
        return text(row, column);
    return display(row, column);
}

} // namespace fusiondiff::ui
