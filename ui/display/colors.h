#pragma once

#include <QColor>
#include <QString>

class QPalette;

namespace fusiondiff::ui {

// The two sides keep one colour each everywhere (drop zones, bars, highlighted rows): A orange,
// B blue, a pair that stays distinct for the common colour-vision deficiencies. The backgrounds
// are those colours blended into the application palette's base colour, so that the palette's
// text stays readable on them in light and dark themes alike.
QColor sideColor(int side);
QColor sideSelectedColor(int side); // bars of the selected rows; white text on it
QColor sideBackground(int side); // table cells only one side has
QColor differenceBackground(); // both sides present, of different types
QColor gapBackground(); // the side that has nothing on this row
QColor secondaryTextColor(); // notes in grey
QColor errorTextColor(); // inline errors
// Whether the application palette is a dark one (light text on a dark base).
bool isDarkPalette(const QPalette& palette);
bool isDarkPalette();
// A dark palette for the Fusion style (`fusiondiff --dark`, and the tests of the dark theme).
QPalette darkPalette();
// `a` and `b` mixed: `amount` of `b`.
QColor blend(const QColor& a, const QColor& b, qreal amount);
// The WCAG 2 contrast ratio of two colours, 1 to 21 (4.5 is the minimum for body text).
double contrastRatio(const QColor& a, const QColor& b);
// The CIEDE2000 colour difference of two colours (sRGB, D65): about 2 is just noticeable, above 10
// two colours read as different ones at a glance. A `lightnessWeight` (the formula's k_L) of 2
// counts a difference in lightness half: a light and a dark cyan, different by lightness alone,
// are still "both cyan" to a reader matching a chip to a legend.
double colorDifference(const QColor& a, const QColor& b, double lightnessWeight = 1.0);
// How many kernel types have a colour of their own; further types repeat them.
constexpr int kKernelTypeColorCount = 20;
// The colour of kernel type `type` (the classifier's category index) on a light or a dark base.
// Every two of the palette differ by a CIEDE2000 difference of at least 19, each from the base
// by at least 12; the light ones carry black text (7:1), the dark ones white text (3:1).
QColor kernelTypeColor(int type, bool dark);
// `palette` with its link colours made readable on its base and window colours (the WCAG 4.5:1
// for body text): a system theme's link colour can be dark blue on dark grey.
QPalette withReadableLinks(QPalette palette);
// Rich text: `text` (escaped) on a `background` patch, as a legend of highlighted rows, in
// chipTextColor(background).
QString colorChip(const QColor& background, const QString& text);
// The palette's text colour where it reads on `background` (contrast 4.5:1), else white or black.
QColor chipTextColor(const QColor& background);

} // namespace fusiondiff::ui
