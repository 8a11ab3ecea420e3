#pragma once

#include "reporttablemodel.h"

namespace fusiondiff::ui {

// FusionReport::extraKernels: per kernel type, the kernels each side runs in addition to the
// other over all operation findings, and their time.
class ExtraKernelsModel : public ReportTableModel
{
    Q_OBJECT
public:
    enum Columns
    {
        TypeColumn,
        KernelsAColumn,
        KernelsBColumn,
        TimeAColumn,
        TimeBColumn,
        NumColumns
    };

    explicit ExtraKernelsModel(QObject* parent = nullptr);

protected:
    int rows() const override;
    QVariant display(int row, int column) const override;
    QVariant sortValue(int row, int column) const override;
    QVariant kernelType(int row) const override;
};

} // namespace fusiondiff::ui
