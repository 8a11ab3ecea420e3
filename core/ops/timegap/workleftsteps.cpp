#include "ops/timegap/workleftsteps.h"

#include <algorithm>

namespace fusiondiff {

namespace {

const TimeGapPart* basisPart(const TimeGapBreakdown& basis, GapCause cause)
{
    for (const TimeGapPart& part : basis.parts) {
        if (part.cause == cause)
            return &part;
    }
    return nullptr;
}

} // namespace

double kernelTimeLeftStepsUs(const TimeGap& gap, size_t side)
{
    if (!gap.stepTime)
        return 0;
    const size_t other = 1 - side;
    double left = 0;
    for (const GapCause cause :
        { GapCause::Fusion, GapCause::Speed, GapCause::Collectives, GapCause::OneSide, GapCause::Unattributed }) {
        const TimeGapPart* inSteps = basisPart(*gap.stepTime, cause);
        if (!inSteps)
            continue;
        const TimeGapPart* inTrace = basisPart(gap.kernelTime, cause);
        const double lessInSteps = inSteps->timeUs[other] - inSteps->timeUs[side];
        const double lessInTrace = inTrace ? inTrace->timeUs[other] - inTrace->timeUs[side] : 0.0;
        left += std::max(0.0, lessInSteps - std::max(0.0, lessInTrace));
    }
    return left;
}

} // namespace fusiondiff
