#pragma once

#include <QString>

#include <array>

namespace fusiondiff::ui {

// Two durations in one unit with as many decimals as their difference needs to show with two
// significant digits (at most microseconds' resolution): a layer of 1,234 us against 1,300 us reads
// "1.234 ms" and "1.300 ms", where formatDuration's "1.2 ms" and "1.3 ms" hid a 66 us difference.
// Durations that formatDuration already tells apart by their difference are written as it writes them.
std::array<QString, 2> formatDurationsApart(double aUs, double bUs);

} // namespace fusiondiff::ui
