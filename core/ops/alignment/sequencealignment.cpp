#include "ops/alignment/sequencealignment.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace fusiondiff {

namespace {

// Ranges up to this many cells (one byte each) are aligned exactly by dynamic programming.
constexpr uint64_t kFullTableCells = uint64_t(4) << 20;

struct Range
{
    size_t firstBegin;
    size_t firstEnd;
    size_t secondBegin;
    size_t secondEnd;
};

class SymbolAligner
{
public:
    SymbolAligner(std::span<const uint32_t> first, std::span<const uint32_t> second, AlignmentWork& work)
        : m_first(first)
        , m_second(second)
        , m_work(work)
    { }

    std::vector<AlignedPair> run()
    {
        // Ranges are solved left to right; the stack holds what is still to do, in order.
        std::vector<Range> todo { { 0, m_first.size(), 0, m_second.size() } };
        while (!todo.empty()) {
            const Range range = todo.back();
            todo.pop_back();
            solve(range, todo);
        }
        return std::move(m_result);
    }

private:
    void emitGaps(const Range& r)
    {
        for (size_t i = r.firstBegin; i < r.firstEnd; ++i)
            m_result.push_back({ int64_t(i), -1 });
        for (size_t j = r.secondBegin; j < r.secondEnd; ++j)
            m_result.push_back({ -1, int64_t(j) });
    }

    // Aligns `r`, or splits it and pushes the parts (in reverse order) onto `todo`.
    void solve(Range r, std::vector<Range>& todo)
    {
        while (r.firstBegin < r.firstEnd && r.secondBegin < r.secondEnd
            && m_first[r.firstBegin] == m_second[r.secondBegin]) {
            m_result.push_back({ int64_t(r.firstBegin), int64_t(r.secondBegin) });
            ++r.firstBegin;
            ++r.secondBegin;
            m_work.symbolsScanned += 2;
        }
        size_t suffix = 0;
        while (r.firstEnd - suffix > r.firstBegin && r.secondEnd - suffix > r.secondBegin
            && m_first[r.firstEnd - suffix - 1] == m_second[r.secondEnd - suffix - 1])
            ++suffix;
        m_work.symbolsScanned += 2 * suffix;
        if (suffix > 0) {
            // The suffix is emitted after the middle: push it first (it is solved last).
            todo.push_back({ r.firstEnd - suffix, r.firstEnd, r.secondEnd - suffix, r.secondEnd });
            r.firstEnd -= suffix;
            r.secondEnd -= suffix;
        }
        if (r.firstBegin == r.firstEnd || r.secondBegin == r.secondEnd) {
            emitGaps(r);
            return;
        }
        const uint64_t cells = uint64_t(r.firstEnd - r.firstBegin) * uint64_t(r.secondEnd - r.secondBegin);
        if (cells <= kFullTableCells) {
            alignByTable(r); // exact
            return;
        }
        if (const auto anchors = uniqueAnchors(r); !anchors.empty())
            pushPieces(r, anchors, todo);
        else
            alignInWindows(r);
    }

    // Splits `r` at the anchors, pushing the pieces right to left: [anchor_k+1, end), anchor_k,
    // ..., [begin, anchor_0).
    static void pushPieces(
        const Range& r, const std::vector<std::pair<size_t, size_t>>& anchors, std::vector<Range>& todo)
    {
        Range rest = r;
        for (size_t k = anchors.size(); k-- > 0;) {
            const auto [first, second] = anchors[k];
            todo.push_back({ first + 1, rest.firstEnd, second + 1, rest.secondEnd });
            todo.push_back({ first, first + 1, second, second + 1 });
            rest.firstEnd = first;
            rest.secondEnd = second;
        }
        todo.push_back(rest);
    }

