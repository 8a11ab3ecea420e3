#pragma once

#include "model/timegap.h"

#include <cstddef>

namespace fusiondiff {

// Kernel time that `side`'s compared steps hold less of than the other side's, beyond what
// `side` runs less of in the whole trace (the kernel-time basis): work that moved out of the
// steps, not work that got faster. A host delay in a warm-up step that pushes a kernel the trace
// has no launch for (a collective) out of the first compared step makes the steps that much
// shorter, and as much of their idle is then not time the steps lost. Summed over the kernel
// parts (fusion, speed, collectives, one side, unattributed); 0 without a step-time basis.
double kernelTimeLeftStepsUs(const TimeGap& gap, size_t side);

} // namespace fusiondiff
