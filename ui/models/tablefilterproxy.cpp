#include "models/tablefilterproxy.h"

#include "models/reporttablemodel.h"

namespace fusiondiff::ui {

TableFilterProxy::TableFilterProxy(QObject* parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(ReportTableModel::SortRole);
    setSortLocaleAware(false);
    setSortCaseSensitivity(Qt::CaseInsensitive);
    setFilterKeyColumn(-1);
    setFilterRole(ReportTableModel::FullTextRole);
    setFilterCaseSensitivity(Qt::CaseInsensitive);
}

void TableFilterProxy::setRowFilter(std::function<bool(int sourceRow)> accepts)
{
    m_rowFilter = std::move(accepts);
    invalidateFilter();
}

bool TableFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    if (m_rowFilter && !m_rowFilter(sourceRow))
        return false;
    return QSortFilterProxyModel::filterAcceptsRow(sourceRow, sourceParent);
}

} // namespace fusiondiff::ui
