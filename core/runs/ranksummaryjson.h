#pragma once

#include "model/jobreport.h"

#include <string>
#include <string_view>

namespace fusiondiff {

// A rank summary as JSON and back, exactly (numbers in their shortest exact form): what the map
// step of a job comparison sends from another process or machine (the Python module's
// compare_runs with an executor). A text that is not such a summary is an InputError naming
// `origin`.
std::string rankSummaryToJson(const RankSummary& summary);
RankSummary rankSummaryFromJson(std::string_view json, const std::string& origin);

} // namespace fusiondiff
