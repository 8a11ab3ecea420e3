#pragma once

#include <QJsonObject>

class QWidget;

namespace fusiondiff::ui {

class TimelineView;

// What a saved session keeps of a drill-down besides its table (TablePage::saveState): the time
// its lanes show and where the user placed its dividers.

// {"start_us", "end_us"} of the view; a view that shows everything is restored fitted, at any width.
QJsonObject lanesState(const TimelineView* view);
// Applies it once the view has a width (at once if it is on screen, else when it is first shown
// and laid out: a hidden view's width is not the one it will have).
void restoreLanesState(TimelineView* view, const QJsonObject& state);

// The sizes of the named splitters inside `page` whose dividers the user placed
// (kUserSizedProperty), by their object names: {"operations_splitter": [420, 280], ...}.
QJsonObject splittersState(const QWidget* page);
// Gives those splitters the sizes and marks them placed by the user, so that the page's own
// sizing leaves them alone; names not in `page` are ignored.
void restoreSplittersState(QWidget* page, const QJsonObject& state);

} // namespace fusiondiff::ui
