#include "models/unmatchedgroupsmodel.h"

#include "display/formatting.h"

namespace fusiondiff::ui {

UnmatchedGroupsModel::UnmatchedGroupsModel(QObject* parent)
    : ReportTableModel(parent)
{
    setColumns({
        { tr("Side"), {}, Kind::Text },
        { tr("Correlation"), tr("Correlation id of the group"), Kind::Number },
        { tr("Kernels"), {}, Kind::Cost },
        { tr("Time"), tr("GPU time of the group"), Kind::Cost },
        { tr("Composition"), tr("Kernels per type"), Kind::Text },
    });
}

void UnmatchedGroupsModel::rebuild()
{
    m_groups.clear();
    if (!m_report)
        return;
    for (const Side side : { Side::Trace1, Side::Trace2 }) {
        const size_t count = m_report->largeGroups[sideIndex(side)].size();
        std::vector<bool> matched(count, false);
        for (const GroupPair& pair : m_report->groupPairs)
            matched[side == Side::Trace1 ? pair.group1 : pair.group2] = true;
        for (size_t index = 0; index < count; ++index) {
            if (!matched[index])
                m_groups.emplace_back(side, static_cast<uint32_t>(index));
        }
    }
}

int UnmatchedGroupsModel::rows() const
{
    return static_cast<int>(m_groups.size());
}

const LargeGroup& UnmatchedGroupsModel::group(int row) const
{
    const auto& [side, index] = m_groups[static_cast<size_t>(row)];
    return m_report->largeGroups[sideIndex(side)][index];
}

QVariant UnmatchedGroupsModel::data(const QModelIndex& index, int role) const
{
    if ((role == SideRole || role == GroupIndexRole)
        && checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) {
        const auto& [side, groupIndex] = m_groups[static_cast<size_t>(index.row())];
        return role == SideRole ? static_cast<int>(sideIndex(side)) : static_cast<int>(groupIndex);
    }
    return ReportTableModel::data(index, role);
}

QVariant UnmatchedGroupsModel::display(int row, int column) const
{
    const Side side = m_groups[static_cast<size_t>(row)].first;
    const LargeGroup& large = group(row);
    switch (column) {
    case SideColumn:
        return side == Side::Trace1 ? tr("A") : tr("B");
    case CorrelationColumn:
        return QString::number(large.correlation);
    case SizeColumn:
        return formatCount(large.size);
    case TimeColumn:
        return formatDuration(large.timeUs);
    case CompositionColumn:
        return ui::compositionText(*m_report, large);
    }
    return {};
}

QVariant UnmatchedGroupsModel::sortValue(int row, int column) const
{
    const LargeGroup& large = group(row);
    switch (column) {
    case CorrelationColumn:
        return QVariant::fromValue<qlonglong>(large.correlation);
    case SizeColumn:
        return large.size;
    case TimeColumn:
        return large.timeUs;
    default:
        return display(row, column);
    }
}

} // namespace fusiondiff::ui
