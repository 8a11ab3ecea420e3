#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>
#include <vector>

namespace fusiondiff {

// For items appended kind by kind (operators, then modules, then calls, ...), each kind mostly in
// order already as traces list them: sorts the run items[runBegin, end) where it is not sorted (a
// check, not a sort) and merges it into items[0, runBegin), sorted already. Much cheaper than
// sorting everything at once, and the same order: the merge is stable.
template<typename T, typename Less = std::less<>>
void mergeSortedRun(std::vector<T>& items, size_t runBegin, Less less = {})
{
    const auto first = items.begin() + std::ptrdiff_t(runBegin);
    if (!std::is_sorted(first, items.end(), less))
        std::sort(first, items.end(), less);
    if (runBegin > 0)
        std::inplace_merge(items.begin(), first, items.end(), less);
}

} // namespace fusiondiff
