#pragma once

#include <QString>

namespace fusiondiff::ui {

// A splitter's property, true once the user has moved its divider (in this session or, restored
// from the settings, in an earlier one): pages then leave its sizes alone, and the window saves them.
inline constexpr char kUserSizedProperty[] = "fusiondiff_userSized";

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
