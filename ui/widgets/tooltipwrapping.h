#pragma once

#include <QString>

class QCoreApplication;

namespace fusiondiff::ui {

// The widest a tooltip gets, in average characters of its font, before its text wraps.
constexpr int kToolTipCharacters = 80;

// Makes every tooltip of the application wrap: one event filter on the application watches the
// tooltip label Qt shows (whichever widget, item view or chart asked for it) and, where its text
// would run wider than kToolTipCharacters, shows it as wrapped rich text instead, with break
// opportunities after the separators of long kernel and operation names ("_", ",", ":", "/"),
// and keeps it on its screen. Installing it a second time does nothing.
void installToolTipWrapping(QCoreApplication* application);

// `text` (plain or rich) as the wrapping filter shows it: rich text with a zero-width space after
// each separator outside the markup.
QString wrappableToolTipText(const QString& text);

} // namespace fusiondiff::ui
