#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace fusiondiff {

// Decodes the JSON string whose first character (after the opening quote) is at `raw`, up to
// its closing quote, which must lie before `limit`. Returns a view into the input when the
// string has no escapes, else a view into `scratch`. Sets `ok` to false for unterminated
// strings, invalid escapes and raw control characters.
std::string_view decodeJsonString(const char* raw, const char* limit, std::string& scratch, bool& ok);

// True if the JSON text nests arrays and objects deeper than `limit` levels (strings are skipped).
bool nestsDeeperThan(std::string_view json, size_t limit);

// Decodes the content of a JSON string whose extent is known (the bytes between its quotes, as
// simdjson's token gives them): a view into `content` when it has no escapes, the common case,
// found without scanning byte by byte; else the decoded text in `scratch`. Sets `ok` to false for
// invalid escapes and raw control characters.
std::string_view decodeJsonStringContent(std::string_view content, std::string& scratch, bool& ok);

// Offset of the first byte that is not valid UTF-8, or `text.size()` if all of it is valid.
size_t firstInvalidUtf8(std::string_view text);

} // namespace fusiondiff
