#include "models/reporttablemodel.h"

#include "model/fusionreport.h"

namespace fusiondiff::ui {

ReportTableModel::ReportTableModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

ReportTableModel::~ReportTableModel() = default;

void ReportTableModel::setReport(std::shared_ptr<const FusionReport> report)
{
    beginResetModel();
    m_report = std::move(report);
    rebuild();
    endResetModel();
}

int ReportTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_report ? 0 : rows();
}

int ReportTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_columns.size());
}

QVariant ReportTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= m_columns.size())
        return {};
    const Column& column = m_columns[section];
    switch (role) {
    case Qt::DisplayRole:
        return column.title;
    case Qt::ToolTipRole:
        return column.toolTip.isEmpty() ? column.title : column.toolTip;
    case ColumnKeyRole:
        return column.key.isEmpty() ? QVariant() : QVariant(column.key);
    case Qt::InitialSortOrderRole:
        return QVariant::fromValue(column.kind == Kind::Cost ? Qt::DescendingOrder : Qt::AscendingOrder);
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(Qt::Alignment(
            column.kind == Kind::Text ? Qt::AlignLeft | Qt::AlignVCenter : Qt::AlignRight | Qt::AlignVCenter));
    default:
        return {};
    }
}

QVariant ReportTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const int row = index.row();
    const int column = index.column();
    switch (role) {
    case Qt::DisplayRole:
        return display(row, column);
    case SortRole:
        return sortValue(row, column);
    case KernelTypeRole:
        return kernelType(row);
    case SourceRowRole:
        return row;
    case FullTextRole:
        return fullText(row, column);
    case Qt::ToolTipRole:
        return toolTip(row, column);
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(
            Qt::Alignment(m_columns[column].kind == Kind::Text ? Qt::AlignLeft | Qt::AlignVCenter
                                                               : Qt::AlignRight | Qt::AlignVCenter));
    default:
        return {};
    }
}

QVariant ReportTableModel::kernelType(int) const
{
    return {};
}

QVariant ReportTableModel::toolTip(int row, int column) const
{
    // Long texts (kernel names, evidence) are elided in the view: show them whole.
    if (m_columns[column].kind != Kind::Text)
        return {};
    return fullText(row, column);
}

QVariant ReportTableModel::fullText(int row, int column) const
{
    return display(row, column);
}

} // namespace fusiondiff::ui
