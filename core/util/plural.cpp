#include "util/plural.h"

#include "util/textformat.h"

namespace fusiondiff {

std::string countedNoun(uint64_t count, std::string_view one, std::string_view many)
{
    return countWithThousands(count) + " " + std::string(count == 1 ? one : many);
}

} // namespace fusiondiff
