#pragma once

#include <cstdint>
#include <limits>
#include <vector>

namespace fusiondiff {

// Maps 64-bit ids (correlation ids, External ids) to 32-bit values with open addressing: several
// times faster than std::unordered_map on the millions of ids of a large trace.
class IdMap
{
public:
    static constexpr uint32_t kMissing = std::numeric_limits<uint32_t>::max();

    explicit IdMap(size_t expectedSize = 16)
    {
        size_t capacity = 16;
        while (capacity < expectedSize * 2)
            capacity *= 2;
        m_slots.assign(capacity, Slot {});
    }

    uint32_t find(int64_t key) const
    {
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
};

} // namespace fusiondiff
