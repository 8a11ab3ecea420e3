#include "report/csvwriter.h"

#include "util/textformat.h"

#include <cmath>

namespace fusiondiff {

std::string csvQuoted(std::string_view text)
{
    const bool needsQuotes = text.find_first_of(",\"\r\n") != std::string_view::npos
        || (!text.empty() && (text.front() == ' ' || text.back() == ' '));
    if (!needsQuotes)
        return std::string(text);
    std::string out = "\"";
    for (const char c : text) {
        if (c == '"')
            out.push_back('"');
        out.push_back(c);
    }
    out.push_back('"');
    return out;
}

void CsvWriter::separate()
{
    if (!m_atRecordStart)
        m_out.push_back(',');
    m_atRecordStart = false;
}

CsvWriter& CsvWriter::field(std::string_view text)
{
    separate();
    m_out += csvQuoted(text);
    return *this;
}

CsvWriter& CsvWriter::field(double number)
{
    separate();
    if (std::isinf(number))
        m_out += number > 0 ? "inf" : "-inf";
    else if (std::isnan(number))
        m_out += "nan";
    else
        m_out += shortestDouble(number);
    return *this;
}

CsvWriter& CsvWriter::field(int64_t number)
{
    separate();
    m_out += std::to_string(number);
    return *this;
}

CsvWriter& CsvWriter::field(uint64_t number)
{
    separate();
    m_out += std::to_string(number);
    return *this;
}

CsvWriter& CsvWriter::empty()
{
    separate();
    return *this;
}

void CsvWriter::endRecord()
{
    m_out += "\r\n";
    m_atRecordStart = true;
}

} // namespace fusiondiff
