// IdMap (core/util/idmap.h): ids to values, as a hash table or, built for a dense range of ids, as
// a flat array. Whatever the keys, both must answer as a std::unordered_map does, including for
// keys outside the range a flat array was built for.

#include "util/idmap.h"

#include <QTest>

#include <algorithm>
#include <random>
#include <unordered_map>
#include <vector>

using namespace fusiondiff;

namespace {

constexpr int64_t kNone = -1;

// Inserts `keys` (values: their index) into `map` and a reference, then checks every key and
// some that were never inserted.
void checkAgainstReference(IdMap& map, const std::vector<int64_t>& keys, const std::vector<int64_t>& absent)
{
    std::unordered_map<int64_t, uint32_t> reference;
    for (size_t i = 0; i < keys.size(); ++i) {
        const uint32_t expected = reference.try_emplace(keys[i], uint32_t(i)).first->second;
        QCOMPARE(map.findOrInsert(keys[i], uint32_t(i)), expected);
    }
    QCOMPARE(map.size(), reference.size());
    for (const auto& [key, value] : reference)
        QCOMPARE(map.find(key), value);
    for (const int64_t key : absent) {
        if (!reference.contains(key))
            QCOMPARE(map.find(key), IdMap::kMissing);
    }
}

IdRange rangeOf(const std::vector<int64_t>& keys)
{
    return idRangeOf(
        keys.size(), [&keys](size_t i) { return keys[i]; }, kNone);
}

} // namespace

class TestIdMap : public QObject
{
    Q_OBJECT

private slots:
    void rangeLeavesOutTheNoneKey()
    {
        const std::vector<int64_t> keys { 7, kNone, 3, 12, kNone };
        const IdRange range = rangeOf(keys);
        QCOMPARE(range.smallest, int64_t(3));
        QCOMPARE(range.largest, int64_t(12));
        QCOMPARE(range.count, size_t(3));
        QCOMPARE(rangeOf({}).count, size_t(0));
    }

    void denseIdsAnswerAsAHashTable()
    {
        // Ids numbered one after the other, some repeated (kernels of one launch), shuffled.
        std::vector<int64_t> keys;
        for (int64_t id = 1'000'000; id < 1'050'000; ++id) {
            keys.push_back(id);
            if (id % 7 == 0)
                keys.push_back(id);
        }
        std::shuffle(keys.begin(), keys.end(), std::mt19937(21));
        const std::vector<int64_t> absent { 0, 999'999, 1'050'000, -5, 1'049'999 };
        IdMap flat(rangeOf(keys));
        checkAgainstReference(flat, keys, absent);
        IdMap hashed(keys.size());
        checkAgainstReference(hashed, keys, absent);
    }

    void sparseIdsAndNegativeIds()
    {
        std::vector<int64_t> keys;
        for (int64_t i = 0; i < 5000; ++i)
            keys.push_back(i * 1'000'003 - 2'000'000'000); // far apart: a hash table
        keys.push_back(-3);
        IdMap map(rangeOf(keys));
        checkAgainstReference(map, keys, { 0, 1, -2'000'000'001 });
    }

    void aKeyOutsideTheRangeStillGoesIn()
    {
        const std::vector<int64_t> inRange { 10, 11, 12, 13 };
        IdMap map(rangeOf(inRange));
        std::vector<int64_t> keys = inRange;
        keys.insert(keys.end(), { 9, 100, -1'000'000'000'000, 11, 1'000'000'000'000 });
        checkAgainstReference(map, keys, { 14, 8, 0 });
        QCOMPARE(map.find(12), uint32_t(2));
    }

    void anEmptyRange()
    {
        IdMap map(IdRange {});
        QCOMPARE(map.find(0), IdMap::kMissing);
        checkAgainstReference(map, { 5, 6, 5 }, { 4, 7 });
    }
};

QTEST_GUILESS_MAIN(TestIdMap)
#include "tst_idmap.moc"
