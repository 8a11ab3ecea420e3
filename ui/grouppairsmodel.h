#pragma once

#include "reporttablemodel.h"

namespace fusiondiff::ui {

// FusionReport::groupPairs: the matched correlation group pairs, with sizes and composition.
class GroupPairsModel : public ReportTableModel
{
    Q_OBJECT
public:
    enum Columns
    {
        PairColumn,
        CorrelationAColumn,
        CorrelationBColumn,
        SizeAColumn,
        SizeBColumn,
        SharedTypesColumn,
        ScoreColumn,
        TimeAColumn,
        TimeBColumn,
        CompositionAColumn,
        CompositionBColumn,
        NumColumns
    };

    explicit GroupPairsModel(QObject* parent = nullptr);

protected:
    int rows() const override;
    QVariant display(int row, int column) const override;
    QVariant sortValue(int row, int column) const override;
};

} // namespace fusiondiff::ui
