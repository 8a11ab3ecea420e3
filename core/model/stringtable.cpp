#include "model/stringtable.h"

#include <cstring>

namespace fusiondiff {

namespace {
constexpr size_t kBlockSize = size_t(64) * 1024;
}

StringTable::StringTable()
{
    intern({}); // id 0 is the empty string
}

StringId StringTable::intern(std::string_view text)
{
    const auto found = m_index.find(text);
    if (found != m_index.end())
        return found->second;
    const auto id = static_cast<StringId>(m_strings.size());
    const std::string_view stored = store(text);
    m_strings.push_back(stored);
    m_index.emplace(stored, id);
    return id;
}

std::string_view StringTable::store(std::string_view text)
{
    if (text.empty())
        return {};
    if (text.size() > kBlockSize / 4) {
        // Long strings get a block of their own so that they do not waste the current one.
        auto block = std::make_unique<char[]>(text.size());
        std::memcpy(block.get(), text.data(), text.size());
        m_bytesAllocated += text.size();
        const std::string_view stored(block.get(), text.size());
        m_blocks.insert(m_blocks.end() - (m_blocks.empty() ? 0 : 1), std::move(block));
        return stored;
    }
    if (m_blocks.empty() || m_blockUsed + text.size() > m_blockSize) {
        m_blocks.push_back(std::make_unique<char[]>(kBlockSize));
        m_blockSize = kBlockSize;
        m_blockUsed = 0;
        m_bytesAllocated += kBlockSize;
    }
    char* destination = m_blocks.back().get() + m_blockUsed;
    std::memcpy(destination, text.data(), text.size());
    m_blockUsed += text.size();
    return { destination, text.size() };
}

size_t StringTable::memoryUsage() const
{
    return m_bytesAllocated + m_strings.capacity() * sizeof(std::string_view)
        + m_index.size() * (sizeof(std::string_view) + sizeof(StringId) + 2 * sizeof(void*));
}

} // namespace fusiondiff
