#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>
#include <span>
#include <utility>
#include <vector>

namespace fusiondiff {

// Sorts [first, last) where it is out of order: traces list most things in order already, and the
// check is one pass where the sort is several.
template<typename It, typename Less = std::less<>>
void sortWhereOutOfOrder(It first, It last, Less less = {})
{
    if (!std::is_sorted(first, last, less))
        std::sort(first, last, less);
}

// The same, equivalent items kept in their order.
template<typename It, typename Less = std::less<>>
void stableSortWhereOutOfOrder(It first, It last, Less less = {})
{
    if (!std::is_sorted(first, last, less))
        std::stable_sort(first, last, less);
}

// For items appended kind by kind (operators, then modules, then calls, ...), each kind mostly in
// order already as traces list them: sorts the run items[runBegin, end) where it is not sorted (a
// check, not a sort) and merges it into items[0, runBegin), sorted already. Much cheaper than
// sorting everything at once, and the same order: the merge is stable.
template<typename T, typename Less = std::less<>>
void mergeSortedRun(std::vector<T>& items, size_t runBegin, Less less = {})
{
    const auto first = items.begin() + std::ptrdiff_t(runBegin);
    sortWhereOutOfOrder(first, items.end(), less);
    if (runBegin > 0)
        std::inplace_merge(items.begin(), first, items.end(), less);
}

// One kind of events (operators, Python frames, runtime calls, ...) in `Less` order, for a sweep
// that merges several kinds as it reads them (takeNext): read straight from `sources` where they
// are in that order already, as traces mostly list them, else copied and sorted, so that millions
// of events are not copied to be merged. `toEvent(source, index, event)` fills `event` from
// sources[index] and says whether it is one of the events wanted. prepare() calls it once for
// every source, in order, before the sweep reads any; reading calls it again where the kind is
// read straight from the sources.
template<typename Event, typename Less, typename Source, typename ToEvent>
class SortedKind
{
public:
    SortedKind(std::span<const Source> sources, Less less, ToEvent toEvent)
        : m_sources(sources)
        , m_less(std::move(less))
        , m_toEvent(std::move(toEvent))
    { }

    // Checks the order (a pass, not a sort), and sorts a copy where it is not the sweep's.
    void prepare()
    {
        Event event {}, previous {};
        bool inOrder = true;
        for (size_t i = 0; i < m_sources.size(); ++i) {
            if (!m_toEvent(m_sources[i], i, event))
                continue;
            if (m_count > 0 && m_less(event, previous))
                inOrder = false;
            previous = event;
            ++m_count;
        }
        if (!inOrder) {
            m_sorted.reserve(m_count);
            for (size_t i = 0; i < m_sources.size(); ++i) {
                if (m_toEvent(m_sources[i], i, event))
                    m_sorted.push_back(event);
            }
            std::sort(m_sorted.begin(), m_sorted.end(), m_less);
        }
        m_readsSources = inOrder;
        m_next = 0;
        advance();
    }

    size_t size() const { return m_count; } // the events wanted
    bool empty() const { return !m_hasFront; }
    const Event& front() const { return m_front; }
    void pop() { advance(); }

private:
    void advance()
    {
        if (!m_readsSources) {
            m_hasFront = m_next < m_sorted.size();
            if (m_hasFront)
                m_front = m_sorted[m_next++];
            return;
        }
        while (m_next < m_sources.size()) {
            const size_t i = m_next++;
            if (m_toEvent(m_sources[i], i, m_front)) {
                m_hasFront = true;
                return;
            }
        }
        m_hasFront = false;
    }

    std::span<const Source> m_sources;
    Less m_less;
    ToEvent m_toEvent;
    size_t m_count = 0;
    bool m_readsSources = true;
    std::vector<Event> m_sorted; // where the sources' order is not the sweep's
    size_t m_next = 0; // into m_sources, or into m_sorted
    Event m_front {};
    bool m_hasFront = false;
};

template<typename Event, typename Source, typename Less, typename ToEvent>
SortedKind<Event, Less, Source, ToEvent> sortedKind(const std::vector<Source>& sources, Less less, ToEvent toEvent)
{
    return { std::span<const Source>(sources), std::move(less), std::move(toEvent) };
}

template<typename Event, typename Source, typename Less, typename ToEvent>
SortedKind<Event, Less, Source, ToEvent> sortedKind(std::span<const Source> sources, Less less, ToEvent toEvent)
{
    return { sources, std::move(less), std::move(toEvent) };
}

// Takes the next event of the prepared `kinds` in `less` order: where two kinds' next events are
// equivalent, the one of the kind listed first, as stable merges of the kinds in that order would.
// False once all are read.
template<typename Event, typename Less, typename... Kinds>
bool takeNext(Event& event, const Less& less, Kinds&... kinds)
{
    const Event* first = nullptr;
    size_t firstKind = 0;
    size_t kind = 0;
    const auto consider = [&](const auto& candidate) {
        if (!candidate.empty() && (!first || less(candidate.front(), *first))) {
            first = &candidate.front();
            firstKind = kind;
        }
        ++kind;
    };
    (consider(kinds), ...);
    if (!first)
        return false;
    event = *first;
    kind = 0;
    ((kind++ == firstKind ? kinds.pop() : void()), ...);
    return true;
}

} // namespace fusiondiff
