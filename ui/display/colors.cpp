#include "display/colors.h"

#include <QGuiApplication>
#include <QPalette>

#include <algorithm>
#include <array>
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

struct Lab
{
    double l, a, b;
};

Lab toLab(const QColor& color)
{
    const QColor rgb = color.toRgb();
    const double r = linearChannel(rgb.redF());
    const double g = linearChannel(rgb.greenF());
    const double b = linearChannel(rgb.blueF());
    const double x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
    const double y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
    const double z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
    const auto f = [](double t) { return t > 216.0 / 24389.0 ? std::cbrt(t) : (24389.0 / 27.0 * t + 16.0) / 116.0; };
    return { 116.0 * f(y) - 16.0, 500.0 * (f(x) - f(y)), 200.0 * (f(y) - f(z)) };
}

double degrees(double radians)
{
    return radians * 180.0 / M_PI;
}

double radians(double degrees)
{
    return degrees * M_PI / 180.0;
}

// Chosen by a greedy max-min search over the sRGB cube for the largest smallest CIEDE2000
// difference (colorDifference) among them, within a lightness band that keeps the kernel names
// drawn on them readable; the first ones, the default classifier's common types, differ most.
// Entries 9 and 18 are swapped from the search's order: the default classifier's Communication
// (9) was a lighter cyan than its Attention (2), which differ by lightness alone.
constexpr std::array<QRgb, kKernelTypeColorCount> kLightTypeColors { 0x96FF00, 0xFF3CF0, 0x1EB4D2, 0xF0E100, 0xFFD2D2,
    0x00B496, 0xD28700, 0x9696B4, 0xFF7896, 0xA5A54B, 0xA59687, 0xC3D2C3, 0x00B41E, 0x4BFFB4, 0xFFB4FF, 0xFFD296,
    0xD2E1FF, 0x4B96FF, 0x00FFFF, 0xFF693C };
constexpr std::array<QRgb, kKernelTypeColorCount> kDarkTypeColors { 0x1E96B4, 0xF05A87, 0xC3871E, 0x00782D, 0x8700FF,
    0x964B00, 0xA587B4, 0xFF5A00, 0xFF00FF, 0x1E6969, 0x005AC3, 0xB40F78, 0x786900, 0xB48778, 0xC30F2D, 0x69A500,
    0x6987FF, 0x3CA587, 0x878778, 0x695A78 };

// `color` made lighter (on a dark background) or darker until it reaches `ratio` against `background`.
QColor withContrast(QColor color, const QColor& background, double ratio)
{
    const bool lighten = relativeLuminance(background) < 0.18;
    const QColor towards = lighten ? QColor(Qt::white) : QColor(Qt::black);
    for (int step = 1; step <= 20 && contrastRatio(color, background) < ratio; ++step)
        color = blend(color, towards, 0.1);
    return color;
}

} // namespace

double colorDifference(const QColor& first, const QColor& second, double lightnessWeight)
{
    // Sharma, Wu and Dalal, "The CIEDE2000 color-difference formula" (2005), equations 1-22.
    const Lab p = toLab(first);
    const Lab q = toLab(second);
    const double meanChroma = (std::hypot(p.a, p.b) + std::hypot(q.a, q.b)) / 2;
    const double c7 = std::pow(meanChroma, 7);
    const double g = 0.5 * (1 - std::sqrt(c7 / (c7 + std::pow(25.0, 7))));
    const double a1 = (1 + g) * p.a;
    const double a2 = (1 + g) * q.a;
    const double c1 = std::hypot(a1, p.b);
    const double c2 = std::hypot(a2, q.b);
    const auto hue = [](double b, double a) {
        return a == 0 && b == 0 ? 0.0 : std::fmod(degrees(std::atan2(b, a)) + 360.0, 360.0);
    };
    const double h1 = hue(p.b, a1);
    const double h2 = hue(q.b, a2);
    const double deltaL = q.l - p.l;
    const double deltaC = c2 - c1;
    double deltaHue = 0;
    if (c1 * c2 != 0) {
        deltaHue = h2 - h1;
        if (deltaHue > 180)
            deltaHue -= 360;
        else if (deltaHue < -180)
            deltaHue += 360;
    }
    const double deltaH = 2 * std::sqrt(c1 * c2) * std::sin(radians(deltaHue / 2));
    const double meanL = (p.l + q.l) / 2;
    const double meanC = (c1 + c2) / 2;
    double meanHue = h1 + h2;
    if (c1 * c2 != 0) {
        if (std::abs(h1 - h2) <= 180)
            meanHue = (h1 + h2) / 2;
        else
            meanHue = h1 + h2 < 360 ? (h1 + h2 + 360) / 2 : (h1 + h2 - 360) / 2;
    }
    const double t = 1 - 0.17 * std::cos(radians(meanHue - 30)) + 0.24 * std::cos(radians(2 * meanHue))
        + 0.32 * std::cos(radians(3 * meanHue + 6)) - 0.20 * std::cos(radians(4 * meanHue - 63));
    const double deltaTheta = 30 * std::exp(-std::pow((meanHue - 275) / 25, 2));
    const double meanC7 = std::pow(meanC, 7);
    const double rc = 2 * std::sqrt(meanC7 / (meanC7 + std::pow(25.0, 7)));
    const double sl = 1 + 0.015 * std::pow(meanL - 50, 2) / std::sqrt(20 + std::pow(meanL - 50, 2));
    const double sc = 1 + 0.045 * meanC;
    const double sh = 1 + 0.015 * meanC * t;
    const double rt = -std::sin(radians(2 * deltaTheta)) * rc;
    return std::sqrt(std::pow(deltaL / (lightnessWeight * sl), 2) + std::pow(deltaC / sc, 2) + std::pow(deltaH / sh, 2)
        + rt * (deltaC / sc) * (deltaH / sh));
}

QColor kernelTypeColor(int type, bool dark)
{
    const auto& colors = dark ? kDarkTypeColors : kLightTypeColors;
    const auto index = static_cast<size_t>(std::max(type, 0) % kKernelTypeColorCount);
    return QColor::fromRgb(colors[index]);
}

QPalette withReadableLinks(QPalette palette)
{
    for (const QPalette::ColorGroup group : { QPalette::Active, QPalette::Inactive }) {
        for (const QPalette::ColorRole role : { QPalette::Link, QPalette::LinkVisited }) {
            // Readable on both the base (text views) and the window (labels) colour.
            QColor color = palette.color(group, role);
            for (const QPalette::ColorRole background : { QPalette::Base, QPalette::Window })
                color = withContrast(color, palette.color(group, background), 4.5);
            palette.setColor(group, role, color);
        }
    }
    return palette;
}

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
        .arg(background.name(), chipTextColor(background).name(), text.toHtmlEscaped());
}

QColor chipTextColor(const QColor& background)
{
    // The palette's text where it reads (WCAG 4.5:1), else white or black, whichever reads better:
    // a side's dark colour under the light theme's black text, a light one under the dark theme's.
    const QColor palette = ui::text();
    if (contrastRatio(background, palette) >= 4.5)
        return palette;
    const QColor white(Qt::white);
    const QColor black(Qt::black);
    return contrastRatio(background, white) >= contrastRatio(background, black) ? white : black;
}

} // namespace fusiondiff::ui
