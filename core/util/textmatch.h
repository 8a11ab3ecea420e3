#pragma once

#include <initializer_list>
#include <string>
#include <string_view>

namespace fusiondiff {

// Kernel and operator names matched against known fragments: ASCII case folding only, so that the
// result does not depend on the process's locale (the GUI sets one from the environment).
std::string asciiLower(std::string_view text);

// Whether `text` contains any of `parts`.
bool containsAny(std::string_view text, std::initializer_list<std::string_view> parts);

} // namespace fusiondiff
