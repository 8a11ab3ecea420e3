#pragma once

#include <cstddef>
#include <exception>
#include <system_error>
#include <thread>

namespace fusiondiff {

// Runs `work(0)` and `work(1)`: at once, side 1 on a thread of its own, when `parallel`, else one
// after the other. Each call may read what both sides share but writes only its own side's data,
// so that the results are the same either way. Once both have ended, side 0's exception is
// rethrown if it threw, else side 1's.
template<typename Work>
void forBothSides(bool parallel, Work&& work)
{
    if (!parallel) {
        work(size_t(0));
        work(size_t(1));
        return;
    }
    std::exception_ptr failures[2];
    const auto runSide = [&](size_t side) {
        try {
            work(side);
        } catch (...) {
            failures[side] = std::current_exception();
        }
    };
    std::thread second;
    try {
        second = std::thread(runSide, size_t(1));
    } catch (const std::system_error&) {
        // No thread to be had (a process limit): the same work, one side after the other.
    }
    runSide(0);
    if (second.joinable())
        second.join();
    else
        runSide(1);
    for (const std::exception_ptr& failure : failures) {
        if (failure)
            std::rethrow_exception(failure);
    }
}

// Whether the analysis runs the two traces' sides at once: `threads` is the setting (0: the
// machine's cores), and one core or a setting of 1 means one thread.
inline bool analyzeSidesInParallel(size_t threads)
{
    return threads != 1 && std::thread::hardware_concurrency() > 1;
}

} // namespace fusiondiff
