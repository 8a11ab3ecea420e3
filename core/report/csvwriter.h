#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace fusiondiff {

// Builds RFC 4180 CSV: fields separated by commas, records ended by CRLF, fields holding a comma,
// quote, CR or LF (or leading/trailing spaces) quoted, quotes doubled. Text is UTF-8.
class CsvWriter
{
public:
    CsvWriter& field(std::string_view text);
    CsvWriter& field(const char* text) { return field(std::string_view(text)); }
    CsvWriter& field(const std::string& text) { return field(std::string_view(text)); }
    CsvWriter& field(double number); // shortest round-trip form; "inf" for infinity
    CsvWriter& field(int64_t number);
    CsvWriter& field(uint64_t number);
    CsvWriter& field(uint32_t number) { return field(static_cast<uint64_t>(number)); }
    CsvWriter& field(int number) { return field(static_cast<int64_t>(number)); }
    CsvWriter& empty();
    void endRecord();

    const std::string& text() const { return m_out; }

private:
    void separate();

    std::string m_out;
    bool m_atRecordStart = true;
};

std::string csvQuoted(std::string_view text);

} // namespace fusiondiff
