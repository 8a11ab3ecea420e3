#pragma once

#include <QList>
#include <QSortFilterProxyModel>
#include <QString>

namespace fusiondiff {
struct OpFinding;
}

namespace fusiondiff::ui {

// A layer of one compared phase, as a LayerTimes row names it: layer 3 of a forward phase is not
// layer 3 of a backward or an eval phase.
struct PhaseLayer
{
    QString phase; // LayerTimes::phase
    int layer = -1; // an index in the step
    bool operator==(const PhaseLayer&) const = default;
};

// Whether the finding has calls in `layer` of `phase` (OpFinding::phaseLayers).
bool findingIsInLayer(const OpFinding& finding, const PhaseLayer& layer);

// The operation findings (a ReportColumnsModel of ReportTableId::OpFindings) with calls in some
// layers: the rows whose OpFinding::phaseLayers hold one of the layers. No layers: no rows.
class LayerFindingsProxy : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit LayerFindingsProxy(QObject* parent = nullptr);

    void setLayers(const QList<PhaseLayer>& layers);
    QList<PhaseLayer> layers() const { return m_layers; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    QList<PhaseLayer> m_layers;
};

} // namespace fusiondiff::ui
