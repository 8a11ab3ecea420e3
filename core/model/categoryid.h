#pragma once

#include <cstdint>

namespace fusiondiff {

// A kernel category's index in the classifier's category list (see classifier.h).
using CategoryId = uint16_t;

} // namespace fusiondiff
