#pragma once

#include "models/reporttablemodel.h"

#include "model/fusionreport.h"

#include <utility>
#include <vector>

namespace fusiondiff::ui {

// The large correlation groups of either side that no group pair uses: first A's, then B's.
class UnmatchedGroupsModel : public ReportTableModel
{
    Q_OBJECT
public:
    enum Columns
    {
        SideColumn,
        CorrelationColumn,
        SizeColumn,
        TimeColumn,
        CompositionColumn,
        NumColumns
    };
    enum Roles
    {
        SideRole = FullTextRole + 1, // 0 for A, 1 for B
        GroupIndexRole, // index into FusionReport::largeGroups[side]
    };

    explicit UnmatchedGroupsModel(QObject* parent = nullptr);

    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

protected:
    void rebuild() override;
    int rows() const override;
    QVariant display(int row, int column) const override;
    QVariant sortValue(int row, int column) const override;

private:
    const LargeGroup& group(int row) const;

    std::vector<std::pair<Side, uint32_t>> m_groups;
};

} // namespace fusiondiff::ui
