#include "models/groupdiffmodel.h"

#include "display/formatting.h"
#include "display/kernelnames.h"
#include "models/reporttablemodel.h"

namespace fusiondiff::ui {

static_assert(int(GroupDiffModel::SortRole) == int(ReportTableModel::SortRole));
static_assert(int(GroupDiffModel::FullTextRole) == int(ReportTableModel::FullTextRole));

GroupDiffModel::GroupDiffModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void GroupDiffModel::setDiff(GroupDiff diff, QStringList typeNames)
{
    beginResetModel();
    m_diff = std::move(diff);
    m_typeNames = std::move(typeNames);
    endResetModel();
}

void GroupDiffModel::clear()
{
    setDiff({}, {});
}

AlignedRowStatus GroupDiffModel::statusOf(const AlignedPair& row) const
{
    const CategoryId typeA = row.first >= 0 ? m_diff.kernels[0][static_cast<size_t>(row.first)].type : 0;
    const CategoryId typeB = row.second >= 0 ? m_diff.kernels[1][static_cast<size_t>(row.second)].type : 0;
    return alignedRowStatus(row, typeA, typeB);
}

int GroupDiffModel::rowsWithStatus(AlignedRowStatus status) const
{
    int count = 0;
    for (const AlignedPair& row : m_diff.rows)
        count += statusOf(row) == status;
    return count;
}

int GroupDiffModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_diff.rows.size());
}

int GroupDiffModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : NumColumns;
}

QVariant GroupDiffModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= NumColumns)
        return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case IndexAColumn:
            return tr("A #");
        case NameAColumn:
            return tr("A kernel");
        case TypeAColumn:
            return tr("A type");
        case DurationAColumn:
            return tr("A duration");
        case IndexBColumn:
            return tr("B #");
        case NameBColumn:
            return tr("B kernel");
        case TypeBColumn:
            return tr("B type");
        case DurationBColumn:
            return tr("B duration");
        }
    }
    return {};
}

QVariant GroupDiffModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const AlignedPair& row = m_diff.rows[static_cast<size_t>(index.row())];
    const int side = index.column() < IndexBColumn ? 0 : 1;
    const int position = static_cast<int>(side == 0 ? row.first : row.second);
    const int field = index.column() % IndexBColumn;
    const AlignedRowStatus status = statusOf(row);

    if (role == StatusRole)
        return status;
    if (role == Qt::BackgroundRole)
        return alignedRowBackground(status, side);
    if (role == Qt::TextAlignmentRole) {
        return QVariant::fromValue(Qt::Alignment(
            field == 1 || field == 2 ? Qt::AlignLeft | Qt::AlignVCenter : Qt::AlignRight | Qt::AlignVCenter));
    }
    if (position < 0
        || (role != Qt::DisplayRole && role != SortRole && role != Qt::ToolTipRole && role != FullTextRole))
        return {};
    if (role == Qt::ToolTipRole && field != 1)
        return {};

    const GroupKernel& kernel = m_diff.kernels[static_cast<size_t>(side)][static_cast<size_t>(position)];
    const QString typeName = kernel.type < m_typeNames.size() ? m_typeNames[kernel.type] : QString::number(kernel.type);
    switch (field) {
    case 0:
        return role == SortRole ? QVariant(position) : QVariant(position + 1);
    case 1: {
        // Template names run to thousands of characters: the view shows the start of them.
        const QString name = toQString(kernel.name);
        if (role == Qt::ToolTipRole)
            return kernelNameToolTip(name);
        return role == Qt::DisplayRole ? shownKernelName(name) : name;
    }
    case 2:
        return typeName;
    case 3:
        return role == SortRole ? QVariant(kernel.dur) : QVariant(formatDuration(kernel.dur));
    }
    return {};
}

} // namespace fusiondiff::ui
