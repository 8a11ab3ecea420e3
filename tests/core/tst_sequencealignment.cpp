#include "ops/alignment/sequencealignment.h"

#include <QRandomGenerator>
#include <QTest>

#include <algorithm>

using namespace fusiondiff;

namespace {

size_t lcsLength(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b)
{
    std::vector<size_t> previous(b.size() + 1, 0), row(b.size() + 1, 0);
    for (size_t i = 1; i <= a.size(); ++i) {
        for (size_t j = 1; j <= b.size(); ++j)
            row[j] = a[i - 1] == b[j - 1] ? previous[j - 1] + 1 : std::max(previous[j], row[j - 1]);
        std::swap(row, previous);
    }
    return previous[b.size()];
}

// Every element once, in order; pairs only equal symbols. An error is reported through `error`
// (QCOMPARE'd to "" by the callers, which fails the test function, not the whole binary).
struct Checked
{
    size_t matches = 0;
    QString error;
};

Checked verifyAlignment(
    const std::vector<AlignedPair>& alignment, const std::vector<uint32_t>& a, const std::vector<uint32_t>& b)
{
    int64_t nextA = 0, nextB = 0;
    Checked checked;
    for (const AlignedPair& pair : alignment) {
        if (pair.first >= 0 && pair.first != nextA++)
            return { checked.matches, QStringLiteral("first sequence out of order at %1").arg(pair.first) };
        if (pair.second >= 0 && pair.second != nextB++)
            return { checked.matches, QStringLiteral("second sequence out of order at %1").arg(pair.second) };
        if (pair.isMatch()) {
            if (a[size_t(pair.first)] != b[size_t(pair.second)])
                return { checked.matches, QStringLiteral("unequal symbols paired at %1").arg(pair.first) };
            ++checked.matches;
        }
    }
    if (size_t(nextA) != a.size() || size_t(nextB) != b.size())
        checked.error = QStringLiteral("elements missing");
    return checked;
}

// The matches of alignSymbols(a, b), after checking the alignment.
#define ALIGNED_MATCHES(a, b, work, matches)                                                                           \
    do {                                                                                                               \
        const Checked checked = verifyAlignment(alignSymbols(a, b, work), a, b);                                       \
        QCOMPARE(checked.error, QString());                                                                            \
        matches = checked.matches;                                                                                     \
    } while (false)

std::vector<uint32_t> randomSequence(QRandomGenerator& random, size_t length, uint32_t symbols)
{
    std::vector<uint32_t> sequence(length);
    for (uint32_t& s : sequence)
        s = random.bounded(symbols);
    return sequence;
}

// `a` with some elements deleted and some inserted.
std::vector<uint32_t> edited(QRandomGenerator& random, const std::vector<uint32_t>& a, int edits, uint32_t symbols)
{
    std::vector<uint32_t> b = a;
    for (int e = 0; e < edits && !b.empty(); ++e) {
        const size_t at = random.bounded(uint32_t(b.size()));
        if (random.bounded(2))
            b.erase(b.begin() + int64_t(at));
        else
            b.insert(b.begin() + int64_t(at), random.bounded(symbols));
    }
    return b;
}

} // namespace

