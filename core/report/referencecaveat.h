#pragma once

#include <string>

namespace fusiondiff {

struct FusionReport;

// Why the reference analysis (the seed's fusion opportunities and mappings, read from kernel
// counts) can mislead on this pair, in words for "Reference analysis (the seed's; ...)": the
// traces do not run the same work, or a trace records only part of its graph launches (its
// counts miss the kernels it does not hold, and a count ratio then reads as fusion). Empty when
// nothing is known against it. The CLI's summary, the Markdown and the app say it alike.
std::string referenceAnalysisCaveat(const FusionReport& report);

} // namespace fusiondiff
