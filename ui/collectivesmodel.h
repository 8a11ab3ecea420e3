#pragma once

#include "reporttablemodel.h"

namespace fusiondiff::ui {

// FusionReport::collectives: communication compared by collective (AllReduce against AllReduce,
// whatever implements it on each side), with launches, time and the implementation.
class CollectivesModel : public ReportTableModel
{
    Q_OBJECT
public:
    enum Columns
    {
        CollectiveColumn,
        CountAColumn,
        CountBColumn,
        TimeAColumn,
        TimeBColumn,
        ImplementationAColumn,
        ImplementationBColumn,
        NumColumns
    };

    explicit CollectivesModel(QObject* parent = nullptr);

protected:
    int rows() const override;
    QVariant display(int row, int column) const override;
    QVariant sortValue(int row, int column) const override;
};

} // namespace fusiondiff::ui
