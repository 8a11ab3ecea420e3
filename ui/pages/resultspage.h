#pragma once

#include <QJsonObject>
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

    // What the user made of the page (filters, sorting, selected rows by their names, a basis):
    // what a saved session keeps (shell/sessionfile.h). restoreState() is given results first and
    // leaves alone what `state` does not name; a page with nothing of its own keeps neither.
    virtual QJsonObject saveState() const { return {}; }
    virtual void restoreState(const QJsonObject& state) { Q_UNUSED(state); }
};

} // namespace fusiondiff::ui
