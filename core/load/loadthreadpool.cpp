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
        m_stop = true;
    }
    m_wake.notify_all();
    for (std::thread& thread : m_threads)
        thread.join();
}

void LoadThreadPool::submit(std::function<void()> job)
{
    {
        const std::lock_guard lock(m_mutex);
        m_jobs.push_back(std::move(job));
    }
    m_wake.notify_one();
}

void LoadThreadPool::work()
{
    for (;;) {
        std::function<void()> job;
        {
            std::unique_lock lock(m_mutex);
            m_wake.wait(lock, [this] { return m_stop || !m_jobs.empty(); });
            if (m_jobs.empty())
                return;
            job = std::move(m_jobs.front());
            m_jobs.pop_front();
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
