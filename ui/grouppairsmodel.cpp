#include "grouppairsmodel.h"

#include "formatting.h"
#include "model/fusionreport.h"

namespace fusiondiff::ui {

GroupPairsModel::GroupPairsModel(QObject* parent)
    : ReportTableModel(parent)
{
    setColumns({
        { tr("Pair"), tr("Position in the matching order"), Kind::Number },
        { tr("A correlation"), tr("Correlation id of the group in A (trace1)"), Kind::Number },
        { tr("B correlation"), tr("Correlation id of the group in B (trace2)"), Kind::Number },
        { tr("A kernels"), {}, Kind::Cost },
        { tr("B kernels"), {}, Kind::Cost },
        { tr("Shared types"), tr("Kernel types both groups contain"), Kind::Cost },
        { tr("Score"), tr("|size difference| - 10 x shared types: the matching score (lower is better)"),
            Kind::Number },
        { tr("A time"), tr("GPU time of the group in A"), Kind::Cost },
        { tr("B time"), tr("GPU time of the group in B"), Kind::Cost },
        { tr("A composition"), tr("Kernels per type in A's group"), Kind::Text },
        { tr("B composition"), tr("Kernels per type in B's group"), Kind::Text },
    });
}

int GroupPairsModel::rows() const
{
    return static_cast<int>(m_report->groupPairs.size());
}

QVariant GroupPairsModel::display(int row, int column) const
{
    const FusionReport& report = *m_report;
    const GroupPair& pair = report.groupPairs[static_cast<size_t>(row)];
    const LargeGroup& a = report.largeGroups[0][pair.group1];
    const LargeGroup& b = report.largeGroups[1][pair.group2];
    switch (column) {
    case PairColumn:
        return row + 1;
    case CorrelationAColumn:
        return QString::number(a.correlation);
    case CorrelationBColumn:
        return QString::number(b.correlation);
    case SizeAColumn:
        return formatCount(a.size);
    case SizeBColumn:
        return formatCount(b.size);
    case SharedTypesColumn:
        return pair.sharedTypes;
    case ScoreColumn:
        return QString::number(pair.score);
    case TimeAColumn:
        return formatDuration(a.timeUs);
    case TimeBColumn:
        return formatDuration(b.timeUs);
    case CompositionAColumn:
        return compositionText(report, a);
    case CompositionBColumn:
        return compositionText(report, b);
    }
    return {};
}

QVariant GroupPairsModel::sortValue(int row, int column) const
{
    const FusionReport& report = *m_report;
    const GroupPair& pair = report.groupPairs[static_cast<size_t>(row)];
    const LargeGroup& a = report.largeGroups[0][pair.group1];
    const LargeGroup& b = report.largeGroups[1][pair.group2];
    switch (column) {
    case PairColumn:
        return row;
    case CorrelationAColumn:
        return QVariant::fromValue<qlonglong>(a.correlation);
    case CorrelationBColumn:
        return QVariant::fromValue<qlonglong>(b.correlation);
    case SizeAColumn:
        return a.size;
    case SizeBColumn:
        return b.size;
    case SharedTypesColumn:
        return pair.sharedTypes;
    case ScoreColumn:
        return QVariant::fromValue<qlonglong>(pair.score);
    case TimeAColumn:
        return a.timeUs;
    case TimeBColumn:
        return b.timeUs;
    default:
        return display(row, column);
    }
}

} // namespace fusiondiff::ui
