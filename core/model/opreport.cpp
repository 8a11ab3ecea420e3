#include "model/opreport.h"

#include <algorithm>

namespace fusiondiff {

const char* opLevelKey(OpLevel level)
{
    switch (level) {
    case OpLevel::Operator:
        return "operator";
    case OpLevel::Module:
        return "module";
    case OpLevel::LaunchingOperator:
        return "launching_operator";
    case OpLevel::Auto:
        return "auto";
    }
    return "";
}

Spread spreadOf(std::vector<double> values)
{
    Spread spread;
    spread.count = values.size();
    if (values.empty())
        return spread;
    std::sort(values.begin(), values.end());
    for (const double value : values)
        spread.total += value;
    // Quantiles by linear interpolation between the closest ranks (numpy's default).
    auto quantile = [&](double q) {
        const double position = q * double(values.size() - 1);
        const auto below = size_t(position);
        const size_t above = std::min(below + 1, values.size() - 1);
        return values[below] + (values[above] - values[below]) * (position - double(below));
    };
    spread.median = quantile(0.5);
    spread.q1 = quantile(0.25);
    spread.q3 = quantile(0.75);
    return spread;
}

} // namespace fusiondiff