class TestSequenceAlignment : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void symbolsAlignToALongestCommonSubsequence()
    {
        QRandomGenerator random(5);
        for (int round = 0; round < 300; ++round) {
            const uint32_t symbols = 2 + random.bounded(30u);
            const auto a = randomSequence(random, random.bounded(120u), symbols);
            const auto b
                = round % 2 ? randomSequence(random, random.bounded(120u), symbols) : edited(random, a, 8, symbols);
            size_t matches = 0;
            ALIGNED_MATCHES(a, b, nullptr, matches);
            QCOMPARE(matches, lcsLength(a, b));
        }
    }

    void layersWithoutUniqueOperations()
    {
        // 24 "layers" of the same 40 operations; B lacks one operation in layer 7 and adds one in 20.
        std::vector<uint32_t> layer(40);
        for (uint32_t i = 0; i < 40; ++i)
            layer[i] = i % 17;
        std::vector<uint32_t> a, b;
        for (int l = 0; l < 24; ++l) {
            a.insert(a.end(), layer.begin(), layer.end());
            for (size_t i = 0; i < layer.size(); ++i) {
                if (!(l == 7 && i == 5))
                    b.push_back(layer[i]);
            }
            if (l == 20)
                b.push_back(99);
        }
        size_t matches = 0;
        ALIGNED_MATCHES(a, b, nullptr, matches);
        QCOMPARE(matches, a.size() - 1);
    }

    void largeSimilarSequencesAreNearLinear()
    {
        // The work (table cells filled, symbols scanned) per symbol, from 37,500 to 300,000
        // operations of a vocabulary of 50 with few landmarks, 200 edits each: flat for a
        // near-linear alignment, 8 times larger for a full table (n x m cells).
        std::vector<double> workPerSymbol;
        for (const uint32_t length : { 37500u, 300000u }) {
            QRandomGenerator random(9);
            const auto a = randomSequence(random, length, 50);
            const auto b = edited(random, a, 200, 50);
            AlignmentWork work;
            size_t matches = 0;
            ALIGNED_MATCHES(a, b, &work, matches);
            QVERIFY(matches >= a.size() - 200);
            workPerSymbol.push_back(double(work.tableCells + work.symbolsScanned) / double(length));
            // A full table would fill length^2 cells; the windows fill about 2,000 per symbol.
            QVERIFY2(work.tableCells < uint64_t(length) * 4096, qPrintable(QString::number(work.tableCells)));
        }
        QVERIFY2(workPerSymbol[1] < 1.5 * workPerSymbol[0],
            qPrintable(QStringLiteral("%1 then %2 per symbol").arg(workPerSymbol[0]).arg(workPerSymbol[1])));
    }

    void unrelatedLargeSequencesStillAlignQuickly()
    {
        QRandomGenerator random(3);
        const auto a = randomSequence(random, 200000, 8);
        const auto b = randomSequence(random, 150000, 8);
        AlignmentWork work;
        size_t matches = 0;
        ALIGNED_MATCHES(a, b, &work, matches);
        QVERIFY(matches > 0);
        // Windows of 1024 x 1024 advancing by half a window: at most about 4,096 cells per symbol
        // of the longer side, where a full table would need 150,000.
        QVERIFY2(work.tableCells < uint64_t(a.size()) * 4096, qPrintable(QString::number(work.tableCells)));
    }

    void emptySequences()
    {
        const std::vector<uint32_t> none, some { 1, 2 };
        QCOMPARE(alignSymbols(none, none).size(), size_t(0));
        QCOMPARE(alignSymbols(some, none), (std::vector<AlignedPair> { { 0, -1 }, { 1, -1 } }));
        QCOMPARE(alignSymbols(none, some), (std::vector<AlignedPair> { { -1, 0 }, { -1, 1 } }));
    }

    void scoredAlignmentWithinABoundAlignsInChunks()
    {
        // Below the bound, alignScoredWithin is alignScored; above it, proportional chunks are.
        QRandomGenerator random(42);
        for (int round = 0; round < 200; ++round) {
            std::vector<uint16_t> a(random.bounded(0, 40));
            std::vector<uint16_t> b(random.bounded(0, 40));
            for (uint16_t& type : a)
                type = static_cast<uint16_t>(random.bounded(0, 5));
            for (uint16_t& type : b)
                type = static_cast<uint16_t>(random.bounded(0, 5));
            const BoundedAlignment scored = alignScoredWithin(a, b);
            QVERIFY(!scored.inChunks);
            QCOMPARE(scored.pairs, alignScored(a, b));
            const BoundedAlignment bounded = alignScoredWithin(a, b, 4);
            QCOMPARE(bounded.inChunks, (a.size() + 1) * (b.size() + 1) > 4);
            // Every element once, in order.
            int64_t nextA = 0;
            int64_t nextB = 0;
            for (const AlignedPair& pair : bounded.pairs) {
                QVERIFY(pair.first >= 0 || pair.second >= 0);
                if (pair.first >= 0)
                    QCOMPARE(pair.first, nextA++);
                if (pair.second >= 0)
                    QCOMPARE(pair.second, nextB++);
            }
            QCOMPARE(size_t(nextA), a.size());
            QCOMPARE(size_t(nextB), b.size());
        }
        // Two graphs of 20,000 kernels: 400 million cells, past the bound: five chunks of 4,000,
        // which pair every kernel of two equal graphs.
        const std::vector<uint16_t> large(20000, 3);
        const BoundedAlignment pairs = alignScoredWithin(large, large);
        QVERIFY(pairs.inChunks);
        QCOMPARE(pairs.pairs.size(), large.size());
        QVERIFY(std::all_of(pairs.pairs.begin(), pairs.pairs.end(), [](const AlignedPair& p) { return p.isMatch(); }));
    }

    void scoredAlignmentShowsWhatOneSideRunsSeparately()
    {
        // A: GEMM, Elementwise, Elementwise; B: GEMM.
        const std::vector<uint16_t> a { 0, 5, 5 };
        const std::vector<uint16_t> b { 0 };
        QCOMPARE(alignScored(a, b), (std::vector<AlignedPair> { { 0, 0 }, { 1, -1 }, { 2, -1 } }));
        // A: Norm, GEMM, Activation, GEMM; B: GEMM, GEMM (the activation fused, the norm too).
        const std::vector<uint16_t> c { 3, 0, 4, 0 };
        const std::vector<uint16_t> d { 0, 0 };
        QCOMPARE(alignScored(c, d), (std::vector<AlignedPair> { { 0, -1 }, { 1, 0 }, { 2, -1 }, { 3, 1 } }));
        // Different kernels for the same step pair up rather than leaving two gaps.
        const std::vector<uint16_t> e { 0, 7, 1 };
        const std::vector<uint16_t> f { 0, 8, 1 };
        QCOMPARE(alignScored(e, f), (std::vector<AlignedPair> { { 0, 0 }, { 1, 1 }, { 2, 2 } }));
    }
};

QTEST_GUILESS_MAIN(TestSequenceAlignment)
#include "tst_sequencealignment.moc"
