#pragma once

#include <QSortFilterProxyModel>

namespace fusiondiff::ui {

// Sorts by the models' SortRole (raw numbers), filters every column case-insensitively.
class TableFilterProxy : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit TableFilterProxy(QObject* parent = nullptr);
};

} // namespace fusiondiff::ui
