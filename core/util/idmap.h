#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace fusiondiff {

// The keys a map will hold, when they are known beforehand: their smallest, their largest and
// how many there are.
struct IdRange
{
    int64_t smallest = 0;
    int64_t largest = -1;
    size_t count = 0;
};

// The range of `keyOf(i)` for i < count, leaving out the keys equal to `none`.
template<typename KeyOf>
IdRange idRangeOf(size_t count, KeyOf&& keyOf, int64_t none)
{
    IdRange range { std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::min(), 0 };
    for (size_t i = 0; i < count; ++i) {
        const int64_t key = keyOf(i);
        if (key == none)
            continue;
        range.smallest = std::min(range.smallest, key);
        range.largest = std::max(range.largest, key);
        ++range.count;
    }
    return range;
}

// The range of each event's `id` (a member such as &RuntimeEvent::correlation), leaving out `none`.
template<typename Event, typename Id>
IdRange idRangeOf(const std::vector<Event>& events, Id Event::*id, int64_t none)
{
    return idRangeOf(
        events.size(), [&](size_t i) { return int64_t(events[i].*id); }, none);
}

// Maps 64-bit ids (correlation ids, External ids) to 32-bit values with open addressing: several
// times faster than std::unordered_map on the millions of ids of a large trace. Built for an
// IdRange whose keys are dense, as one trace's ids mostly are (numbered one after the other), it
// is a flat array indexed by key instead: a quarter of the memory at most, and keys that follow
// one another sit side by side instead of being spread over the table.
class IdMap
{
public:
    static constexpr uint32_t kMissing = std::numeric_limits<uint32_t>::max();

    explicit IdMap(size_t expectedSize = 16) { allocateSlots(expectedSize); }

    explicit IdMap(const IdRange& range)
    {
        // 0 where there are no keys, or where the keys span all 64 bits and it wrapped.
        const uint64_t span = range.count == 0 ? 0 : uint64_t(range.largest) - uint64_t(range.smallest) + 1;
        if (span > 0 && span <= kDenseSpanPerKey * range.count && span < kMissing) {
            m_smallest = range.smallest;
            m_dense.assign(size_t(span), kMissing);
            m_isDense = true;
        } else {
            allocateSlots(range.count);
        }
    }

    uint32_t find(int64_t key) const
    {
        if (m_isDense)
            return inDenseRange(key) ? m_dense[size_t(uint64_t(key) - uint64_t(m_smallest))] : kMissing;
        for (size_t i = slotOf(key);; i = (i + 1) & mask()) {
            const Slot& slot = m_slots[i];
            if (slot.value == kMissing)
                return kMissing;
            if (slot.key == key)
                return slot.value;
        }
    }

    // Returns the value stored for `key`, storing `value` first if there is none.
    uint32_t findOrInsert(int64_t key, uint32_t value)
    {
        if (m_isDense) {
            if (inDenseRange(key)) {
                uint32_t& stored = m_dense[size_t(uint64_t(key) - uint64_t(m_smallest))];
                if (stored == kMissing) {
                    stored = value;
                    ++m_size;
                }
                return stored;
            }
            toHashTable(); // a key outside the range it was built for
        }
        if ((m_size + 1) * 2 > m_slots.size())
            rehash(m_slots.size() * 2);
        for (size_t i = slotOf(key);; i = (i + 1) & mask()) {
            Slot& slot = m_slots[i];
            if (slot.value == kMissing) {
                slot = { key, value };
                ++m_size;
                return value;
            }
            if (slot.key == key)
                return slot.value;
        }
    }

    size_t size() const { return m_size; }

private:
    struct Slot
    {
        int64_t key = 0;
        uint32_t value = kMissing;
    };

    static constexpr uint64_t kDenseSpanPerKey = 4; // 4 bytes a key in the span, 16 a slot and 2+ slots a key

    void allocateSlots(size_t expectedSize)
    {
        size_t capacity = 16;
        while (capacity < expectedSize * 2)
            capacity *= 2;
        m_slots.assign(capacity, Slot {});
    }

    bool inDenseRange(int64_t key) const
    {
        return key >= m_smallest && uint64_t(key) - uint64_t(m_smallest) < m_dense.size();
    }

    void toHashTable()
    {
        std::vector<uint32_t> dense;
        dense.swap(m_dense);
        m_isDense = false;
        allocateSlots(m_size + 1);
        m_size = 0;
        for (size_t i = 0; i < dense.size(); ++i) {
            if (dense[i] != kMissing)
                findOrInsert(int64_t(uint64_t(m_smallest) + i), dense[i]);
        }
    }

    size_t mask() const { return m_slots.size() - 1; }
    size_t slotOf(int64_t key) const
    {
        // Fibonacci hashing spreads consecutive ids over the table.
        return static_cast<size_t>((static_cast<uint64_t>(key) * 0x9E3779B97F4A7C15ull) >> 20) & mask();
    }

    void rehash(size_t capacity)
    {
        std::vector<Slot> old;
        old.swap(m_slots);
        m_slots.assign(capacity, Slot {});
        m_size = 0;
        for (const Slot& slot : old) {
            if (slot.value != kMissing)
                findOrInsert(slot.key, slot.value);
        }
    }

    std::vector<Slot> m_slots;
    size_t m_size = 0;
    bool m_isDense = false;
    int64_t m_smallest = 0; // the key of m_dense[0]
    std::vector<uint32_t> m_dense; // by key - m_smallest: its value, kMissing if none
};

} // namespace fusiondiff
