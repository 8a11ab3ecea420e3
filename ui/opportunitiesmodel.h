#pragma once

#include "reporttablemodel.h"

namespace fusiondiff::ui {

// FusionReport::opportunities, one row each in the report's order (by impact), every field.
class OpportunitiesModel : public ReportTableModel
{
    Q_OBJECT
public:
    enum Columns
    {
        KernelTypeColumn,
        TotalAColumn,
        TotalBColumn,
        AvgPerGroupAColumn,
        AvgPerGroupBColumn,
        TimeAColumn,
        TimeBColumn,
        TimeRatioColumn,
        RatioColumn,
        FusedByColumn,
        GroupsAffectedColumn,
        TotalGroupsColumn,
        SourceColumn,
        ImpactColumn,
        NumColumns
    };

    explicit OpportunitiesModel(QObject* parent = nullptr);

protected:
    int rows() const override;
    QVariant display(int row, int column) const override;
    QVariant sortValue(int row, int column) const override;
    QVariant kernelType(int row) const override;
};

} // namespace fusiondiff::ui
