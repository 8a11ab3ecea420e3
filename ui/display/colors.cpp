#include "display/colors.h"

#include <QGuiApplication>
#include <QPalette>

#include <cmath>

namespace fusiondiff::ui {

namespace {

QColor base()
{
    return QGuiApplication::palette().color(QPalette::Base);
}

QColor text()
{
    return QGuiApplication::palette().color(QPalette::Text);
}

double linearChannel(double value)
{
    return value <= 0.04045 ? value / 12.92 : std::pow((value + 0.055) / 1.055, 2.4);
}

double relativeLuminance(const QColor& color)
{
    const QColor rgb = color.toRgb();
    return 0.2126 * linearChannel(rgb.redF()) + 0.7152 * linearChannel(rgb.greenF())
        + 0.0722 * linearChannel(rgb.blueF());
}

} // namespace

QColor sideColor(int side)
{
    return side == 0 ? QColor(0xE6, 0x7E, 0x22) : QColor(0x2E, 0x86, 0xC1);
}

QColor sideSelectedColor(int side)
{
    return side == 0 ? QColor(0x8E, 0x3B, 0x00) : QColor(0x0B, 0x3C, 0x5D);
}

bool isDarkPalette(const QPalette& palette)
{
    return relativeLuminance(palette.color(QPalette::Base)) < relativeLuminance(palette.color(QPalette::Text));
}

bool isDarkPalette()
{
    return isDarkPalette(QGuiApplication::palette());
}

QPalette darkPalette()
{
    QPalette palette;
    const QColor window(0x2B, 0x2B, 0x2B);
    const QColor base(0x1E, 0x1E, 0x1E);
    const QColor text(0xE8, 0xE8, 0xE8);
    palette.setColor(QPalette::Window, window);
    palette.setColor(QPalette::WindowText, text);
    palette.setColor(QPalette::Base, base);
    palette.setColor(QPalette::AlternateBase, QColor(0x26, 0x26, 0x26));
    palette.setColor(QPalette::ToolTipBase, QColor(0x3A, 0x3A, 0x3A));
    palette.setColor(QPalette::ToolTipText, text);
    palette.setColor(QPalette::PlaceholderText, QColor(0x9A, 0x9A, 0x9A));
    palette.setColor(QPalette::Text, text);
    palette.setColor(QPalette::Button, QColor(0x35, 0x35, 0x35));
    palette.setColor(QPalette::ButtonText, text);
    palette.setColor(QPalette::BrightText, QColor(0xFF, 0x6B, 0x6B));
    palette.setColor(QPalette::Light, QColor(0x4A, 0x4A, 0x4A));
    palette.setColor(QPalette::Midlight, QColor(0x3E, 0x3E, 0x3E));
    palette.setColor(QPalette::Mid, QColor(0x30, 0x30, 0x30));
    palette.setColor(QPalette::Dark, QColor(0x18, 0x18, 0x18));
    palette.setColor(QPalette::Shadow, Qt::black);
    palette.setColor(QPalette::Highlight, QColor(0x2F, 0x65, 0xCA));
    palette.setColor(QPalette::HighlightedText, Qt::white);
    palette.setColor(QPalette::Link, QColor(0x6C, 0xB4, 0xFF));
    palette.setColor(QPalette::LinkVisited, QColor(0xB3, 0x9D, 0xFF));
    for (const QPalette::ColorRole role : { QPalette::Text, QPalette::WindowText, QPalette::ButtonText })
        palette.setColor(QPalette::Disabled, role, QColor(0x80, 0x80, 0x80));
    return palette;
}

QColor blend(const QColor& a, const QColor& b, qreal amount)
{
    const QColor x = a.toRgb();
    const QColor y = b.toRgb();
    const auto mix = [amount](qreal p, qreal q) { return p + (q - p) * amount; };
    return QColor::fromRgbF(static_cast<float>(mix(x.redF(), y.redF())),
        static_cast<float>(mix(x.greenF(), y.greenF())), static_cast<float>(mix(x.blueF(), y.blueF())));
}

QColor sideBackground(int side)
{
    return blend(base(), sideColor(side), isDarkPalette() ? 0.4 : 0.28);
}

QColor differenceBackground()
{
    return blend(base(), QColor(0xF5, 0xC5, 0x18), 0.3);
}

QColor gapBackground()
{
    return blend(base(), text(), 0.08);
}

QColor secondaryTextColor()
{
    return blend(base(), text(), 0.7);
}

QColor errorTextColor()
{
    return isDarkPalette() ? QColor(0xFF, 0x8A, 0x80) : QColor(0xB0, 0x00, 0x20);
}

double contrastRatio(const QColor& a, const QColor& b)
{
    const double la = relativeLuminance(a);
    const double lb = relativeLuminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

QString colorChip(const QColor& background, const QString& text)
{
    return QStringLiteral("<span style=\"background-color:%1; color:%2\">&nbsp;%3&nbsp;</span>")
        .arg(background.name(), ui::text().name(), text.toHtmlEscaped());
}

} // namespace fusiondiff::ui
