#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace fusiondiff {

// Number formatting as Python's format specs do it, so that evidence texts match the seed's:
// fixed(2.25, 1) == "2.2" (round half to even on the binary value, like "{:.1f}"),
// withThousands(12345) == "12,345" (like "{:,}").
std::string fixed(double value, int decimals);
std::string withThousands(int64_t value);
// withThousands of a count.
std::string countWithThousands(uint64_t value);
// `text` with spaces in front up to `width` bytes.
std::string padLeft(const std::string& text, size_t width);

// Shortest text that reads back as the same double ("0.1", "1e+16", "3"), for JSON and CSV.
std::string shortestDouble(double value);

// "853 us", "12.4 ms", "3.21 s"
std::string formatDuration(double microseconds);

// Ascending numbers with consecutive runs joined by an en dash: {1, 2, 3, 5} -> "1–3, 5".
std::string numberRanges(const std::vector<uint32_t>& numbers);

} // namespace fusiondiff
