#pragma once

#include <QSortFilterProxyModel>

#include <functional>

namespace fusiondiff::ui {

// Sorts by the models' SortRole (raw numbers), filters every column case-insensitively.
class TableFilterProxy : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit TableFilterProxy(QObject* parent = nullptr);

    // A filter of the page's own besides the text (the efficiency table's bound): a source row is
    // shown only if `accepts` does too. Null: every row the text filter leaves.
    void setRowFilter(std::function<bool(int sourceRow)> accepts);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    std::function<bool(int sourceRow)> m_rowFilter;
};

} // namespace fusiondiff::ui
