#pragma once

#include <string>
#include <vector>

namespace fusiondiff {

struct FusionReport;

// Plain-language observations about a report, for the summaries: what the analysis could and
// could not compare, and where the largest differences are. Shared by the text summary, the
// Markdown report and the GUI so that they say the same things.
std::vector<std::string> reportNotes(const FusionReport& report);

// What to look at first: FusionReport::whereToLookFirst (ranked by the time at stake across
// fusion, speed, collectives and one-side work), as headlines with their details. At most
// `limit` entries.
struct LookFirst
{
    std::string headline;
    std::vector<std::string> details;
};
std::vector<LookFirst> whereToLookFirst(const FusionReport& report, size_t limit = 5);

} // namespace fusiondiff
