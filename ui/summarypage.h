#pragma once

#include <QWidget>

#include <memory>

class QTextBrowser;

namespace fusiondiff {
struct FusionReport;
}

namespace fusiondiff::ui {

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

    void setReport(std::shared_ptr<const FusionReport> report, double analysisSeconds);
    TablePage* table() const { return m_table; }
    QString findingsText() const;

signals:
    void exportCsvRequested(const QString& csvName);

private:
    TraceSummaryModel* m_model;
    TablePage* m_table;
    QTextBrowser* m_findings;
};

} // namespace fusiondiff::ui
