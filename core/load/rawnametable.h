#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

namespace fusiondiff {

// Event names as they appear in the file (between the quotes, still escaped) -> a value (the
// interned id of what the name decodes to). A trace repeats a few thousand names over a million
// events: looking the raw name up here spares decoding and interning it again. Open addressing in
// a power-of-two table, so a lookup is one hash, usually one slot and one compare of the name; the
// hash reads the length and a few words of the name, its end most of all (a Python frame's line
// number and function).
class RawNameTable
{
public:
    RawNameTable();

    // The value stored for `raw`, or nullptr.
    const uint32_t* find(std::string_view raw) const;
    // Stores `value` for `raw`, which must not be in the table yet.
    void insert(std::string_view raw, uint32_t value);
    size_t size() const { return m_names.size(); }

    static uint64_t hash(std::string_view text);

private:
    struct Slot
    {
        uint64_t hash = 0;
        const char* text = nullptr; // null: empty slot
        uint32_t size = 0;
        uint32_t value = 0;
    };
    void grow();

    std::vector<Slot> m_slots;
    std::deque<std::string> m_names; // the slots' texts (a deque never moves its elements)
};

} // namespace fusiondiff
