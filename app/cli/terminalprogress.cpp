#include "terminalprogress.h"

#include <cstdio>
#include <unistd.h>

namespace fusiondiff::cli {

TerminalProgress::TerminalProgress(std::vector<std::string> names, bool enabled)
    : m_names(std::move(names))
    , m_fractions(m_names.size(), 0.0)
    , m_enabled(enabled && ::isatty(STDERR_FILENO))
{ }

TerminalProgress::~TerminalProgress()
{
    finish();
}

void TerminalProgress::update(size_t item, uint64_t done, uint64_t total)
{
    if (!m_enabled || item >= m_fractions.size())
        return;
    m_fractions[item] = total > 0 ? static_cast<double>(done) / static_cast<double>(total) : 1.0;
    const auto now = std::chrono::steady_clock::now();
    if (m_drawn && now - m_lastDraw < std::chrono::milliseconds(100))
        return;
    m_lastDraw = now;
    draw();
}

void TerminalProgress::draw()
{
    std::string line = "\rloading";
    for (size_t i = 0; i < m_names.size(); ++i)
        line += "  " + m_names[i] + " " + std::to_string(static_cast<int>(m_fractions[i] * 100)) + "%";
    std::fputs(line.c_str(), stderr);
    std::fflush(stderr);
    m_drawn = true;
}

void TerminalProgress::finish()
{
    if (m_drawn) {
        std::fputs("\r\033[K", stderr);
        std::fflush(stderr);
        m_drawn = false;
    }
}

} // namespace fusiondiff::cli
