#pragma once

#include <QString>

#include <cstdint>
#include <string>

namespace fusiondiff {
struct FusionReport;
struct LargeGroup;
struct Spread;
} // namespace fusiondiff

namespace fusiondiff::ui {

// Text for the tables, in the CLI's conventions: counts with thousands separators, durations in
// the unit that fits (core formatDuration), infinite ratios as the infinity sign.
QString toQString(const std::string& text);
QString formatCount(uint64_t value);
// A count with its noun in the number that fits: "1 kernel", "2 kernels", "0 kernels".
QString formatCountOf(uint64_t value, const QString& one, const QString& many);
QString formatInteger(int64_t value);
// A difference with its sign: "+12", "-3", "0"; "+1.2 ms", "-350 us", "0 us".
QString formatSignedCount(int64_t value);
QString formatSignedDuration(double microseconds);
QString formatDuration(double microseconds);
// A time given in milliseconds, in formatDuration's units ("7.8 ms", "950 us").
QString formatMilliseconds(double milliseconds);
QString formatFixed(double value, int decimals);
QString formatRatio(double ratio, int decimals = 2);
QString formatBytes(uint64_t bytes);
// "GEMM 72, Attention 36, Norm 49": the group's kernels per type, in category order.
QString compositionText(const FusionReport& report, const LargeGroup& group);
// "169 us (166–174 us)": a median per call with its interquartile range.
QString formatSpread(const Spread& spread);
// "relu, bias": the classifier's fusion tags set in `tags`; empty for none.
QString tagsText(const FusionReport& report, uint64_t tags);

} // namespace fusiondiff::ui
