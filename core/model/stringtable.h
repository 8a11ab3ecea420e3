#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace fusiondiff {

using StringId = uint32_t;

// Interns strings: each distinct string is stored once and named by a small integer id.
// Views returned by get() stay valid for the table's lifetime (the table is move-only).
class StringTable
{
public:
    StringTable();
    StringTable(StringTable&&) noexcept = default;
    StringTable& operator=(StringTable&&) noexcept = default;
    StringTable(const StringTable&) = delete;
    StringTable& operator=(const StringTable&) = delete;

    StringId intern(std::string_view text);
    std::string_view get(StringId id) const { return m_strings[id]; }
    size_t size() const { return m_strings.size(); }
    // Bytes held by the table, for memory accounting.
    size_t memoryUsage() const;

private:
    std::string_view store(std::string_view text);

    std::vector<std::unique_ptr<char[]>> m_blocks;
    size_t m_blockUsed = 0;
    size_t m_blockSize = 0;
    size_t m_bytesAllocated = 0;
    std::vector<std::string_view> m_strings;
    std::unordered_map<std::string_view, StringId> m_index;
};

} // namespace fusiondiff
