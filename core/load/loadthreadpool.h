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
// that together they never parse on more threads than the user allows (or than traces are read at
// once). Jobs run in the order they were submitted.
//
// A thread that reads a trace takes one of the pool's places while it loads (ReaderSlot). While
// readers hold every place (two traces at once on two cores), each parses its own chunks, right
// after reading them (trySubmit fails); handing them to the pool's threads cost about a tenth more
// CPU on two equal traces, the bytes moving from core to core (docs/performance.md, eleventh round).
// Once a place is free (the small trace of a pair has loaded, or there are more cores than traces),
// chunks go to the pool and the reader only reads, cuts and merges: a reader that also parsed some
// was measured slower there, the pool's threads waiting for it to cut the next chunk.
class LoadThreadPool
{
public:
    explicit LoadThreadPool(size_t threads);
    ~LoadThreadPool(); // runs the jobs still queued, then joins
    LoadThreadPool(const LoadThreadPool&) = delete;
    LoadThreadPool& operator=(const LoadThreadPool&) = delete;

    // Holds a place of the pool for a thread that reads a trace, while it exists.
    class ReaderSlot
    {
    public:
        explicit ReaderSlot(LoadThreadPool& pool);
        ~ReaderSlot();
        ReaderSlot(const ReaderSlot&) = delete;
        ReaderSlot& operator=(const ReaderSlot&) = delete;

    private:
        LoadThreadPool& m_pool;
    };

    size_t threads() const { return m_threads.size(); }
    // Queues `job` unless readers hold every place; otherwise returns false, leaving `job` to the
    // caller. `job` must not throw.
    bool trySubmit(std::function<void()>& job);

private:
    void work();

    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::deque<std::function<void()>> m_jobs;
    size_t m_readers = 0; // ReaderSlots held, under the lock
    std::atomic<size_t> m_queued { 0 }; // m_jobs.size(), read without the lock
    std::atomic<bool> m_stop { false }; // set under the lock, read without it while waiting awake
    static constexpr std::chrono::microseconds kSpinBeforeSleep { 200 };
    std::vector<std::thread> m_threads;
};

// The parsing threads for a setting: `requested`, or the machine's cores when it is 0.
size_t loadThreadsFor(size_t requested);

} // namespace fusiondiff
