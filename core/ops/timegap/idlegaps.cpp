#include "ops/timegap/idlegaps.h"

#include "ops/timegap/hosttimeline.h"

namespace fusiondiff {

std::string idlePairingKey(const HostCode& code)
{
    if (code.kind != HostCodeKind::Runtime)
        return code.name;
    std::string_view name = code.name;
    const bool queued = name.ends_with(kQueuedCallSuffix);
    if (queued)
        name.remove_suffix(kQueuedCallSuffix.size());
    return std::string(withoutApiPrefix(name)) + (queued ? std::string(kQueuedCallSuffix) : std::string());
}

std::vector<uint32_t> idleIntervalsOf(
    const StepTimeSide& side, IdleCause cause, const std::string& key, HostCodeKind kind)
{
    // Which of the side's codes pair under `key`: each code's key once, not once per interval.
    std::vector<char> matches(side.codes.size(), 0);
    for (size_t code = 0; code < side.codes.size(); ++code) {
        const HostCode& named = side.codes[code];
        matches[code] = (kind == HostCodeKind::None || named.kind == kind) && idlePairingKey(named) == key;
    }
    std::vector<uint32_t> found;
    for (size_t i = 0; i < side.idle.size(); ++i) {
        const IdleInterval& interval = side.idle[i];
        if (interval.cause == cause && interval.step >= 0 && interval.code >= 0
            && size_t(interval.code) < matches.size() && matches[size_t(interval.code)])
            found.push_back(uint32_t(i));
    }
    return found;
}

} // namespace fusiondiff
