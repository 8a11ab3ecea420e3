#pragma once

#include "model/timegap.h"
#include "pages/resultspage.h"

#include <QList>
#include <QWidget>

#include <memory>

class QComboBox;

namespace fusiondiff {
struct FusionReport;
}

namespace fusiondiff::ui {

class DeferredTextBrowser;
class GapWaterfall;
class WrapLabel;
class TablePage;
class TraceSummaryModel;

// Both traces side by side (with how their operations line up and how they repeat), and the
// findings in plain words as the CLI's summary says them: where to look first (numbered), the
// core's report notes, the top opportunities and mappings of the reference analysis.
class SummaryPage : public QWidget, public ResultsPage
{
    Q_OBJECT
public:
    explicit SummaryPage(QWidget* parent = nullptr);

    // The findings text follows a turn later (DeferredTextBrowser), after the paint of the table.
    void setResults(const AnalysisResults& results) override;
    QString csvName() const override;
    // The waterfall's basis ("basis": "step_time" or "gpu_kernel_time").
    QJsonObject saveState() const override;
    void restoreState(const QJsonObject& state) override;
    TablePage* table() const { return m_table; }
    // The findings as plain text (those still waiting for their turn shown first).
    QString findingsText();
    GapWaterfall* waterfall() const { return m_waterfall; }
    // The waterfall's basis when the report is on the step time: the step time (with the GPU's
    // idle by cause), or its GPU kernel time one click away. Kept in the settings.
    QComboBox* basisChoice() const { return m_basis; }
    QString verdictText() const;
    // Each compared phase's step time, A against B, under the verdict; empty with one phase.
    QString phasesText() const;
    // What a click on a waterfall part without a page of its own (the unattributed kernels) shows
    // under the waterfall: that part's own times, kernels and largest contributors; empty when
    // hidden.
    QString partDetailsText() const;

signals:
    void exportCsvRequested(const QString& csvName);
    // A click on a part of the waterfall that is one kernel type: its row in globalCounts.
    void kernelTypeRequested(int row);
    // A click on a part of the time gap's waterfall: the findings behind that cause.
    void gapCauseRequested(fusiondiff::GapCause cause);
    // A click on an entry of Where to look first: its row in opFindings, opSummary or opportunities.
    void findingRequested(int row);
    void operationRequested(int row);
    void opportunityRequested(int row);
    // A click on a host, sync, launch or collective entry of Where to look first: its index in
    // whereToLookFirst (its idle gaps, or the collective's kernels, are on the Timeline).
    void idleGapsRequested(int entry);
    // A click on the link of the "By layer" note.
    void layersRequested();

private:
    void showPartDetails(GapCause cause);

    TraceSummaryModel* m_model;
    TablePage* m_table;
    DeferredTextBrowser* m_findings;
    WrapLabel* m_verdict;
    GapWaterfall* m_waterfall;
    QComboBox* m_basis;
    WrapLabel* m_partDetails;
    WrapLabel* m_phases;
    std::shared_ptr<const FusionReport> m_report;
    bool m_onSteps = false; // the waterfall shows the step-time breakdown
    void showGap();
    QList<int> m_partTypeRows; // per waterfall part by kernel type, its kernel type's row; -1 none
    std::vector<GapCause> m_partCauses; // per waterfall part by cause, its cause
};

} // namespace fusiondiff::ui
