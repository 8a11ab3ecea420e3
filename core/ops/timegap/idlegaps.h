#pragma once

#include "model/steptime.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fusiondiff {

// What a launch call's name is followed by when its work was already queued as the GPU went idle.
inline constexpr std::string_view kQueuedCallSuffix = " (already launched when the GPU went idle)";

// The name under which the two traces' idle causes pair (IdleCauseEntry::key): the code's name;
// for runtime calls without the API prefix (withoutApiPrefix), so that cudaStreamSynchronize and
// hipStreamSynchronize are one key.
std::string idlePairingKey(const HostCode& code);

// The idle intervals of one side (indices into StepTimeSide::idle, in time order) inside a step
// whose cause is `cause` and whose host code pairs under `key`; of `kind` too unless it is
// HostCodeKind::None. What "where to look first" and the host_time table charge to an entry, as
// far as the report lists intervals (at least kShownIdleUs each, at most kMaxIdleIntervals).
std::vector<uint32_t> idleIntervalsOf(
    const StepTimeSide& side, IdleCause cause, const std::string& key, HostCodeKind kind = HostCodeKind::None);

} // namespace fusiondiff
