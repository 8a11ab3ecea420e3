#pragma once

#include <QList>
#include <QSortFilterProxyModel>

namespace fusiondiff {
struct OpFinding;
}

namespace fusiondiff::ui {

// Whether the finding has calls in `layer` (an index in the step).
bool findingIsInLayer(const OpFinding& finding, int layer);

// The operation findings (a ReportColumnsModel of ReportTableId::OpFindings) with calls in some
// layers: the rows whose OpFinding::layers hold one of the layers' indices. No layers: no rows.
class LayerFindingsProxy : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit LayerFindingsProxy(QObject* parent = nullptr);

    void setLayers(const QList<int>& layers); // indices in the step
    QList<int> layers() const { return m_layers; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    QList<int> m_layers;
};

} // namespace fusiondiff::ui
