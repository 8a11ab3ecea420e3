#pragma once

#include <QString>

#include <vector>

class QFont;
class QPainter;
class QPalette;
class QRect;

namespace fusiondiff::ui {

// The row labels the heatmap and the bars share: "rank 3", the side's straggler marked ◀ in the
// error colour, the rank of the detailed pair bold.
QString rankRowLabel(int rank, bool straggler);
// The widest label's width in bold (the selected one is), at least `atLeast`, with its margin.
int rankLabelsWidth(const QFont& font, const std::vector<int>& ranks, int straggler, int atLeast = 0);
void drawRankLabel(
    QPainter& painter, const QRect& rect, const QPalette& palette, int rank, bool straggler, bool selected);

} // namespace fusiondiff::ui
