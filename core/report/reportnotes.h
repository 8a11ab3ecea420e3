#pragma once

#include <string>
#include <vector>

namespace fusiondiff {

struct FusionReport;

// Plain-language observations about a report, for the summaries: what the analysis could and
// could not compare, and where the largest differences are. Shared by the text summary, the
// Markdown report and the GUI so that they say the same things.
std::vector<std::string> reportNotes(const FusionReport& report);

// What to look at first, best first: the operations (and graphs) that run a different number of
// kernels, with what each side runs differently and what it costs with its spread; then the
// operations whose time differs most (1.2x or more) although they launch the same kernels. At
// most `limit` entries.
struct LookFirst
{
    std::string headline;
    std::vector<std::string> details;
};
std::vector<LookFirst> whereToLookFirst(const FusionReport& report, size_t limit = 5);

} // namespace fusiondiff
