#pragma once

#include <QWidget>

#include <memory>

namespace fusiondiff {
struct FusionReport;
}

namespace fusiondiff::ui {

class DeferredTextBrowser;
class TablePage;
class TraceSummaryModel;

// Both traces side by side (with how their operations line up and how they repeat), and the
// findings in plain words as the CLI's summary says them: where to look first (numbered), the
// core's report notes, the top opportunities and mappings of the reference analysis.
class SummaryPage : public QWidget
{
    Q_OBJECT
public:
    explicit SummaryPage(QWidget* parent = nullptr);

    // The findings text follows a turn later (DeferredTextBrowser), after the paint of the table.
    void setReport(std::shared_ptr<const FusionReport> report, double analysisSeconds);
    TablePage* table() const { return m_table; }
    // The findings as plain text (those still waiting for their turn shown first).
    QString findingsText();

signals:
    void exportCsvRequested(const QString& csvName);

private:
    TraceSummaryModel* m_model;
    TablePage* m_table;
    DeferredTextBrowser* m_findings;
};

} // namespace fusiondiff::ui
