#include "models/layertimesmodel.h"

#include "display/durationsapart.h"
#include "model/fusionreport.h"

namespace fusiondiff::ui {

LayerTimesModel::LayerTimesModel(QObject* parent)
    : ReportColumnsModel(ReportTableId::LayerTimes, parent)
{ }

QVariant LayerTimesModel::display(int row, int column) const
{
    const FusionReport* shown = report();
    const int side = column == this->column("trace1_time_us") ? 0 : column == this->column("trace2_time_us") ? 1 : -1;
    if (!shown || side < 0 || row < 0 || static_cast<size_t>(row) >= shown->layerTimes.size())
        return ReportColumnsModel::display(row, column);
    const LayerTimes& layer = shown->layerTimes[static_cast<size_t>(row)];
    return formatDurationsApart(layer.timeUs[0], layer.timeUs[1])[static_cast<size_t>(side)];
}

} // namespace fusiondiff::ui