    // Symbols occurring exactly once in each side of the range, paired, keeping the longest run
    // that is increasing on both sides.
    std::vector<std::pair<size_t, size_t>> uniqueAnchors(const Range& r) const
    {
        struct Count
        {
            uint32_t first = 0;
            uint32_t second = 0;
            size_t firstAt = 0;
            size_t secondAt = 0;
        };
        std::unordered_map<uint32_t, Count> counts;
        m_work.symbolsScanned += (r.firstEnd - r.firstBegin) + (r.secondEnd - r.secondBegin);
        for (size_t i = r.firstBegin; i < r.firstEnd; ++i) {
            Count& c = counts[m_first[i]];
            ++c.first;
            c.firstAt = i;
        }
        for (size_t j = r.secondBegin; j < r.secondEnd; ++j) {
            const auto it = counts.find(m_second[j]);
            if (it != counts.end()) {
                ++it->second.second;
                it->second.secondAt = j;
            }
        }
        std::vector<std::pair<size_t, size_t>> candidates;
        for (const auto& [symbol, c] : counts) {
            if (c.first == 1 && c.second == 1)
                candidates.emplace_back(c.firstAt, c.secondAt);
        }
        if (candidates.empty())
            return {};
        std::sort(candidates.begin(), candidates.end());
        return longestIncreasing(candidates);
    }

    static std::vector<std::pair<size_t, size_t>> longestIncreasing(const std::vector<std::pair<size_t, size_t>>& items)
    {
        std::vector<size_t> tails; // index into items of the smallest tail of each length
        std::vector<int64_t> previous(items.size(), -1);
        for (size_t i = 0; i < items.size(); ++i) {
            const auto position = std::lower_bound(tails.begin(), tails.end(), items[i].second,
                [&](size_t tail, size_t value) { return items[tail].second < value; });
            if (position != tails.begin())
                previous[i] = int64_t(*(position - 1));
            if (position == tails.end())
                tails.push_back(i);
            else
                *position = i;
        }
        std::vector<std::pair<size_t, size_t>> run;
        for (int64_t i = tails.empty() ? -1 : int64_t(tails.back()); i >= 0; i = previous[size_t(i)])
            run.push_back(items[size_t(i)]);
        std::reverse(run.begin(), run.end());
        return run;
    }

    // Longest common subsequence by a full table (1 byte per cell for the traceback).
    void alignByTable(const Range& r)
    {
        const size_t n = r.firstEnd - r.firstBegin;
        const size_t m = r.secondEnd - r.secondBegin;
        std::vector<uint32_t> previousRow(m + 1, 0);
        std::vector<uint32_t> row(m + 1, 0);
        // 1: diagonal, 2: up (gap in second), 3: left, 4: diagonal without a match. Among the
        // longest alignments, an unpaired element stands against an unpaired one of the other
        // side where it can (4 on a tie): where one side runs something else in one place (a
        // split kernel's operation), a run of equal neighbours is not shifted by one into the gap.
        std::vector<uint8_t> moves((n + 1) * (m + 1), 0);
        m_work.tableCells += uint64_t(n) * uint64_t(m);
        for (size_t i = 1; i <= n; ++i) {
            row[0] = 0;
            moves[i * (m + 1)] = 2;
            for (size_t j = 1; j <= m; ++j) {
                if (m_first[r.firstBegin + i - 1] == m_second[r.secondBegin + j - 1]) {
                    row[j] = previousRow[j - 1] + 1;
                    moves[i * (m + 1) + j] = 1;
                } else if (previousRow[j - 1] >= previousRow[j] && previousRow[j - 1] >= row[j - 1]) {
                    row[j] = previousRow[j - 1];
                    moves[i * (m + 1) + j] = 4;
                } else if (previousRow[j] >= row[j - 1]) {
                    row[j] = previousRow[j];
                    moves[i * (m + 1) + j] = 2;
                } else {
                    row[j] = row[j - 1];
                    moves[i * (m + 1) + j] = 3;
                }
            }
            std::swap(row, previousRow);
        }
        for (size_t j = 1; j <= m; ++j)
            moves[j] = 3;
        traceBack(r, [&](size_t i, size_t j) { return moves[i * (m + 1) + j]; });
    }

