#include "ops/timegap/idlegaps.h"

#include "ops/timegap/hosttimeline.h"

namespace fusiondiff {

namespace {

// A token of at least this many letters and digits is a content hash where its letters are of one
// case and it holds at least kHashDigits digits: an inductor graph's base32 name, a hex digest.
// Identifiers in CamelCase with a digit in them (MaxPool2DWithIndicesBackward,
// Owlv2ForObjectDetection, hipGetDevicePropertiesR0600) are names to read, not hashes.
constexpr size_t kHashLength = 20;
constexpr size_t kHashDigits = 2;

bool isHashCharacter(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

// The name with every hash in it ("## Call CompiledFxGraph fdhn34...lhk ##", a compiled graph's
// file) as "<hash>": another run, or another machine, compiles the same code under another hash.
std::string withoutHashes(const std::string& name)
{
    std::string out;
    out.reserve(name.size());
    for (size_t i = 0; i < name.size();) {
        size_t end = i;
        size_t digits = 0, lower = 0, upper = 0;
        while (end < name.size() && isHashCharacter(name[end])) {
            digits += name[end] >= '0' && name[end] <= '9';
            lower += name[end] >= 'a' && name[end] <= 'z';
            upper += name[end] >= 'A' && name[end] <= 'Z';
            ++end;
        }
        if (end == i) {
            out += name[i++];
            continue;
        }
        const bool oneCase = (lower > 0) != (upper > 0);
        if (end - i >= kHashLength && digits >= kHashDigits && oneCase)
            out += "<hash>";
        else
            out.append(name, i, end - i);
        i = end;
    }
    return out;
}

} // namespace

std::string idlePairingKey(const HostCode& code)
{
    if (code.kind != HostCodeKind::Runtime)
        return withoutHashes(code.name);
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
