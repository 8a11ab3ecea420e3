#pragma once

#include "models/reporttablemodel.h"

namespace fusiondiff {
struct Iterations;
}

namespace fusiondiff::ui {

// The two TraceSummary records side by side: one row per property, a column for A and for B;
// with them how each trace's operations line up (report.opAlignment) and how it repeats
// (report.iterations).
class TraceSummaryModel : public ReportTableModel
{
    Q_OBJECT
public:
    enum Columns
    {
        PropertyColumn,
        TraceAColumn,
        TraceBColumn,
        NumColumns
    };
    enum Rows
    {
        LabelRow,
        FileRow,
        PlatformRow,
        GpuRow,
        KernelsRow,
        KernelTimeRow,
        DistinctNamesRow,
        CorrelationGroupsRow,
        LargeGroupsRow,
        KernelsInLargeGroupsRow,
        MatchedGroupsRow,
        KernelsWithoutCorrelationRow,
        RuntimeCallsRow,
        GraphLaunchesRow,
        CpuOpsRow,
        OperationsRow,
        OperationsMatchedRow,
        KernelsAttributedRow,
        KernelsUnattributedRow,
        IterationsRow,
        IterationsComparedRow,
        PhasesRow,
        FileSizeRow,
        EventsRow,
        NameInFindingsRow,
        NumRows
    };

    explicit TraceSummaryModel(QObject* parent = nullptr);

    QString csvName() const override;

protected:
    int rows() const override;
    QVariant display(int row, int column) const override;
    QVariant sortValue(int row, int column) const override;
    QVariant toolTip(int row, int column) const override;

private:
    QString operationsText(int row, size_t side) const;
    QString iterationsText(int row, const Iterations& iterations) const;
};

} // namespace fusiondiff::ui
