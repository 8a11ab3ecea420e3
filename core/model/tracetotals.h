#pragma once

#include <cstdint>

namespace fusiondiff {

struct TraceStore;

// What a front end shows about one trace as soon as it is loaded, before any comparison: the
// same kernel count and GPU kernel time that the report's TraceSummary holds for it.
struct TraceTotals
{
    uint64_t kernels = 0;
    double kernelTimeUs = 0; // summed in file order, as the report does
};

TraceTotals traceTotals(const TraceStore& store);

} // namespace fusiondiff
