#pragma once

#include <QString>

namespace fusiondiff::ui {

struct AnalysisResults;

// A page of the results tabs. MainWindow gives every page each new set of results, and asks the
// current page which CSV table "Export Current Table" writes.
class ResultsPage
{
public:
    virtual ~ResultsPage() = default;

    virtual void setResults(const AnalysisResults& results) = 0;
    // The CSV table of the page's main table ("op_findings").
    virtual QString csvName() const = 0;
};

} // namespace fusiondiff::ui
