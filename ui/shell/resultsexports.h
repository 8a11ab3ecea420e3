#pragma once

#include "export/reportexport.h"

#include <QObject>

class QWidget;

namespace fusiondiff::ui {

class ResultsTabs;

// The File menu's exports of the results the tabs show: every CSV table into a folder, one table,
// and the report as HTML or Markdown with the charts as the tabs draw them. Each dialog's outcome
// is reported: a confirmation for the status bar, or the error.
class ResultsExports : public QObject
{
    Q_OBJECT
public:
    // The dialogs open over `dialogParent`.
    ResultsExports(ResultsTabs* tabs, QWidget* dialogParent);

    // Writes every CSV table into `folder`; returns an error text, empty on success.
    QString exportAll(const QString& folder) const;
    // Writes the report as HTML, or as Markdown for a name ending in .md, with the charts.
    QString exportReport(const QString& path) const;
    // The charts that go with the report: the kernel types always, the fusion opportunities and
    // the layers where the report has any.
    QList<ReportChart> reportCharts() const;
    // The name Export Report offers: from the two traces' names (defaultReportFileName).
    QString reportFileName() const;

public slots:
    void exportAllDialog();
    void exportReportDialog();
    void exportCsvDialog(const QString& csvName);

signals:
    void written(const QString& confirmation);
    void failed(const QString& error);

private:
    void report(const QString& error, const QString& confirmation);

    ResultsTabs* m_tabs;
    QWidget* m_dialogParent;
};

} // namespace fusiondiff::ui
