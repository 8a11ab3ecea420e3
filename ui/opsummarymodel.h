#pragma once

#include "reporttablemodel.h"

namespace fusiondiff::ui {

// FusionReport::opSummary: every operation compared, over all its matched calls, whether its
// kernels differ or not.
class OpSummaryModel : public ReportTableModel
{
    Q_OBJECT
public:
    enum Columns
    {
        OpColumn,
        CallsColumn,
        DifferingColumn,
        KernelsAColumn,
        KernelsBColumn,
        TotalAColumn,
        TotalBColumn,
        TimeRatioColumn,
        MedianAColumn,
        MedianBColumn,
        SavingColumn,
        NumColumns
    };

    explicit OpSummaryModel(QObject* parent = nullptr);

protected:
    int rows() const override;
    QVariant display(int row, int column) const override;
    QVariant sortValue(int row, int column) const override;
};

} // namespace fusiondiff::ui
