#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

namespace fusiondiff {

class ByteReader;

// A sliding window over a ByteReader's data: a contiguous run of unconsumed bytes, followed by the
// padding simdjson needs and preceded by one spare byte that a parser may overwrite (the loader
// puts a '[' there to turn a run of events into one JSON array). Memory is bounded by the window's
// capacity, which only grows when a single JSON value is larger than it.
class InputWindow
{
public:
    InputWindow(ByteReader& reader, size_t capacity);
    ~InputWindow();

    char* begin() { return m_buffer.get() + m_begin; }
    const char* begin() const { return m_buffer.get() + m_begin; }
    size_t size() const { return m_end - m_begin; }
    bool empty() const { return m_begin == m_end; }
    // Absolute offset of begin() in the (decompressed) data.
    uint64_t offset() const { return m_offset; }
    // True once the reader has nothing more: the window then holds all that is left.
    bool exhausted() const { return m_exhausted; }
    size_t capacity() const { return m_capacity; }
    // Bytes from begin() to the end of the allocation, padding included.
    size_t bytesUntilAllocationEnd() const;

    // Moves the unconsumed bytes to the front and reads until the window is full or the data ends.
    // Returns true if it added bytes.
    bool refill();
    // Doubles the capacity (up to `limit`), then refills; returns false if already at the limit.
    bool grow(size_t limit);
    // Makes sure that at least `count` bytes are available unless the data ends first.
    bool ensure(size_t count);
    void consume(size_t count);
    // Puts back in front of begin() bytes consumed before it (`bytes` are the data just before
    // begin(), as read): a parallel reader that cut ahead returns what it read too far.
    void unread(std::string_view bytes);
    // Hands the first `count` bytes over without copying them: returns the allocation that holds
    // them at `data` (with a spare byte before and `bytesAfterData` allocated from `data` on,
    // simdjson's padding included) and goes on in `spare`, an allocation of allocationSize() (a new
    // one if null), into which the bytes after them are moved.
    std::unique_ptr<char[]> detachFront(
        size_t count, std::unique_ptr<char[]> spare, char*& data, size_t& bytesAfterData);
    size_t allocationSize() const;

private:
    void allocate(size_t capacity);

    ByteReader& m_reader;
    std::unique_ptr<char[]> m_buffer;
    size_t m_capacity = 0;
    size_t m_begin = 1;
    size_t m_end = 1;
    uint64_t m_offset = 0;
    bool m_exhausted = false;
};

} // namespace fusiondiff
