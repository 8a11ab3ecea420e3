#include "load/rawnametable.h"

#include <cstring>

namespace fusiondiff {

namespace {

constexpr size_t kFirstSlots = 256; // a power of two

uint64_t wordAt(std::string_view text, size_t at)
{
    uint64_t value = 0;
    std::memcpy(&value, text.data() + at, sizeof value);
    return value;
}

uint64_t mix(uint64_t hash, uint64_t word)
{
    return (hash ^ word) * 0xFF51AFD7ED558CCDull + (hash >> 29);
}

} // namespace

RawNameTable::RawNameTable()
    : m_slots(kFirstSlots)
{ }

uint64_t RawNameTable::hash(std::string_view text)
{
    const size_t size = text.size();
    uint64_t hash = (size + 1) * 0x9E3779B97F4A7C15ull;
    if (size < 8) {
        uint64_t word = 0;
        if (size > 0)
            std::memcpy(&word, text.data(), size);
        hash = mix(hash, word);
    } else if (size < 32) {
        for (const size_t at : { size_t(0), size / 2 - 4, size - 8 })
            hash = mix(hash, wordAt(text, at));
    } else {
        for (const size_t at : { size_t(0), size / 2, size - 24, size - 16, size - 8 })
            hash = mix(hash, wordAt(text, at));
    }
    // The slot is taken from the low bits: fold the high ones in.
    hash ^= hash >> 32;
    hash *= 0xC4CEB9FE1A85EC53ull;
    return hash ^ (hash >> 29);
}

const uint32_t* RawNameTable::find(std::string_view raw) const
{
    const uint64_t wanted = hash(raw);
    const size_t mask = m_slots.size() - 1;
    for (size_t at = wanted & mask;; at = (at + 1) & mask) {
        const Slot& slot = m_slots[at];
        if (!slot.text)
            return nullptr;
        if (slot.hash == wanted && slot.size == raw.size()
            && (raw.empty() || std::memcmp(slot.text, raw.data(), raw.size()) == 0))
            return &slot.value;
    }
}

void RawNameTable::insert(std::string_view raw, uint32_t value)
{
    if ((m_names.size() + 1) * 2 > m_slots.size())
        grow();
    const std::string& stored = m_names.emplace_back(raw);
    const uint64_t slotHash = hash(raw);
    const size_t mask = m_slots.size() - 1;
    size_t at = slotHash & mask;
    while (m_slots[at].text)
        at = (at + 1) & mask;
    m_slots[at] = { slotHash, stored.data(), static_cast<uint32_t>(stored.size()), value };
}

void RawNameTable::grow()
{
    std::vector<Slot> old(m_slots.size() * 2);
    old.swap(m_slots);
    const size_t mask = m_slots.size() - 1;
    for (const Slot& slot : old) {
        if (!slot.text)
            continue;
        size_t at = slot.hash & mask;
        while (m_slots[at].text)
            at = (at + 1) & mask;
        m_slots[at] = slot;
    }
}

} // namespace fusiondiff
