#include "groups/groupmatcher.h"

#include <QRandomGenerator>
#include <QTest>

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <limits>
#include <numeric>

using namespace fusiondiff;

namespace {

using Matches = std::vector<std::pair<uint32_t, uint32_t>>;

// The seed's _match_correlation_groups, transcribed literally: every pair is scored (counted in
// `scored`, if given, as MatchWork counts the matcher's work).
Matches quadraticReference(const std::vector<GroupProfile>& amd, const std::vector<GroupProfile>& nv, double tolerance,
    uint64_t* scored = nullptr)
{
    std::vector<uint32_t> order(amd.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return amd[a].size > amd[b].size; });
    std::vector<bool> used(nv.size(), false);
    Matches matches;
    for (const uint32_t a : order) {
        const double minSize = amd[a].size / (1 + tolerance);
        const double maxSize = amd[a].size * (1 + tolerance);
        int64_t bestScore = std::numeric_limits<int64_t>::max();
        int64_t best = -1;
        for (uint32_t n = 0; n < nv.size(); ++n) {
            if (used[n] || nv[n].size < minSize || nv[n].size > maxSize)
                continue;
            if (scored)
                ++*scored;
            const int64_t score = std::llabs(int64_t(amd[a].size) - int64_t(nv[n].size))
                - 10 * std::popcount(amd[a].typeMask & nv[n].typeMask);
            if (score < bestScore) {
                bestScore = score;
                best = n;
            }
        }
        if (best >= 0) {
            matches.emplace_back(a, uint32_t(best));
            used[size_t(best)] = true;
        }
    }
    return matches;
}

std::vector<GroupProfile> randomGroups(
    QRandomGenerator& random, int count, uint32_t minSize, uint32_t maxSize, int types, int distinctMasks)
{
    std::vector<uint64_t> masks;
    for (int i = 0; i < distinctMasks; ++i)
        masks.push_back(random.generate64() & ((uint64_t(1) << types) - 1));
    std::vector<GroupProfile> groups;
    for (int i = 0; i < count; ++i)
        groups.push_back(
            { uint32_t(random.bounded(minSize, maxSize + 1)), masks[size_t(random.bounded(distinctMasks))] });
    return groups;
}

} // namespace

