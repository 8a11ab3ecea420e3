#include "report/referencecaveat.h"

#include "model/fusionreport.h"
#include "util/textformat.h"

namespace fusiondiff {

std::string referenceAnalysisCaveat(const FusionReport& report)
{
    if (report.timeGap.differentWork)
        return "not meaningful for this pair: the traces do not run the same work";
    std::string partial;
    for (size_t side = 0; side < 2; ++side) {
        const double us = report.graphComparison.unrecordedUs[side];
        if (us <= 0)
            continue;
        partial += partial.empty() ? "" : "; ";
        partial += std::string(side == 0 ? "A" : "B") + "'s trace records only part of its graph launches ("
            + formatDuration(us) + " of GPU time without kernel records)";
    }
    if (partial.empty())
        return {};
    return "of limited meaning for this pair: " + partial
        + ", so its kernel counts miss what it does not hold, and a count ratio can read as fusion";
}

} // namespace fusiondiff
