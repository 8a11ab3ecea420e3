#pragma once

#include "reporttablemodel.h"

namespace fusiondiff::ui {

// FusionReport::globalCounts: kernels and GPU time per kernel type over each whole trace.
class KernelTypesModel : public ReportTableModel
{
    Q_OBJECT
public:
    enum Columns
    {
        KernelTypeColumn,
        CountAColumn,
        CountBColumn,
        RatioColumn,
        TimeAColumn,
        TimeBColumn,
        CountDifferenceColumn, // B - A
        TimeDifferenceColumn,
        NumColumns
    };

    explicit KernelTypesModel(QObject* parent = nullptr);

protected:
    int rows() const override;
    QVariant display(int row, int column) const override;
    QVariant sortValue(int row, int column) const override;
    QVariant kernelType(int row) const override;
};

} // namespace fusiondiff::ui
