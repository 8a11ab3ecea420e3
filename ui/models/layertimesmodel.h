#pragma once

#include "models/reportcolumnsmodel.h"

namespace fusiondiff::ui {

// The layer_times table (ReportColumnsModel), with each row's A and B times written to as many
// decimals as their difference needs (formatDurationsApart): layers a step differ by tens of
// microseconds in times of milliseconds, and "1.2 ms" against "1.3 ms" hid how much.
class LayerTimesModel : public ReportColumnsModel
{
    Q_OBJECT
public:
    explicit LayerTimesModel(QObject* parent = nullptr);

protected:
    QVariant display(int row, int column) const override;
};

} // namespace fusiondiff::ui
