#pragma once

#include <QColor>
#include <QString>

namespace fusiondiff::ui {

// The two sides keep one colour each everywhere (drop zones, bars, highlighted rows): A orange,
// B blue, a pair that stays distinct for the common colour-vision deficiencies.
QColor sideColor(int side);
QColor sideSelectedColor(int side); // bars of the selected rows
QColor sideBackground(int side); // light: table cells only one side has
QColor differenceBackground(); // both sides present, of different types
QColor gapBackground(); // the side that has nothing on this row
// Rich text: `text` (escaped) on a `background` patch, as a legend of highlighted rows.
QString colorChip(const QColor& background, const QString& text);

} // namespace fusiondiff::ui
