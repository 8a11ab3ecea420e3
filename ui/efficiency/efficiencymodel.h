#pragma once

#include "models/reportcolumnsmodel.h"

#include <QString>

namespace fusiondiff {
struct EfficiencyRow;
struct FusionReport;
} // namespace fusiondiff

namespace fusiondiff::ui {

// The efficiency table from the core's column list, where a blank cell shows "—" and its tooltip
// says why it is blank: the work's reason (no shapes, an unsupported operator) for FLOPs and bytes,
// the side's (unknown GPU, no peak for the data type, not run on this side) for its columns.
class EfficiencyModel : public ReportColumnsModel
{
    Q_OBJECT
public:
    explicit EfficiencyModel(QObject* parent = nullptr);

    // Why the cell is blank, or empty if it is not (the core column's key and the report's row).
    static QString blankReason(const EfficiencyRow& row, const QString& key);

protected:
    QVariant display(int row, int column) const override;
    QVariant toolTip(int row, int column) const override;

private:
    QString keyOf(int column) const;
    QString reasonAt(int row, int column) const;
};

// Which way a row's roofs bind, as the page's bound filter offers it.
enum class BoundFilter
{
    All,
    Compute, // compute-bound on either side
    Memory, // memory-bound on either side
    Differs, // compute on one side, memory on the other
    Unknown, // no bound: no FLOPs nor bytes, or no peaks on either side
};

bool rowPassesBound(const EfficiencyRow& row, BoundFilter filter);

// Where an efficiency row's operation is drilled into: the first operation finding (Operations
// page) whose operation is the row's operator or a wrapper around it (aten::linear around
// aten::addmm), else its row of the operation summary. `row` is -1 where no compared operation
// holds it (a level of modules, an operator that is not compared).
struct DrillTarget
{
    enum Kind
    {
        None,
        Finding,
        Operation,
    };
    Kind kind = None;
    int row = -1;
};

DrillTarget drillTargetOf(const FusionReport& report, size_t efficiencyRow);

} // namespace fusiondiff::ui
