#pragma once

#include "analysisoptions.h"
#include "classifier.h"
#include "fusionreport.h"

#include <array>
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

} // namespace fusiondiff
