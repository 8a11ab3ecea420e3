#include "models/layerfindingsproxy.h"

#include "model/fusionreport.h"
#include "models/reporttablemodel.h"
#include "util/phaseorder.h"

#include <algorithm>

namespace fusiondiff::ui {

bool findingIsInLayer(const OpFinding& finding, const PhaseLayer& layer)
{
    return layer.layer >= 0
        && std::binary_search(finding.phaseLayers.begin(), finding.phaseLayers.end(),
            std::pair(layer.phase.toStdString(), static_cast<uint32_t>(layer.layer)), phaseLayerBefore);
}

LayerFindingsProxy::LayerFindingsProxy(QObject* parent)
    : QSortFilterProxyModel(parent)
{ }

void LayerFindingsProxy::setLayers(const QList<PhaseLayer>& layers)
{
    if (layers == m_layers)
        return;
    m_layers = layers;
    invalidateFilter();
}

bool LayerFindingsProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    const auto* model = qobject_cast<const ReportTableModel*>(sourceModel());
    if (m_layers.isEmpty() || !model || !model->report())
        return false;
    const int row = model->index(sourceRow, 0, sourceParent).data(ReportTableModel::SourceRowRole).toInt();
    const std::vector<OpFinding>& findings = model->report()->opFindings;
    if (row < 0 || static_cast<size_t>(row) >= findings.size())
        return false;
    const OpFinding& finding = findings[static_cast<size_t>(row)];
    return std::any_of(m_layers.begin(), m_layers.end(),
        [&finding](const PhaseLayer& layer) { return findingIsInLayer(finding, layer); });
}

} // namespace fusiondiff::ui
