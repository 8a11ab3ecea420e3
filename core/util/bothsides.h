#pragma once

#include <algorithm>
#include <array>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <system_error>
#include <thread>

namespace fusiondiff {

namespace bothsides_detail {

// Part of a side's work that `together` offers to the thread of the side that has finished.
struct Offer
{
    const std::function<void()>* work = nullptr;
    bool taken = false;
    bool done = false;
    std::exception_ptr failure;
};

// The two sides of one forBothSides, as the sides' threads and `together` see them.
struct Sides
{
    std::mutex mutex;
    std::condition_variable changed;
    int running = 2;
    // What the sides offer (null: a free slot); both may at once, each while it runs `first`.
    std::array<Offer*, 4> offers {};

    Offer* untaken() const
    {
        for (Offer* offer : offers) {
            if (offer && !offer->taken)
                return offer;
        }
        return nullptr;
    }
};

inline thread_local Sides* t_sides = nullptr; // the forBothSides whose side this thread runs

// Runs `work` as part of `sides` (null: outside any), keeping the exception it throws.
template<typename Work>
void runCaught(Sides* sides, Work&& work, std::exception_ptr& failure)
{
    Sides* const outer = t_sides;
    t_sides = sides;
    try {
        work();
    } catch (...) {
        failure = std::current_exception();
    }
    t_sides = outer;
}

// A side's work is done: until the other side's is, its thread runs what that side offers.
inline void helpUntilBothAreDone(Sides& sides)
{
    std::unique_lock lock(sides.mutex);
    --sides.running;
    sides.changed.notify_all();
    for (;;) {
        Offer* offer = nullptr;
        sides.changed.wait(lock, [&] { return sides.running == 0 || (offer = sides.untaken()) != nullptr; });
        if (!offer)
            return;
        offer->taken = true;
        lock.unlock();
        runCaught(nullptr, *offer->work, offer->failure);
        lock.lock();
        offer->done = true;
        sides.changed.notify_all();
    }
}

} // namespace bothsides_detail

// Runs `work(0)` and `work(1)`: at once, side 1 on a thread of its own, when `parallel`, else one
// after the other. Each call may read what both sides share but writes only its own side's data,
// so that the results are the same either way. Once both have ended, side 0's exception is
// rethrown if it threw, else side 1's. The side that ends first lends its thread to the other's
// `together` until that one ends too.
template<typename Work>
void forBothSides(bool parallel, Work&& work)
{
    bothsides_detail::Sides sides;
    std::exception_ptr failures[2];
    const auto runSide = [&](size_t side) {
        bothsides_detail::runCaught(
            &sides, [&] { work(side); }, failures[side]);
        bothsides_detail::helpUntilBothAreDone(sides);
    };
    std::thread second;
    if (parallel) {
        try {
            second = std::thread(runSide, size_t(1));
        } catch (const std::system_error&) {
            // No thread to be had (a process limit): the same work, one side after the other.
        }
    }
    if (!second.joinable()) {
        work(size_t(0));
        work(size_t(1));
        return;
    }
    runSide(0);
    second.join();
    for (const std::exception_ptr& failure : failures) {
        if (failure)
            std::rethrow_exception(failure);
    }
}

// Runs `first()` and `second()`, two parts of one side's work in forBothSides that write different
// data. If the other side ends while `first` runs (one large trace against a small one), its thread
// runs `second` meanwhile, on the core it has left; otherwise `second` runs after `first`, as it
// does outside forBothSides. So no more runs at once than the two sides would. `first`'s exception
// is rethrown if it threw, else `second`'s.
template<typename First, typename Second>
void together(First&& first, Second&& second)
{
    bothsides_detail::Sides* const sides = bothsides_detail::t_sides;
    const std::function<void()> secondWork = std::forward<Second>(second);
    bothsides_detail::Offer offer;
    offer.work = &secondWork;
    bothsides_detail::Offer** slot = nullptr;
    if (sides) {
        const std::lock_guard lock(sides->mutex);
        const auto free = std::find(sides->offers.begin(), sides->offers.end(), nullptr);
        if (free != sides->offers.end()) {
            slot = &*free;
            *slot = &offer;
            sides->changed.notify_all();
        }
    }
    std::exception_ptr firstFailure;
    bothsides_detail::runCaught(sides, first, firstFailure);
    bool runHere = !slot;
    if (slot) {
        std::unique_lock lock(sides->mutex);
        if (!offer.taken)
            runHere = true;
        else
            sides->changed.wait(lock, [&] { return offer.done; });
        *slot = nullptr;
    }
    if (runHere)
        bothsides_detail::runCaught(sides, secondWork, offer.failure);
    if (firstFailure)
        std::rethrow_exception(firstFailure);
    if (offer.failure)
        std::rethrow_exception(offer.failure);
}

// Whether the analysis runs the two traces' sides at once: `threads` is the setting (0: the
// machine's cores), and one core or a setting of 1 means one thread.
inline bool analyzeSidesInParallel(size_t threads)
{
    return threads != 1 && std::thread::hardware_concurrency() > 1;
}

} // namespace fusiondiff
