#include "ops/timegap/hostchain.h"

#include "ops/timegap/idlegaps.h"

#include <algorithm>

namespace fusiondiff {

std::vector<std::string> chainAbove(const StepTimeSide& side, const std::string& name, HostCodeKind kind, size_t depth)
{
    std::vector<std::string> chain;
    const auto found = std::find_if(side.codes.begin(), side.codes.end(),
        [&](const HostCode& code) { return code.kind == kind && (code.name == name || idlePairingKey(code) == name); });
    if (found == side.codes.end())
        return chain;
    std::vector<int32_t> seen { int32_t(found - side.codes.begin()) };
    for (int32_t caller = found->caller; caller >= 0 && size_t(caller) < side.codes.size() && chain.size() < depth;
         caller = side.codes[size_t(caller)].caller) {
        if (std::find(seen.begin(), seen.end(), caller) != seen.end())
            break; // code-level callers can loop where calls nest differently in different places
        seen.push_back(caller);
        chain.push_back(idlePairingKey(side.codes[size_t(caller)]));
    }
    return chain;
}

std::string chainWords(const std::vector<std::string>& chain, size_t levels)
{
    std::string words;
    for (size_t i = 0; i < std::min(levels, chain.size()); ++i)
        words += (words.empty() ? "inside " : ", inside ") + chain[i];
    return words;
}

} // namespace fusiondiff
