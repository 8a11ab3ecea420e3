#pragma once

#include "reporttablemodel.h"

namespace fusiondiff::ui {

// FusionReport::mappings: the evidence text first, then every field.
class MappingsModel : public ReportTableModel
{
    Q_OBJECT
public:
    enum Columns
    {
        EvidenceColumn,
        KindColumn,
        ConfidenceColumn,
        FusedSideColumn,
        FusedTypeColumn,
        FusedCountColumn,
        UnfusedSideColumn,
        UnfusedSequenceColumn,
        UnfusedCountsColumn,
        PatternCountColumn,
        GroupAColumn,
        GroupBColumn,
        NumColumns
    };

    explicit MappingsModel(QObject* parent = nullptr);

protected:
    int rows() const override;
    QVariant display(int row, int column) const override;
    QVariant sortValue(int row, int column) const override;
    QVariant kernelType(int row) const override;
};

} // namespace fusiondiff::ui
