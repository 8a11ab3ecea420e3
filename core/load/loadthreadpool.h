#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace fusiondiff {

// The threads that parse chunks of event arrays, shared by the traces loaded at the same time so
// that together they never parse on more threads than the user allows. Jobs run in the order they
// were submitted.
class LoadThreadPool
{
public:
    explicit LoadThreadPool(size_t threads);
    ~LoadThreadPool(); // runs the jobs still queued, then joins
    LoadThreadPool(const LoadThreadPool&) = delete;
    LoadThreadPool& operator=(const LoadThreadPool&) = delete;

    size_t threads() const { return m_threads.size(); }
    // `job` must not throw.
    void submit(std::function<void()> job);

private:
    void work();

    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::deque<std::function<void()>> m_jobs;
    std::atomic<size_t> m_queued { 0 }; // m_jobs.size(), read without the lock
    std::atomic<bool> m_stop { false }; // set under the lock, read without it while waiting awake
    static constexpr std::chrono::microseconds kSpinBeforeSleep { 200 };
    std::vector<std::thread> m_threads;
};

// The parsing threads for a setting: `requested`, or the machine's cores when it is 0.
size_t loadThreadsFor(size_t requested);

} // namespace fusiondiff
