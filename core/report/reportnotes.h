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
    bool againstGap = false; // LookFirstEntry::againstGap: ranked after the entries that explain the gap
};
std::vector<LookFirst> whereToLookFirst(const FusionReport& report, size_t limit = 5);
// The line before the first entry that works against the gap: "Working the other way (B is slower
// in these, A overall):".
std::string againstGapHeading(const FusionReport& report);
// What to say when there is nothing to look at first: nothing compared is not "nothing differs".
std::string nothingStandsOut(const FusionReport& report);

} // namespace fusiondiff
