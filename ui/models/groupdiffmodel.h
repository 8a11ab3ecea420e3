#pragma once

#include "models/alignedrow.h"
#include "models/reporttablemodel.h"
#include "ops/comparison/groupdiff.h"

#include <QAbstractTableModel>
#include <QStringList>

namespace fusiondiff::ui {

// Two kernel sequences side by side, one aligned row each: A's kernel on the left, B's on the
// right, as the core aligns them (alignScored). Rows where only one side has a kernel, or where the
// two types differ, are highlighted.
class GroupDiffModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Columns
    {
        IndexAColumn,
        NameAColumn,
        TypeAColumn,
        DurationAColumn,
        IndexBColumn,
        NameBColumn,
        TypeBColumn,
        DurationBColumn,
        NumColumns
    };
    enum Roles
    {
        SortRole = ReportTableModel::SortRole, // the table pages' filter and copy read these two
        FullTextRole = ReportTableModel::FullTextRole, // names not shortened
        StatusRole = kAlignedRowStatusRole,
    };

    explicit GroupDiffModel(QObject* parent = nullptr);

    void setDiff(GroupDiff diff, QStringList typeNames);
    void clear();
    const GroupDiff& diff() const { return m_diff; }
    int rowsWithStatus(AlignedRowStatus status) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

private:
    AlignedRowStatus statusOf(const AlignedPair& row) const;

    GroupDiff m_diff;
    QStringList m_typeNames;
};

} // namespace fusiondiff::ui
