#include "kernelrowalignment.h"

#include <algorithm>
#include <cstdint>

namespace fusiondiff::ui {

namespace {

enum Step : uint8_t
{
    Match,
    SkipA,
    SkipB,
};

// Steps through a[0..n) and b[0..m) along a longest common subsequence.
std::vector<Step> lcsSteps(std::span<const CategoryId> a, std::span<const CategoryId> b)
{
    const size_t n = a.size();
    const size_t m = b.size();
    // Suffix lengths, two rows; the step of each cell in a full table of bytes.
    std::vector<uint32_t> next(m + 1, 0);
    std::vector<uint32_t> current(m + 1, 0);
    std::vector<Step> step(n * m);
    for (size_t i = n; i-- > 0;) {
        current[m] = 0;
        for (size_t j = m; j-- > 0;) {
            Step& cell = step[i * m + j];
            if (a[i] == b[j]) {
                current[j] = next[j + 1] + 1;
                cell = Match;
            } else if (next[j] >= current[j + 1]) {
                current[j] = next[j];
                cell = SkipA;
            } else {
                current[j] = current[j + 1];
                cell = SkipB;
            }
        }
        std::swap(next, current);
    }
    std::vector<Step> path;
    size_t i = 0;
    size_t j = 0;
    while (i < n && j < m) {
        const Step s = step[i * m + j];
        path.push_back(s);
        i += s != SkipB;
        j += s != SkipA;
    }
    path.insert(path.end(), n - i, SkipA);
    path.insert(path.end(), m - j, SkipB);
    return path;
}

} // namespace

std::vector<AlignedRow> alignKernelRows(std::span<const CategoryId> a, std::span<const CategoryId> b, size_t maxCells)
{
    size_t prefix = 0;
    while (prefix < a.size() && prefix < b.size() && a[prefix] == b[prefix])
        ++prefix;
    size_t suffix = 0;
    while (suffix < a.size() - prefix && suffix < b.size() - prefix
        && a[a.size() - 1 - suffix] == b[b.size() - 1 - suffix])
        ++suffix;
    const auto middleA = a.subspan(prefix, a.size() - prefix - suffix);
    const auto middleB = b.subspan(prefix, b.size() - prefix - suffix);

    std::vector<AlignedRow> rows;
    rows.reserve(std::max(a.size(), b.size()));
    for (size_t k = 0; k < prefix; ++k)
        rows.push_back({ static_cast<int>(k), static_cast<int>(k) });

    const int offset = static_cast<int>(prefix);
    if (!middleA.empty() && !middleB.empty() && middleA.size() * middleB.size() <= maxCells) {
        std::vector<int> onlyA;
        std::vector<int> onlyB;
        const auto flush = [&] {
            const size_t paired = std::min(onlyA.size(), onlyB.size());
            for (size_t k = 0; k < paired; ++k)
                rows.push_back({ onlyA[k], onlyB[k] });
            for (size_t k = paired; k < onlyA.size(); ++k)
                rows.push_back({ onlyA[k], -1 });
            for (size_t k = paired; k < onlyB.size(); ++k)
                rows.push_back({ -1, onlyB[k] });
            onlyA.clear();
            onlyB.clear();
        };
        int i = 0;
        int j = 0;
        for (const Step s : lcsSteps(middleA, middleB)) {
            if (s == Match) {
                flush();
                rows.push_back({ offset + i++, offset + j++ });
            } else if (s == SkipA) {
                onlyA.push_back(offset + i++);
            } else {
                onlyB.push_back(offset + j++);
            }
        }
        flush();
    } else {
        const size_t longest = std::max(middleA.size(), middleB.size());
        for (size_t k = 0; k < longest; ++k) {
            rows.push_back({ k < middleA.size() ? offset + static_cast<int>(k) : -1,
                k < middleB.size() ? offset + static_cast<int>(k) : -1 });
        }
    }

    for (size_t k = 0; k < suffix; ++k) {
        rows.push_back({ static_cast<int>(a.size() - suffix + k), static_cast<int>(b.size() - suffix + k) });
    }
    return rows;
}

} // namespace fusiondiff::ui
