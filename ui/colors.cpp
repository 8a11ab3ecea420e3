#include "colors.h"

namespace fusiondiff::ui {

QColor sideColor(int side)
{
    return side == 0 ? QColor(0xE6, 0x7E, 0x22) : QColor(0x2E, 0x86, 0xC1);
}

QColor sideSelectedColor(int side)
{
    return side == 0 ? QColor(0x8E, 0x3B, 0x00) : QColor(0x0B, 0x3C, 0x5D);
}

QColor sideBackground(int side)
{
    return side == 0 ? QColor(0xFB, 0xDE, 0xC4) : QColor(0xCF, 0xE5, 0xF5);
}

QColor differenceBackground()
{
    return QColor(0xFF, 0xF1, 0xB8);
}

QColor gapBackground()
{
    return QColor(0xEC, 0xEC, 0xEC);
}

QString colorChip(const QColor& background, const QString& text)
{
    return QStringLiteral("<span style=\"background-color:%1\">&nbsp;%2&nbsp;</span>")
        .arg(background.name(), text.toHtmlEscaped());
}

} // namespace fusiondiff::ui
