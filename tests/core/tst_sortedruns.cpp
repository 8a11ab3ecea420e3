// SortedKind and takeNext (core/util/sortedruns.h): several kinds of events merged in one order as
// a sweep reads them. Whether a kind is read straight from its sources or from a sorted copy, the
// events must come as a sort of all kinds, listed kind by kind, gives them: equal keys kind by
// kind, and within a kind in its sources' order where the sources were in order (a kind out of
// order is sorted as std::sort sorts it, as the analysis always did).

#include "util/sortedruns.h"

#include <QTest>

#include <algorithm>
#include <random>
#include <vector>

using namespace fusiondiff;

namespace {

struct Source
{
    int key = 0;
    bool wanted = true;
};

struct Event
{
    int key = 0;
    int kind = 0;
    size_t index = 0; // in its kind's sources
};

constexpr auto byKey = [](const Event& a, const Event& b) { return a.key < b.key; };

auto kindOf(const std::vector<Source>& sources, int kind, std::vector<size_t>* calls = nullptr)
{
    return sortedKind<Event>(sources, byKey, [kind, calls](const Source& source, size_t index, Event& event) {
        if (calls)
            calls->push_back(index);
        event = { source.key, kind, index };
        return source.wanted;
    });
}

// What takeNext must give: the wanted events of all kinds, kind by kind, stably sorted by key.
std::vector<Event> expected(const std::vector<std::vector<Source>>& kinds)
{
    std::vector<Event> events;
    for (size_t kind = 0; kind < kinds.size(); ++kind) {
        for (size_t i = 0; i < kinds[kind].size(); ++i) {
            if (kinds[kind][i].wanted)
                events.push_back({ kinds[kind][i].key, int(kind), i });
        }
    }
    std::stable_sort(events.begin(), events.end(), byKey);
    return events;
}

void checkMerge(const std::vector<std::vector<Source>>& kinds)
{
    auto first = kindOf(kinds[0], 0);
    auto second = kindOf(kinds[1], 1);
    auto third = kindOf(kinds[2], 2);
    first.prepare();
    second.prepare();
    third.prepare();
    const std::vector<Event> want = expected(kinds);
    QCOMPARE(first.size() + second.size() + third.size(), want.size());
    std::vector<Event> got;
    for (Event event; takeNext(event, byKey, first, second, third);)
        got.push_back(event);
    QCOMPARE(got.size(), want.size());
    const auto inOrder = [](const std::vector<Source>& kind) {
        return std::is_sorted(kind.begin(), kind.end(), [](const Source& a, const Source& b) { return a.key < b.key; });
    };
    for (size_t i = 0; i < want.size(); ++i) {
        QCOMPARE(got[i].key, want[i].key);
        QCOMPARE(got[i].kind, want[i].kind);
        if (inOrder(kinds[size_t(want[i].kind)]))
            QCOMPARE(got[i].index, want[i].index);
    }
}

} // namespace

class TestSortedRuns : public QObject
{
    Q_OBJECT

private slots:
    void equalKeysComeKindByKind()
    {
        // Sorted kinds, read straight from their sources; key 2 is in all three.
        checkMerge({ { { 1 }, { 2 }, { 2 } }, { { 2 }, { 3 } }, { { 0 }, { 2 }, { 4 } } });
    }

    void unwantedSourcesAreSkipped()
    {
        checkMerge({ { { 1 }, { 5, false }, { 2 } }, { { 9, false } }, { { 0, false }, { 3 } } });
    }

    void aKindOutOfOrderIsSorted()
    {
        // The second kind is out of order: read from a sorted copy, merged the same way.
        checkMerge({ { { 1 }, { 4 } }, { { 3 }, { 0 }, { 4 }, { 2, false } }, {} });
    }

    void randomKindsMergeAsSortedKindByKind()
    {
        std::mt19937 random(21);
        for (int round = 0; round < 50; ++round) {
            std::vector<std::vector<Source>> kinds(3);
            for (std::vector<Source>& kind : kinds) {
                kind.resize(random() % 40);
                for (Source& source : kind)
                    source = { int(random() % 12), random() % 5 != 0 };
                // Half the kinds in order, as traces mostly list them.
                if (random() % 2)
                    std::stable_sort(
                        kind.begin(), kind.end(), [](const Source& a, const Source& b) { return a.key < b.key; });
            }
            checkMerge(kinds);
        }
    }

    void prepareVisitsEverySourceInOrder()
    {
        // The host timeline names its codes as prepare() reaches each event: in the sources' order.
        const std::vector<Source> sources { { 3 }, { 1 }, { 2, false } };
        std::vector<size_t> calls;
        auto kind = kindOf(sources, 0, &calls);
        kind.prepare();
        QCOMPARE(std::vector<size_t>(calls.begin(), calls.begin() + 3), (std::vector<size_t> { 0, 1, 2 }));
        QCOMPARE(kind.size(), size_t(2));
        QCOMPARE(kind.front().key, 1);
    }
};

QTEST_GUILESS_MAIN(TestSortedRuns)
#include "tst_sortedruns.moc"
