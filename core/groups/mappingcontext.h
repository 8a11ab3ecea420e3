#pragma once

#include "classify/classifier.h"
#include "model/analysisoptions.h"
#include "model/fusionreport.h"

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <vector>

namespace fusiondiff {

// What every fusion-mapping finder needs besides the kernel types: thresholds, names for the
// evidence texts, and the fallback type that is never proposed as a fusion target.
struct MappingContext
{
    const AnalysisOptions& options;
    const std::vector<std::string>& typeNames;
    CategoryId fallback;
    std::array<std::string, 2> sideNames;

    size_t typeCount() const { return typeNames.size(); }
    const std::string& type(CategoryId id) const { return typeNames[id]; }
    const std::string& side(Side s) const { return sideNames[sideIndex(s)]; }
};

// A kernel type both sides run, in clearly different numbers: the seed's rule for its
// count-imbalance mappings and for partial fusion (ratio at least imbalance_min_ratio, together at
// least imbalance_min_total kernels).
struct CountImbalance
{
    double ratio = 0; // larger count / smaller count
    Side unfused = Side::Trace1; // the side with more
    uint64_t unfusedCount = 0;
    uint64_t fusedCount = 0;
};

inline std::optional<CountImbalance> countImbalance(uint64_t count1, uint64_t count2, const AnalysisOptions& options)
{
    if (count1 == 0 || count2 == 0)
        return std::nullopt;
    const uint64_t more = std::max(count1, count2);
    const uint64_t fewer = std::min(count1, count2);
    const double ratio = static_cast<double>(more) / static_cast<double>(fewer);
    if (ratio < options.imbalanceMinRatio || static_cast<int64_t>(count1 + count2) < options.imbalanceMinTotal)
        return std::nullopt;
    return CountImbalance { ratio, count1 > count2 ? Side::Trace1 : Side::Trace2, more, fewer };
}

} // namespace fusiondiff
