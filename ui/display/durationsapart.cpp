#include "display/durationsapart.h"

#include "display/formatting.h"
#include "util/textformat.h"

#include <algorithm>
#include <cmath>

namespace fusiondiff::ui {

std::array<QString, 2> formatDurationsApart(double aUs, double bUs)
{
    const double larger = std::max(std::fabs(aUs), std::fabs(bUs));
    const double difference = std::fabs(aUs - bUs);
    // formatDuration's unit and decimals for the larger one.
    double unit = 1;
    QString suffix = QStringLiteral(" us");
    int decimals = larger >= 100 ? 0 : 1;
    if (larger >= 1e6) {
        unit = 1e6;
        suffix = QStringLiteral(" s");
        decimals = 2;
    } else if (larger >= 1e3) {
        unit = 1e3;
        suffix = QStringLiteral(" ms");
        decimals = larger >= 1e5 ? 0 : 1;
    }
    if (difference <= 0 || unit == 1)
        return { formatDuration(aUs), formatDuration(bUs) };
    // The decimals that give the difference two significant digits, down to 1 us.
    const int needed = 1 - static_cast<int>(std::floor(std::log10(difference / unit)));
    const int most = static_cast<int>(std::lround(std::log10(unit)));
    const int shown = std::clamp(needed, decimals, most);
    if (shown == decimals)
        return { formatDuration(aUs), formatDuration(bUs) };
    return { QString::fromStdString(fixed(aUs / unit, shown)) + suffix,
        QString::fromStdString(fixed(bUs / unit, shown)) + suffix };
}

} // namespace fusiondiff::ui
