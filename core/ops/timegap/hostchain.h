#pragma once

#include "model/steptime.h"

#include <string>

namespace fusiondiff {

// The chain of host code above the code `name` of kind `kind` on one side, innermost first, each
// named as the pairing key names it ("nn.Module: Linear_77", "modeling_clip.py: forward"): the
// code it runs inside for most of its own time, and that one's, up to `depth` levels. Empty where
// the side has no such code or it runs inside nothing recorded.
std::vector<std::string> chainAbove(const StepTimeSide& side, const std::string& name, HostCodeKind kind, size_t depth);

// "inside A, inside B" for the first `levels` of the chain; empty for an empty chain.
std::string chainWords(const std::vector<std::string>& chain, size_t levels);

} // namespace fusiondiff
