#pragma once

#include <cstdint>
#include <string>

namespace fusiondiff {

class InputWindow;

// JSON's four whitespace bytes (RFC 8259); `c` may be a char or JsonCursor::kEnd.
inline bool isJsonWhitespace(int c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

// Byte-level reading of the few JSON values around a trace's event array: the top-level object's
// keys and its small values (deviceProperties, roctracer_version, metadata...). Everything is
// streamed through the InputWindow, so a large value that nobody needs costs no memory.
// Errors are thrown as InputError naming the file and the byte offset.
class JsonCursor
{
public:
    JsonCursor(InputWindow& window, std::string path, bool compressed);

    static constexpr int kEnd = -1;
    static constexpr int kMaxDepth = 1024;

    // The next byte without consuming it, or kEnd once the data is exhausted.
    int peek();
    int skipWhitespace();
    // Skips a UTF-8 byte-order mark (EF BB BF) at the cursor, as Windows tools write at the start of
    // a file; returns whether there was one.
    bool skipByteOrderMark();
    void advance(size_t count = 1);
    uint64_t offset() const;

    // Reads a string at the cursor (which must be at its opening quote) and decodes it.
    std::string readString();
    // Skips one JSON value of any size, checking its structure.
    void skipValue();
    // Returns the raw text of one JSON value; values longer than `maxBytes` are skipped and
    // returned empty.
    std::string captureValue(size_t maxBytes);

    [[noreturn]] void fail(const std::string& reason) const;
    [[noreturn]] void failAt(const std::string& reason, uint64_t offset) const;
    // Describes the byte at the cursor for messages: 'x', "byte 0x00" or "the end of the file".
    std::string describeNext();

    InputWindow& window() { return m_window; }

private:
    void walkValue(std::string* capture, size_t maxBytes);
    void walkString(std::string* capture);
    void walkScalar(std::string* capture);

    InputWindow& m_window;
    std::string m_path;
    bool m_compressed;
};

} // namespace fusiondiff
