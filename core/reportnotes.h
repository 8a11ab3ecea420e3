#pragma once

#include <string>
#include <vector>

namespace fusiondiff {

struct FusionReport;

// Plain-language observations about a report, for the summaries: what the analysis could and
// could not compare, and where the largest differences are. Shared by the text summary, the
// Markdown report and the GUI so that they say the same things.
std::vector<std::string> reportNotes(const FusionReport& report);

// "853 us", "12.4 ms", "3.21 s"
std::string formatDuration(double microseconds);

} // namespace fusiondiff
