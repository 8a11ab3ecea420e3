#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace fusiondiff::cli {

// A one-line progress display on stderr, redrawn at most ten times a second, and only when stderr
// is a terminal (scripts and logs get no control characters).
class TerminalProgress
{
public:
    TerminalProgress(std::vector<std::string> names, bool enabled);
    ~TerminalProgress();

    void update(size_t item, uint64_t done, uint64_t total);
    void finish();

private:
    void draw();

    std::vector<std::string> m_names;
    std::vector<double> m_fractions;
    bool m_enabled;
    bool m_drawn = false;
    std::chrono::steady_clock::time_point m_lastDraw;
};

} // namespace fusiondiff::cli
