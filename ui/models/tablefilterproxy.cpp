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

} // namespace fusiondiff::ui