class TestGroupMatcher : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void matchesTheSeedOnRandomGroups_data()
    {
        QTest::addColumn<int>("count1");
        QTest::addColumn<int>("count2");
        QTest::addColumn<int>("minSize");
        QTest::addColumn<int>("maxSize");
        QTest::addColumn<int>("masks");
        QTest::addColumn<double>("tolerance");
        QTest::newRow("few sizes, many ties") << 60 << 50 << 50 << 56 << 3 << 0.25;
        QTest::newRow("spread of sizes") << 200 << 220 << 50 << 5000 << 40 << 0.25;
        QTest::newRow("dense sizes") << 300 << 300 << 50 << 400 << 200 << 0.25;
        QTest::newRow("tight tolerance") << 100 << 100 << 50 << 200 << 10 << 0.01;
        QTest::newRow("zero tolerance") << 100 << 100 << 50 << 80 << 5 << 0.0;
        QTest::newRow("wide tolerance") << 80 << 120 << 50 << 3000 << 30 << 3.0;
        QTest::newRow("one side empty") << 10 << 0 << 50 << 60 << 2 << 0.25;
        QTest::newRow("more on the second side") << 20 << 200 << 50 << 70 << 4 << 0.25;
    }

    void matchesTheSeedOnRandomGroups()
    {
        QFETCH(int, count1);
        QFETCH(int, count2);
        QFETCH(int, minSize);
        QFETCH(int, maxSize);
        QFETCH(int, masks);
        QFETCH(double, tolerance);
        for (quint32 seed = 1; seed <= 30; ++seed) {
            QRandomGenerator random(seed);
            const auto first = randomGroups(random, count1, uint32_t(minSize), uint32_t(maxSize), 17, masks);
            const auto second = randomGroups(random, count2, uint32_t(minSize), uint32_t(maxSize), 17, masks);
            const Matches expected = quadraticReference(first, second, tolerance);
            const Matches actual = matchGroups(first, second, tolerance);
            QCOMPARE(actual, expected);
        }
    }

    void sizeBoundsAreInclusiveAsInTheSeed()
    {
        // 100 / 1.25 = 80 and 100 * 1.25 = 125 are both allowed; 79 and 126 are not.
        const std::vector<GroupProfile> first { { 100, 1 } };
        QCOMPARE(matchGroups(first, std::vector<GroupProfile> { { 79, 1 }, { 126, 1 } }, 0.25).size(), size_t(0));
        QCOMPARE(matchGroups(first, std::vector<GroupProfile> { { 80, 1 } }, 0.25), (Matches { { 0, 0 } }));
        QCOMPARE(matchGroups(first, std::vector<GroupProfile> { { 125, 1 } }, 0.25), (Matches { { 0, 0 } }));
    }

    void sharedTypesOutweighSize()
    {
        // Score = |size difference| - 10 * shared types: two more shared types beat 15 kernels.
        const std::vector<GroupProfile> first { { 100, 0b111 } };
        const std::vector<GroupProfile> second { { 100, 0b001 }, { 115, 0b111 } };
        QCOMPARE(matchGroups(first, second, 0.25), (Matches { { 0, 1 } }));
    }

    void largestFirstAndEarliestOnTies()
    {
        const std::vector<GroupProfile> first { { 60, 1 }, { 90, 1 }, { 60, 1 } };
        const std::vector<GroupProfile> second { { 60, 1 }, { 60, 1 }, { 88, 1 } };
        QCOMPARE(matchGroups(first, second, 0.25), (Matches { { 1, 2 }, { 0, 0 }, { 2, 1 } }));
    }

    void hundredThousandGroupsAreNearLinear()
    {
        // Not a timing test: the work (buckets scored, sizes visited) per group, at 12,500 and at
        // 100,000 groups whose sizes spread over a range that grows with their number. Near-linear
        // matching does about as much per group at 8 times the groups; the seed's loop, which scores
        // every unused group in range, 8 times as much (10^10 scores at 100,000 groups).
        const auto groupsOf = [](int count) {
            QRandomGenerator random(11);
            const auto range = uint32_t(50 + count);
            return std::pair(
                randomGroups(random, count, 50, range, 17, 64), randomGroups(random, count, 50, range, 17, 64));
        };
        std::vector<double> workPerGroup;
        for (const int count : { 12500, 100000 }) {
            const auto [first, second] = groupsOf(count);
            MatchWork work;
            const Matches matches = matchGroups(first, second, 0.25, &work);
            QVERIFY(matches.size() > size_t(count) * 9 / 10);
            workPerGroup.push_back(double(work.bucketsScored + work.sizesVisited) / count);
        }
        QVERIFY2(workPerGroup[1] < 1.5 * workPerGroup[0],
            qPrintable(QStringLiteral("%1 then %2 per group").arg(workPerGroup[0]).arg(workPerGroup[1])));

        // The measure tells a quadratic matcher apart: the reference's scores per group, at 1,000
        // and 8,000 groups, grow with the number of groups (and its matches are the same).
        std::vector<double> referencePerGroup;
        for (const int count : { 1000, 8000 }) {
            const auto [first, second] = groupsOf(count);
            uint64_t scored = 0;
            QCOMPARE(quadraticReference(first, second, 0.25, &scored), matchGroups(first, second, 0.25));
            referencePerGroup.push_back(double(scored) / count);
        }
        QVERIFY2(referencePerGroup[1] > 4 * referencePerGroup[0],
            qPrintable(QStringLiteral("%1 then %2 per group").arg(referencePerGroup[0]).arg(referencePerGroup[1])));
    }
};

QTEST_GUILESS_MAIN(TestGroupMatcher)
#include "tst_groupmatcher.moc"