    // A large range without unique anchors: exact alignments of windows of kWindow x kWindow
    // symbols, each kept only up to half its length (where it is still reliable) before the next
    // window starts there. Linear, and exact where the sequences differ by local edits.
    void alignInWindows(const Range& r)
    {
        constexpr size_t kWindow = 1024;
        size_t i = r.firstBegin;
        size_t j = r.secondBegin;
        while (i < r.firstEnd && j < r.secondEnd) {
            const Range window { i, std::min(r.firstEnd, i + kWindow), j, std::min(r.secondEnd, j + kWindow) };
            const bool last = window.firstEnd == r.firstEnd && window.secondEnd == r.secondEnd;
            const size_t before = m_result.size();
            alignByTable(window);
            if (last)
                return;
            // Keep the columns until either side has used half its window.
            const size_t firstStop = i + (window.firstEnd - i + 1) / 2;
            const size_t secondStop = j + (window.secondEnd - j + 1) / 2;
            size_t keep = before;
            size_t nextI = i;
            size_t nextJ = j;
            while (keep < m_result.size() && nextI < firstStop && nextJ < secondStop) {
                if (m_result[keep].first >= 0)
                    nextI = size_t(m_result[keep].first) + 1;
                if (m_result[keep].second >= 0)
                    nextJ = size_t(m_result[keep].second) + 1;
                ++keep;
            }
            m_result.resize(keep);
            i = nextI;
            j = nextJ;
        }
        emitGaps({ i, r.firstEnd, j, r.secondEnd });
    }

    template<typename Move>
    void traceBack(const Range& r, Move move)
    {
        std::vector<AlignedPair> reversed;
        size_t i = r.firstEnd - r.firstBegin;
        size_t j = r.secondEnd - r.secondBegin;
        while (i > 0 || j > 0) {
            const uint8_t step = i == 0 ? 3 : (j == 0 ? 2 : move(i, j));
            if (step == 1) {
                reversed.push_back({ int64_t(r.firstBegin + i - 1), int64_t(r.secondBegin + j - 1) });
                --i;
                --j;
            } else if (step == 2) {
                reversed.push_back({ int64_t(r.firstBegin + i - 1), -1 });
                --i;
            } else if (step == 4) { // one element each side, unpaired, against each other
                reversed.push_back({ -1, int64_t(r.secondBegin + j - 1) });
                reversed.push_back({ int64_t(r.firstBegin + i - 1), -1 });
                --i;
                --j;
            } else {
                reversed.push_back({ -1, int64_t(r.secondBegin + j - 1) });
                --j;
            }
        }
        m_result.insert(m_result.end(), reversed.rbegin(), reversed.rend());
    }

    std::span<const uint32_t> m_first;
    std::span<const uint32_t> m_second;
    AlignmentWork& m_work;
    std::vector<AlignedPair> m_result;
};

} // namespace

std::vector<AlignedPair> alignSymbols(
    std::span<const uint32_t> first, std::span<const uint32_t> second, AlignmentWork* work)
{
    AlignmentWork unused;
    return SymbolAligner(first, second, work ? *work : unused).run();
}

