#include "model/analysisoptions.h"

#include <charconv>
#include <cmath>

namespace fusiondiff {

namespace {

using O = AnalysisOptions;

constexpr AnalysisParameter integerParameter(std::string_view name, std::string_view description, int64_t O::*member)
{
    return { name, description, true, nullptr, member };
}

constexpr AnalysisParameter realParameter(std::string_view name, std::string_view description, double O::*member)
{
    return { name, description, false, member, nullptr };
}

const AnalysisParameter kParameters[] = {
    integerParameter("min_group_size", "smallest correlation group (kernels) that is compared", &O::minGroupSize),
    realParameter("size_tolerance", "largest relative size difference of matched groups", &O::sizeTolerance),
    integerParameter("pattern_min_occurrences", "occurrences a trace-only type needs for a sequence pattern",
        &O::patternMinOccurrences),
    realParameter(
        "pattern_min_share", "share of occurrences that must follow the same type (exceeded)", &O::patternMinShare),
    realParameter(
        "imbalance_min_ratio", "count ratio of a shared type that counts as an imbalance", &O::imbalanceMinRatio),
    integerParameter(
        "imbalance_min_total", "kernels of a shared type needed to report an imbalance", &O::imbalanceMinTotal),
    integerParameter("partial_min_groups", "matched groups that must show a partial fusion", &O::partialMinGroups),
    integerParameter("chain_min_runs", "runs of a type one trace needs for chain analysis", &O::chainMinRuns),
    realParameter("chain_min_ratio", "ratio of average chain lengths that counts (exceeded)", &O::chainMinRatio),
    integerParameter("chain_min_difference", "difference in total kernels needed for a chain finding (exceeded)",
        &O::chainMinDifference),
    realParameter("strong_ratio", "per-group count ratio that is significant on its own (exceeded)", &O::strongRatio),
    realParameter(
        "significant_ratio", "per-group count ratio significant with enough kernels (exceeded)", &O::significantRatio),
    integerParameter(
        "significant_min_total", "kernels needed with significant_ratio (exceeded)", &O::significantMinTotal),
    integerParameter(
        "global_min_total", "kernels of a type needed for a global-count opportunity (exceeded)", &O::globalMinTotal),
    realParameter("global_ratio", "global count ratio that is an opportunity (exceeded)", &O::globalRatio),
    realParameter("fused_by_ratio", "per-group ratio above which trace 2 is the side that fuses", &O::fusedByRatio),
};

} // namespace

bool parseOpLevel(std::string_view text, OpLevel& level)
{
    for (const OpLevel candidate : { OpLevel::Auto, OpLevel::Operator, OpLevel::Module, OpLevel::LaunchingOperator }) {
        if (text == opLevelKey(candidate)) {
            level = candidate;
            return true;
        }
    }
    if (text == "launch") {
        level = OpLevel::LaunchingOperator;
        return true;
    }
    return false;
}

std::span<const AnalysisParameter> analysisParameters()
{
    return kParameters;
}

double parameterValue(const AnalysisOptions& options, const AnalysisParameter& parameter)
{
    return parameter.isInteger ? static_cast<double>(options.*parameter.integer) : options.*parameter.real;
}

std::string setAnalysisParameter(AnalysisOptions& options, std::string_view name, std::string_view value)
{
    for (const AnalysisParameter& parameter : kParameters) {
        if (parameter.name != name)
            continue;
        const char* end = value.data() + value.size();
        if (parameter.isInteger) {
            int64_t number = 0;
            const auto [stop, status] = std::from_chars(value.data(), end, number);
            if (status != std::errc() || stop != end || number < 0)
                return "parameter " + std::string(name) + " needs a whole number >= 0, not '" + std::string(value)
                    + "'";
            options.*parameter.integer = number;
        } else {
            double number = 0;
            const auto [stop, status] = std::from_chars(value.data(), end, number);
            if (status != std::errc() || stop != end || !std::isfinite(number) || number < 0)
                return "parameter " + std::string(name) + " needs a number >= 0, not '" + std::string(value) + "'";
            options.*parameter.real = number;
        }
        return {};
    }
    std::string known;
    for (const AnalysisParameter& parameter : kParameters)
        known += (known.empty() ? "" : ", ") + std::string(parameter.name);
    return "unknown parameter '" + std::string(name) + "' (known: " + known + ")";
}

} // namespace fusiondiff
