#include "report/tablecolumns.h"

#include <cmath>
#include <limits>

namespace fusiondiff {

std::string sideNameShown(Side fused, size_t fusedKernels)
{
    return fusedKernels > 0 ? std::string(sideKey(fused)) : "only " + std::string(sideKey(otherSide(fused)));
}

std::string joinTypes(const FusionReport& report, const std::vector<CategoryId>& types, const char* separator)
{
    std::string text;
    for (const CategoryId type : types)
        text += (text.empty() ? "" : separator) + report.typeName(type);
    return text;
}

std::string joinKernelTypes(
    const FusionReport& report, const std::vector<FindingKernel>& kernels, const char* separator)
{
    std::string text;
    for (const FindingKernel& kernel : kernels)
        text += (text.empty() ? "" : separator) + report.typeName(kernel.type);
    return text;
}

CellFunction timeIfAny(std::function<uint64_t(size_t)> count, std::function<double(size_t)> time)
{
    return [count = std::move(count), time = std::move(time)](size_t row) -> CellValue {
        if (count(row) == 0)
            return std::monostate {};
        return time(row);
    };
}

void addDifferenceColumns(ReportTable& table, const std::string& countWord, std::string countToolTip,
    std::string timeToolTip, const std::function<std::array<uint64_t, 2>(size_t)>& count,
    const std::function<std::array<double, 2>(size_t)>& timeUs)
{
    table.columns.push_back({ .key = "count_difference",
        .header = "B \u2212 A " + countWord,
        .toolTip = std::move(countToolTip),
        .unit = Unit::SignedCount,
        .inCsv = false,
        .largestFirst = true,
        .value = [=](size_t row) {
            const std::array<uint64_t, 2> counts = count(row);
            return static_cast<int64_t>(counts[1]) - static_cast<int64_t>(counts[0]);
        } });
    table.columns.push_back({ .key = "time_difference_us",
        .header = "B \u2212 A time",
        .toolTip = std::move(timeToolTip),
        .unit = Unit::SignedMicroseconds,
        .inCsv = false,
        .largestFirst = true,
        .value = [=](size_t row) {
            const std::array<double, 2> times = timeUs(row);
            return times[1] - times[0];
        } });
}

void addSpreadColumns(ReportTable& table, size_t side, const std::function<const Spread&(size_t)>& spread,
    std::string totalHeader, std::string totalToolTip)
{
    const std::string prefix = side == 0 ? "trace1_" : "trace2_";
    table.columns.push_back({ .key = prefix + "median_us", .value = [=](size_t row) { return spread(row).median; } });
    table.columns.push_back({ .key = prefix + "q1_us", .value = [=](size_t row) { return spread(row).q1; } });
    table.columns.push_back({ .key = prefix + "q3_us", .value = [=](size_t row) { return spread(row).q3; } });
    table.columns.push_back({ .key = prefix + "total_us",
        .header = std::move(totalHeader),
        .toolTip = std::move(totalToolTip),
        .unit = Unit::Microseconds,
        .inCsv = true,
        .largestFirst = true,
        .value = [=](size_t row) { return spread(row).total; } });
}

TableColumn spreadColumn(size_t side, const std::function<const Spread&(size_t)>& spread)
{
    return { .key = side == 0 ? "trace1_time_per_call" : "trace2_time_per_call",
        .header = side == 0 ? "A time/call (IQR)" : "B time/call (IQR)",
        .toolTip = side == 0 ? "A's GPU time per call: median (first to third quartile)"
                             : "B's GPU time per call: median (first to third quartile)",
        .unit = Unit::Spread,
        .inCsv = false,
        .largestFirst = true,
        .value = [=](size_t row) { return spread(row); } };
}

double timeRatio(const OpSummary& summary)
{
    const double a = summary.timeUs[0].total;
    const double b = summary.timeUs[1].total;
    if (b > 0)
        return a / b;
    return a > 0 ? std::numeric_limits<double>::infinity() : std::numeric_limits<double>::quiet_NaN();
}

} // namespace fusiondiff
