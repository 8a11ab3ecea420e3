#include "model/tracetotals.h"

#include "model/tracestore.h"

namespace fusiondiff {

TraceTotals traceTotals(const TraceStore& store)
{
    TraceTotals totals;
    totals.kernels = store.kernels.size();
    for (const KernelEvent& kernel : store.kernels)
        totals.kernelTimeUs += kernel.dur;
    return totals;
}

} // namespace fusiondiff
