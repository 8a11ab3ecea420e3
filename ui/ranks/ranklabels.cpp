#include "ranks/ranklabels.h"

#include "display/colors.h"

#include <QCoreApplication>
#include <QFontMetrics>
#include <QPainter>
#include <QPalette>

#include <algorithm>

namespace fusiondiff::ui {

QString rankRowLabel(int rank, bool straggler)
{
    const QString label = QCoreApplication::translate("fusiondiff::ui::RanksPage", "rank %1").arg(rank);
    return straggler ? label + QStringLiteral(" \u25C0") : label;
}

int rankLabelsWidth(const QFont& font, const std::vector<int>& ranks, int straggler, int atLeast)
{
    QFont bold = font;
    bold.setBold(true);
    const QFontMetrics metrics(bold);
    int width = atLeast;
    for (size_t row = 0; row < ranks.size(); ++row)
        width = std::max(width, metrics.horizontalAdvance(rankRowLabel(ranks[row], int(row) == straggler)));
    return width + 8;
}

void drawRankLabel(
    QPainter& painter, const QRect& rect, const QPalette& palette, int rank, bool straggler, bool selected)
{
    painter.save();
    QFont font = painter.font();
    font.setBold(selected);
    painter.setFont(font);
    painter.setPen(straggler ? errorTextColor() : palette.color(QPalette::WindowText));
    painter.drawText(rect.adjusted(0, 0, -6, 0), Qt::AlignRight | Qt::AlignVCenter, rankRowLabel(rank, straggler));
    painter.restore();
}

} // namespace fusiondiff::ui
