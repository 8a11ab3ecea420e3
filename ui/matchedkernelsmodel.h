#pragma once

#include "reporttablemodel.h"

#include <QStringList>

namespace fusiondiff::ui {

// The kernels the core lined up across the two traces (report.matchedKernels): one row per pair of
// names, A's kernel beside B's, with the pairs, each side's total and mean time and B - A, in the
// core's order (the largest time difference first).
class MatchedKernelsModel : public ReportTableModel
{
    Q_OBJECT
public:
    enum Columns
    {
        NameAColumn,
        TypeAColumn,
        NameBColumn,
        TypeBColumn,
        PairsColumn,
        TotalAColumn,
        MeanAColumn,
        TotalBColumn,
        MeanBColumn,
        DifferenceColumn,
        NumColumns
    };

    explicit MatchedKernelsModel(QObject* parent = nullptr);

protected:
    void rebuild() override;
    int rows() const override;
    QVariant display(int row, int column) const override;
    QVariant sortValue(int row, int column) const override;
    QVariant kernelType(int row) const override;
    QVariant toolTip(int row, int column) const override;
    QVariant fullText(int row, int column) const override;

private:
    QString text(int row, int column) const; // whole names and type names
    QStringList m_names[2]; // per side, as the trace has them
};

} // namespace fusiondiff::ui
