#pragma once

#include <QString>
#include <QStringList>

class QFontMetricsF;

namespace fusiondiff::ui {

// "…", where a shown name leaves characters out.
inline constexpr char16_t kEllipsis = 0x2026;

// Names shown together (a column of kernel names, the search's matches) often share a long start
// and a long end ("Cijk_Alik_Bljk_B_BS_BH_Bias_HA_S_SAV_UserArgs_MT256x128x64_…_NLCA1"): eliding
// each in its middle makes different names look the same. These elide what a name has in common
// with the names beside it and keep what tells it apart.

// Where `name` differs from the nearest of `others`: [start, end) runs from the first character
// not in its longest common start with any other name to the last not in its longest common end
// with any; names equal to `name` are ignored. Without another name: the whole name.
struct DistinguishingPart
{
    qsizetype start = 0;
    qsizetype end = 0;
};
DistinguishingPart distinguishingPart(const QString& name, const QStringList& others);

// `name` as shown in `width` pixels: whole if it fits; else its start, "…", the part that tells it
// apart from `others` (distinguishingPart), "…" and its end, the start and the end as long as the
// width allows. Where even the distinguishing part does not fit, that part elided in its middle.
QString elideDistinguishing(const QString& name, const QStringList& others, const QFontMetricsF& metrics, qreal width);

} // namespace fusiondiff::ui
