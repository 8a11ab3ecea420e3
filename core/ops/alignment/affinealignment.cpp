#include "ops/alignment/affinealignment.h"

#include <algorithm>
#include <limits>

namespace fusiondiff {

namespace {

constexpr int32_t kMinusInfinity = std::numeric_limits<int32_t>::min() / 4;

// Per cell, where each state's best score came from: bits 0-1 the state before a diagonal step;
// bit 2 set if the gap in the second was extended, else bit 3 tells it was opened from a gap in
// the first (else from a diagonal); bits 4 and 5 the same for the gap in the first.
enum State : uint8_t
{
    Diagonal = 0,
    GapInSecond = 1, // an element of the first sequence paired with nothing
    GapInFirst = 2,
};

} // namespace

std::vector<AlignedPair> alignAffine(std::span<const uint16_t> first, std::span<const uint16_t> second,
    std::span<const float> firstDurations, std::span<const float> secondDurations, const AffineScores& scores)
{
    const bool timed = firstDurations.size() == first.size() && secondDurations.size() == second.size();
    const auto ratio = float(scores.durationRatio);
    auto pairScore = [&](size_t i, size_t j) {
        if (first[i] != second[j])
            return scores.mismatch;
        if (!timed)
            return scores.match;
        const float a = std::max(firstDurations[i], 0.01f);
        const float b = std::max(secondDurations[j], 0.01f);
        return a <= b * ratio && b <= a * ratio ? scores.match : scores.farMatch;
    };
    const size_t n = first.size();
    const size_t m = second.size();
    const size_t width = m + 1;
    std::vector<uint8_t> moves((n + 1) * width, 0);
    // Rows of the three states: diagonal (D), gap in second (X), gap in first (Y).
    std::vector<int32_t> d(width, kMinusInfinity), x(width, kMinusInfinity), y(width, kMinusInfinity);
    std::vector<int32_t> pd(width), px(width), py(width);
    // Row 0: the second sequence's first elements unpaired (one gap).
    for (size_t j = 0; j <= m; ++j) {
        d[j] = j == 0 ? 0 : kMinusInfinity;
        y[j] = j == 0 ? kMinusInfinity : scores.open + int32_t(j) * scores.extend;
        moves[j] = j == 0 ? 0 : uint8_t(1 << 4);
    }
    int32_t best = kMinusInfinity;
    size_t bestI = 0;
    size_t bestJ = 0;
    uint8_t bestState = Diagonal;
    auto consider = [&](int32_t score, size_t i, size_t j, uint8_t state) {
        if (score > best) {
            best = score;
            bestI = i;
            bestJ = j;
            bestState = state;
        }
    };
    if (n == 0)
        consider(std::max(d[m], y[m]), 0, m, d[m] >= y[m] ? Diagonal : GapInFirst);
    for (size_t i = 1; i <= n; ++i) {
        std::swap(d, pd);
        std::swap(x, px);
        std::swap(y, py);
        // Column 0: the first sequence's first elements unpaired.
        d[0] = kMinusInfinity;
        x[0] = scores.open + int32_t(i) * scores.extend;
        y[0] = kMinusInfinity;
        moves[i * width] = uint8_t(1 << 2);
        for (size_t j = 1; j <= m; ++j) {
            uint8_t move = 0;
            // Diagonal: the best of the three states at (i-1, j-1), ties to the diagonal.
            int32_t from = pd[j - 1];
            uint8_t source = Diagonal;
            if (px[j - 1] > from) {
                from = px[j - 1];
                source = GapInSecond;
            }
            if (py[j - 1] > from) {
                from = py[j - 1];
                source = GapInFirst;
            }
            d[j] = from + pairScore(i - 1, j - 1);
            move |= source;
            // Gap in the second: from (i-1, j), opened or extended.
            const int32_t openX = std::max(pd[j], py[j]) + scores.open + scores.extend;
            const int32_t extendX = px[j] + scores.extend;
            x[j] = std::max(openX, extendX);
            if (extendX >= openX)
                move |= uint8_t(1 << 2);
            else if (py[j] > pd[j])
                move |= uint8_t(1 << 3);
            // Gap in the first: from (i, j-1).
            const int32_t openY = std::max(d[j - 1], x[j - 1]) + scores.open + scores.extend;
            const int32_t extendY = y[j - 1] + scores.extend;
            y[j] = std::max(openY, extendY);
            if (extendY >= openY)
                move |= uint8_t(1 << 4);
            else if (x[j - 1] > d[j - 1])
                move |= uint8_t(1 << 5);
            moves[i * width + j] = move;
        }
        // Trailing gaps are free: the alignment may end at the last row or column.
        if (i == n) {
            for (size_t j = 0; j <= m; ++j)
                consider(std::max({ d[j], x[j], y[j] }), i, j,
                    d[j] >= x[j] && d[j] >= y[j] ? Diagonal : (x[j] >= y[j] ? GapInSecond : GapInFirst));
        } else {
            consider(std::max({ d[m], x[m], y[m] }), i, m,
                d[m] >= x[m] && d[m] >= y[m] ? Diagonal : (x[m] >= y[m] ? GapInSecond : GapInFirst));
        }
    }

    std::vector<AlignedPair> reversed;
    for (size_t i = n; i > bestI; --i)
        reversed.push_back({ int64_t(i - 1), -1 });
    for (size_t j = m; j > bestJ; --j)
        reversed.push_back({ -1, int64_t(j - 1) });
    size_t i = bestI;
    size_t j = bestJ;
    uint8_t state = bestState;
    while (i > 0 || j > 0) {
        if (i == 0) {
            reversed.push_back({ -1, int64_t(--j) });
            continue;
        }
        if (j == 0) {
            reversed.push_back({ int64_t(--i), -1 });
            continue;
        }
        const uint8_t move = moves[i * width + j];
        if (state == Diagonal) {
            state = move & 3;
            --i;
            --j;
            reversed.push_back({ int64_t(i), int64_t(j) });
        } else if (state == GapInSecond) {
            state = (move >> 2 & 1) ? GapInSecond : ((move >> 3 & 1) ? GapInFirst : Diagonal);
            --i;
            reversed.push_back({ int64_t(i), -1 });
        } else {
            state = (move >> 4 & 1) ? GapInFirst : ((move >> 5 & 1) ? GapInSecond : Diagonal);
            --j;
            reversed.push_back({ -1, int64_t(j) });
        }
    }
    return { reversed.rbegin(), reversed.rend() };
}

} // namespace fusiondiff
