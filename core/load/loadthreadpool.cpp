#include "load/loadthreadpool.h"

namespace fusiondiff {

LoadThreadPool::LoadThreadPool(size_t threads)
{
    m_threads.reserve(threads);
    for (size_t i = 0; i < threads; ++i)
        m_threads.emplace_back([this] { work(); });
}

LoadThreadPool::~LoadThreadPool()
{
    {
        const std::lock_guard lock(m_mutex);
        m_stop.store(true, std::memory_order_relaxed);
    }
    m_wake.notify_all();
    for (std::thread& thread : m_threads)
        thread.join();
}

bool LoadThreadPool::trySubmit(std::function<void()>& job)
{
    {
        const std::lock_guard lock(m_mutex);
        if (m_readers >= m_threads.size())
            return false;
        m_jobs.push_back(std::move(job));
        m_queued.fetch_add(1, std::memory_order_release);
    }
    m_wake.notify_one();
    return true;
}

LoadThreadPool::ReaderSlot::ReaderSlot(LoadThreadPool& pool)
    : m_pool(pool)
{
    const std::lock_guard lock(m_pool.m_mutex);
    ++m_pool.m_readers;
}

LoadThreadPool::ReaderSlot::~ReaderSlot()
{
    const std::lock_guard lock(m_pool.m_mutex);
    --m_pool.m_readers;
}

void LoadThreadPool::work()
{
    for (;;) {
        std::function<void()> job;
        // Out of chunks, a thread waits awake a moment (yielding to any other thread) before it
        // sleeps: the reading thread hands the next one over soon, and a sleeping core is slow to
        // wake on a virtual machine (the 2 GB trace's load kept 1.5 cores of 2 busy, 1.8 with this).
        const auto spinUntil = std::chrono::steady_clock::now() + kSpinBeforeSleep;
        while (m_queued.load(std::memory_order_acquire) == 0 && !m_stop.load(std::memory_order_relaxed)
            && std::chrono::steady_clock::now() < spinUntil)
            std::this_thread::yield();
        {
            std::unique_lock lock(m_mutex);
            m_wake.wait(lock, [this] { return m_stop || !m_jobs.empty(); });
            if (m_jobs.empty())
                return;
            job = std::move(m_jobs.front());
            m_jobs.pop_front();
            m_queued.fetch_sub(1, std::memory_order_relaxed);
        }
        job();
    }
}

size_t loadThreadsFor(size_t requested)
{
    if (requested > 0)
        return requested;
    const unsigned cores = std::thread::hardware_concurrency();
    return cores > 0 ? cores : 1;
}

} // namespace fusiondiff
