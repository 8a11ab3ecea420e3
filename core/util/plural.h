#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace fusiondiff {

// "1 gap", "0 gaps", "1,234 gaps": a count with thousands separators and its noun, singular for one.
std::string countedNoun(uint64_t count, std::string_view one, std::string_view many);

} // namespace fusiondiff
