#include "load/inputwindow.h"

#include "load/bytereader.h"

#include <algorithm>
#include <cstring>
#include <simdjson.h>

namespace fusiondiff {

namespace {
// One spare byte in front of the data; behind it simdjson's padding plus two bytes that a parser
// may overwrite to close a document ("] ") when it ends exactly at the end of the data.
constexpr size_t kFrontSlot = 1;
constexpr size_t kBackSlack = simdjson::SIMDJSON_PADDING + 8;
} // namespace

InputWindow::InputWindow(ByteReader& reader, size_t capacity)
    : m_reader(reader)
{
    allocate(capacity);
}

InputWindow::~InputWindow() = default;

void InputWindow::allocate(size_t capacity)
{
    std::unique_ptr<char[]> buffer(new char[kFrontSlot + capacity + kBackSlack]);
    const size_t kept = size();
    if (kept > 0)
        std::memcpy(buffer.get() + kFrontSlot, begin(), kept);
    std::memset(buffer.get() + kFrontSlot + capacity, 0, kBackSlack);
    m_buffer = std::move(buffer);
    m_capacity = capacity;
    m_begin = kFrontSlot;
    m_end = kFrontSlot + kept;
}

size_t InputWindow::bytesUntilAllocationEnd() const
{
    return kFrontSlot + m_capacity + kBackSlack - m_begin;
}

bool InputWindow::refill()
{
    if (m_begin != kFrontSlot) {
        const size_t kept = size();
        std::memmove(m_buffer.get() + kFrontSlot, begin(), kept);
        m_begin = kFrontSlot;
        m_end = kFrontSlot + kept;
    }
    const size_t before = m_end;
    while (!m_exhausted && m_end < kFrontSlot + m_capacity) {
        const size_t got = m_reader.read(m_buffer.get() + m_end, kFrontSlot + m_capacity - m_end);
        if (got == 0)
            m_exhausted = true;
        m_end += got;
    }
    return m_end > before;
}

bool InputWindow::grow(size_t limit)
{
    if (m_capacity >= limit)
        return false;
    allocate(std::min(limit, m_capacity * 2));
    refill();
    return true;
}

bool InputWindow::ensure(size_t count)
{
    while (size() < count && !m_exhausted) {
        if (count > m_capacity)
            allocate(count);
        refill();
    }
    return size() >= count;
}

void InputWindow::unread(std::string_view bytes)
{
    if (bytes.size() <= m_begin - kFrontSlot) {
        m_begin -= bytes.size();
    } else {
        const size_t kept = size();
        const size_t capacity = std::max(m_capacity, bytes.size() + kept);
        std::unique_ptr<char[]> buffer(new char[kFrontSlot + capacity + kBackSlack]);
        std::memcpy(buffer.get() + kFrontSlot + bytes.size(), begin(), kept);
        std::memset(buffer.get() + kFrontSlot + capacity, 0, kBackSlack);
        m_buffer = std::move(buffer);
        m_capacity = capacity;
        m_begin = kFrontSlot;
        m_end = kFrontSlot + bytes.size() + kept;
    }
    std::memcpy(begin(), bytes.data(), bytes.size());
    m_offset -= bytes.size();
}

size_t InputWindow::allocationSize() const
{
    return kFrontSlot + m_capacity + kBackSlack;
}

std::unique_ptr<char[]> InputWindow::detachFront(
    size_t count, std::unique_ptr<char[]> spare, char*& data, size_t& bytesAfterData)
{
    if (!spare) {
        spare.reset(new char[allocationSize()]);
        std::memset(spare.get() + kFrontSlot + m_capacity, 0, kBackSlack);
    }
    data = begin();
    bytesAfterData = bytesUntilAllocationEnd();
    const size_t rest = size() - count;
    std::memcpy(spare.get() + kFrontSlot, begin() + count, rest);
    std::unique_ptr<char[]> detached = std::move(m_buffer);
    m_buffer = std::move(spare);
    m_begin = kFrontSlot;
    m_end = kFrontSlot + rest;
    m_offset += count;
    return detached;
}

void InputWindow::consume(size_t count)
{
    m_begin += count;
    m_offset += count;
}

} // namespace fusiondiff
