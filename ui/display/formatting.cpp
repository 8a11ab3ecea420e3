#include "display/formatting.h"

#include "model/fusionreport.h"
#include "report/reporttables.h"
#include "util/textformat.h"

#include <QChar>
#include <QStringList>

#include <cmath>

namespace fusiondiff::ui {

QString toQString(const std::string& text)
{
    return QString::fromStdString(text);
}

QString formatCount(uint64_t value)
{
    return toQString(withThousands(static_cast<int64_t>(value)));
}

QString formatInteger(int64_t value)
{
    return toQString(withThousands(value));
}

QString formatSignedCount(int64_t value)
{
    return value > 0 ? QStringLiteral("+") + formatInteger(value) : formatInteger(value);
}

namespace {

// Below what formatDuration shows (0.1 us): the rounding residue of sums that cancel.
bool showsAsZero(double microseconds)
{
    return std::fabs(microseconds) < 0.05;
}

} // namespace

QString formatSignedDuration(double microseconds)
{
    return microseconds > 0 && !showsAsZero(microseconds) ? QStringLiteral("+") + formatDuration(microseconds)
                                                          : formatDuration(microseconds);
}

QString formatDuration(double microseconds)
{
    if (showsAsZero(microseconds))
        return QStringLiteral("0 us"); // not "0.0 us", nor "-0.0 us" for a residue below zero
    return toQString(fusiondiff::formatDuration(microseconds));
}

QString formatMilliseconds(double milliseconds)
{
    return formatDuration(milliseconds * 1000.0);
}

QString formatFixed(double value, int decimals)
{
    if (std::isinf(value))
        return value > 0 ? QString(QChar(0x221E)) : QStringLiteral("-") + QChar(0x221E);
    return toQString(fixed(value, decimals));
}

QString formatRatio(double ratio, int decimals)
{
    if (ratio == 0)
        return QStringLiteral("0"); // a side without any: not "0.00"
    return formatFixed(ratio, decimals);
}

QString formatBytes(uint64_t bytes)
{
    const double value = static_cast<double>(bytes);
    if (value >= 1e9)
        return toQString(fixed(value / 1e9, 2)) + QStringLiteral(" GB");
    if (value >= 1e6)
        return toQString(fixed(value / 1e6, 1)) + QStringLiteral(" MB");
    if (value >= 1e3)
        return toQString(fixed(value / 1e3, 1)) + QStringLiteral(" kB");
    return QString::number(bytes) + QStringLiteral(" B");
}

QString compositionText(const FusionReport& report, const LargeGroup& group)
{
    return toQString(fusiondiff::compositionText(report, group));
}

QString formatSpread(const Spread& spread)
{
    // "169 us (166–174 us)"; the unit is written once where both quartiles share it.
    const QString q1 = formatDuration(spread.q1);
    const QString q3 = formatDuration(spread.q3);
    const qsizetype space1 = q1.lastIndexOf(QLatin1Char(' '));
    const qsizetype space3 = q3.lastIndexOf(QLatin1Char(' '));
    const QString range = space1 > 0 && space3 > 0 && q1.mid(space1) == q3.mid(space3)
        ? q1.left(space1) + QChar(0x2013) + q3
        : q1 + QChar(0x2013) + q3;
    return QStringLiteral("%1 (%2)").arg(formatDuration(spread.median), range);
}

QString formatCountOf(uint64_t value, const QString& one, const QString& many)
{
    return formatCount(value) + QLatin1Char(' ') + (value == 1 ? one : many);
}

QString tagsText(const FusionReport& report, uint64_t tags)
{
    QStringList names;
    for (size_t bit = 0; bit < report.tagNames.size() && bit < 64; ++bit) {
        if (tags & (uint64_t(1) << bit))
            names.append(toQString(report.tagNames[bit]));
    }
    return names.join(QStringLiteral(", "));
}

} // namespace fusiondiff::ui
