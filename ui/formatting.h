#pragma once

#include <QString>

#include <cstdint>
#include <string>

namespace fusiondiff {
struct FusionReport;
struct LargeGroup;
} // namespace fusiondiff

namespace fusiondiff::ui {

// Text for the tables, in the CLI's conventions: counts with thousands separators, durations in
// the unit that fits (core formatDuration), infinite ratios as the infinity sign.
QString toQString(const std::string& text);
QString formatCount(uint64_t value);
QString formatInteger(int64_t value);
QString formatDuration(double microseconds);
QString formatMilliseconds(double milliseconds, int decimals = 3);
QString formatFixed(double value, int decimals);
QString formatRatio(double ratio, int decimals = 2);
QString formatBytes(uint64_t bytes);
// "GEMM 72, Attention 36, Norm 49": the group's kernels per type, in category order.
QString compositionText(const FusionReport& report, const LargeGroup& group);

} // namespace fusiondiff::ui