namespace {

// Needleman-Wunsch with `pairScore(a, b)` for pairing a with b and `gap` for leaving one out.
template<typename PairScore>
std::vector<AlignedPair> alignWith(
    std::span<const uint16_t> first, std::span<const uint16_t> second, const PairScore& pairScore, int gap)
{
    const size_t n = first.size();
    const size_t m = second.size();
    std::vector<int64_t> previousRow(m + 1);
    std::vector<int64_t> row(m + 1);
    std::vector<uint8_t> moves((n + 1) * (m + 1), 0);
    for (size_t j = 0; j <= m; ++j) {
        previousRow[j] = int64_t(j) * gap;
        moves[j] = 3;
    }
    for (size_t i = 1; i <= n; ++i) {
        row[0] = int64_t(i) * gap;
        moves[i * (m + 1)] = 2;
        for (size_t j = 1; j <= m; ++j) {
            const int64_t diagonal = previousRow[j - 1] + pairScore(first[i - 1], second[j - 1]);
            const int64_t up = previousRow[j] + gap;
            const int64_t left = row[j - 1] + gap;
            // On ties a gap wins: read back from the end, that pairs the earliest kernels, so an
            // extra kernel of the same type (a split-K reduction after its GEMM) shows as the later one.
            if (up >= diagonal && up >= left) {
                row[j] = up;
                moves[i * (m + 1) + j] = 2;
            } else if (left >= diagonal) {
                row[j] = left;
                moves[i * (m + 1) + j] = 3;
            } else {
                row[j] = diagonal;
                moves[i * (m + 1) + j] = 1;
            }
        }
        std::swap(row, previousRow);
    }
    std::vector<AlignedPair> reversed;
    size_t i = n;
    size_t j = m;
    while (i > 0 || j > 0) {
        const uint8_t step = moves[i * (m + 1) + j];
        if (step == 1) {
            reversed.push_back({ int64_t(i - 1), int64_t(j - 1) });
            --i;
            --j;
        } else if (step == 2) {
            reversed.push_back({ int64_t(i - 1), -1 });
            --i;
        } else {
            reversed.push_back({ -1, int64_t(j - 1) });
            --j;
        }
    }
    return { reversed.rbegin(), reversed.rend() };
}

template<typename Align>
BoundedAlignment alignInChunksIfLarge(
    std::span<const uint16_t> first, std::span<const uint16_t> second, size_t maxCells, const Align& align)
{
    BoundedAlignment alignment;
    const double cells = double(first.size() + 1) * double(second.size() + 1);
    alignment.inChunks = cells > double(maxCells);
    if (!alignment.inChunks) {
        alignment.pairs = align(first, second);
        return alignment;
    }
    const auto chunks = size_t(std::ceil(std::sqrt(cells / double(maxCells))));
    for (size_t c = 0; c < chunks; ++c) {
        const size_t a0 = first.size() * c / chunks;
        const size_t a1 = first.size() * (c + 1) / chunks;
        const size_t b0 = second.size() * c / chunks;
        const size_t b1 = second.size() * (c + 1) / chunks;
        for (AlignedPair pair : align(first.subspan(a0, a1 - a0), second.subspan(b0, b1 - b0))) {
            if (pair.first >= 0)
                pair.first += int64_t(a0);
            if (pair.second >= 0)
                pair.second += int64_t(b0);
            alignment.pairs.push_back(pair);
        }
    }
    return alignment;
}

} // namespace

BoundedAlignment alignScoredWithin(std::span<const uint16_t> first, std::span<const uint16_t> second, size_t maxCells)
{
    return alignInChunksIfLarge(
        first, second, maxCells, [](auto a, auto b) { return alignScored(a, b, AlignmentScores {}); });
}

BoundedAlignment alignScoredWithin(
    std::span<const uint16_t> first, std::span<const uint16_t> second, const PairScores& scores, size_t maxCells)
{
    return alignInChunksIfLarge(
        first, second, maxCells, [&scores](auto a, auto b) { return alignScored(a, b, scores); });
}

std::vector<AlignedPair> alignScored(
    std::span<const uint16_t> first, std::span<const uint16_t> second, const AlignmentScores& scores)
{
    return alignWith(
        first, second, [&scores](uint16_t a, uint16_t b) { return a == b ? scores.match : scores.mismatch; },
        scores.gap);
}

std::vector<AlignedPair> alignScored(
    std::span<const uint16_t> first, std::span<const uint16_t> second, const PairScores& scores)
{
    return alignWith(
        first, second, [&scores](uint16_t a, uint16_t b) { return scores.at(a, b); }, scores.gap);
}

} // namespace fusiondiff
