#include "collectivesmodel.h"

#include "formatting.h"
#include "model/fusionreport.h"

namespace fusiondiff::ui {

CollectivesModel::CollectivesModel(QObject* parent)
    : ReportTableModel(parent)
{
    setColumns({
        { tr("Collective"), {}, Kind::Text },
        { tr("A count"), tr("Communication kernels (launches) of this collective in A (trace1)"), Kind::Cost },
        { tr("B count"), tr("Communication kernels (launches) of this collective in B (trace2)"), Kind::Cost },
        { tr("A time"), tr("Their GPU time in A"), Kind::Cost },
        { tr("B time"), tr("Their GPU time in B"), Kind::Cost },
        { tr("A implementation"), tr("What implements the collective in A (NCCL, RCCL, a custom kernel)"), Kind::Text },
        { tr("B implementation"), tr("What implements the collective in B"), Kind::Text },
    });
}

int CollectivesModel::rows() const
{
    return static_cast<int>(m_report->collectives.size());
}

QVariant CollectivesModel::display(int row, int column) const
{
    const CollectiveComparison& collective = m_report->collectives[static_cast<size_t>(row)];
    switch (column) {
    case CollectiveColumn:
        return toQString(collective.collective);
    case CountAColumn:
        return formatCount(collective.count[0]);
    case CountBColumn:
        return formatCount(collective.count[1]);
    case TimeAColumn:
    case TimeBColumn: {
        // A side without this collective has no time, not a time of zero.
        const size_t side = column == TimeAColumn ? 0 : 1;
        return collective.count[side] > 0 ? formatDuration(collective.timeUs[side]) : QString();
    }
    case ImplementationAColumn:
        return toQString(collective.implementation[0]);
    case ImplementationBColumn:
        return toQString(collective.implementation[1]);
    }
    return {};
}

QVariant CollectivesModel::sortValue(int row, int column) const
{
    const CollectiveComparison& collective = m_report->collectives[static_cast<size_t>(row)];
    switch (column) {
    case CollectiveColumn:
    case ImplementationAColumn:
    case ImplementationBColumn:
        return display(row, column);
    case CountAColumn:
        return QVariant::fromValue<qulonglong>(collective.count[0]);
    case CountBColumn:
        return QVariant::fromValue<qulonglong>(collective.count[1]);
    case TimeAColumn:
        return collective.timeUs[0];
    case TimeBColumn:
        return collective.timeUs[1];
    }
    return {};
}

} // namespace fusiondiff::ui
