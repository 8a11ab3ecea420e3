#pragma once

#include "models/layerfindingsproxy.h"
#include "pages/resultspage.h"

#include <QList>
#include <QWidget>

#include <memory>

class QComboBox;
class QLabel;
class QStackedWidget;

namespace fusiondiff {
struct FusionReport;
}

namespace fusiondiff::ui {

class AdaptiveSplitter;
class LayerChart;
class LayerFindingsProxy;
class ReportColumnsModel;
class TablePage;

// The layers the automatic alignment compared (report.layerTimes): what the layers are on each side
// above; the time of each layer index on both sides in a chart (B − A, or A beside B); the table
// of the layers below it and, beside the table, the operation findings with calls in the selected
// layers (activating one opens it on the Operations page). The layer that differs most is selected
// when results arrive. Without layers the page says why there are none.
class LayersPage : public QWidget, public ResultsPage
{
    Q_OBJECT
public:
    explicit LayersPage(QWidget* parent = nullptr);

    void setResults(const AnalysisResults& results) override;
    QString csvName() const override;
    // The layers table's and the findings table's beside it.
    QJsonObject saveState() const override;
    void restoreState(const QJsonObject& state) override;

    bool hasLayers() const;
    QLabel* header() const { return m_header; }
    QLabel* emptyText() const { return m_emptyText; }
    TablePage* layersTable() const { return m_layers; }
    TablePage* findingsTable() const { return m_findings; }
    LayerChart* chart() const { return m_chart; }
    QComboBox* chartMode() const { return m_mode; }
    void setChartMode(int mode); // a LayerChart::Mode; another value leaves the mode as it is
    // Selects the layers at these rows of report.layerTimes.
    void selectLayers(const QList<int>& rows);
    // A layer row by what names it whatever the rows' order: its phase (LayerTimes::phase) and its
    // index in the step. Indices repeat across phases (a prefill step's layer 0 and a decode step's).
    using LayerKey = PhaseLayer;
    // Selects the rows of these layers (those the report has).
    void selectLayerKeys(const QList<LayerKey>& keys);
    QList<LayerKey> selectedLayerKeys() const;
    // Selects the layers the calls of the finding at this row of report.opFindings are in.
    void selectLayersOf(int finding);
    // The rows of report.opFindings listed beside the layers, in the list's order.
    QList<int> listedFindings() const;

signals:
    void exportCsvRequested(const QString& csvName);
    // The finding at this row of report.opFindings was activated (double-click, Enter).
    void findingRequested(int row);

protected:
    void showEvent(QShowEvent* event) override;

private:
    void showLayers(const QList<int>& rows);
    // Side by side, gives the layers table the width its columns need (at most two thirds), the
    // findings the rest, unless the user has placed the divider.
    void fitLayersTable();
    void saveChart();

    std::shared_ptr<const FusionReport> m_report;
    ReportColumnsModel* m_layersModel;
    ReportColumnsModel* m_findingsModel;
    LayerFindingsProxy* m_layerFindings;
    TablePage* m_layers;
    TablePage* m_findings;
    LayerChart* m_chart;
    QComboBox* m_mode;
    QLabel* m_header;
    QLabel* m_emptyText;
    QStackedWidget* m_stack;
    QLabel* m_findingsHint;
    AdaptiveSplitter* m_bottom = nullptr; // the layers beside (or above) their findings
    bool m_fitPending = false; // new layers, the table not yet fitted (the page was hidden)
};

// Why a report has no layer view, in words (rich text): the operation level, the alignment's
// notes. Empty when it has layers.
QString noLayersText(const FusionReport& report);

} // namespace fusiondiff::ui
