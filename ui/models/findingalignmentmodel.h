#pragma once

#include "models/alignedrow.h"
#include "models/reporttablemodel.h"

#include <QAbstractTableModel>
#include <QList>
#include <QString>

#include <memory>
#include <vector>

namespace fusiondiff {
struct FusionReport;
struct OpFinding;
} // namespace fusiondiff

namespace fusiondiff::ui {

// One operation finding's kernels side by side, one row per column of the core's alignment
// (OpFinding::alignment): A's kernel on the left, B's on the right, and between them which of the
// finding's extra runs the row belongs to. Rows where one side has no kernel, or where the types
// differ, are highlighted in the app's A/B colours.
class FindingAlignmentModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Columns
    {
        IndexAColumn,
        NameAColumn,
        TypeAColumn,
        TagsAColumn,
        MedianAColumn,
        RunColumn,
        IndexBColumn,
        NameBColumn,
        TypeBColumn,
        TagsBColumn,
        MedianBColumn,
        NumColumns
    };
    enum Roles
    {
        SortRole = ReportTableModel::SortRole, // the table pages' filter and copy read these two
        FullTextRole = ReportTableModel::FullTextRole, // names not shortened
        StatusRole = kAlignedRowStatusRole,
        RunRole, // the index into OpFinding::extraRuns of the row's run; -1: none; kRepeatedRun
    };
    // A row of a run that is not the one listed: the same run again (counted in its repeats).
    static constexpr int kRepeatedRun = -2;

    explicit FindingAlignmentModel(QObject* parent = nullptr);

    // Shows report->opFindings[finding]; a null report or a finding out of range clears the model.
    void setFinding(std::shared_ptr<const FusionReport> report, int finding);
    const OpFinding* finding() const;
    int rowsWithStatus(AlignedRowStatus status) const;
    // The first row of the finding's extra run `run`, -1 if there is none.
    int firstRowOfRun(int run) const;
    // Every row of the finding's extra run `run` (its listed occurrence), in order.
    QList<int> rowsOfRun(int run) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

private:
    AlignedRowStatus statusOf(int row) const;
    QVariant kernelData(int side, int position, int field, int role) const;
    QVariant runData(int row, int role) const;

    std::shared_ptr<const FusionReport> m_report;
    const OpFinding* m_finding = nullptr;
    std::vector<int> m_runOfRow; // per row: index of its extra run, -1 or kRepeatedRun
    mutable QList<QString> m_names[2]; // per side, converted when first asked for
    QList<QString> m_typeNames;
};

} // namespace fusiondiff::ui
