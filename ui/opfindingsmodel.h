#pragma once

#include "reporttablemodel.h"

namespace fusiondiff::ui {

// FusionReport::opFindings: the operations (and graphs) that run a different number of kernels on
// the two sides, one row each in the report's order (by the time the unfused side could save).
class OpFindingsModel : public ReportTableModel
{
    Q_OBJECT
public:
    enum Columns
    {
        OpColumn,
        FusedByColumn,
        CallsColumn,
        KernelsAColumn,
        KernelsBColumn,
        LaunchDifferenceColumn,
        MedianAColumn,
        MedianBColumn,
        SavingColumn,
        SummaryColumn,
        NumColumns
    };

    explicit OpFindingsModel(QObject* parent = nullptr);

protected:
    int rows() const override;
    QVariant display(int row, int column) const override;
    QVariant sortValue(int row, int column) const override;
    QVariant toolTip(int row, int column) const override;
};

} // namespace fusiondiff::ui
