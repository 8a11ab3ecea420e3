// matchbench: times fusiondiff::matchGroups (core/groups/groupmatcher.h) on synthetic correlation groups.
//
//   matchbench [--groups N] [--runs R] [--naive-groups M]
//
// Profiles (N groups on each side, fixed pseudo-random seed, tolerance 0.25 as in the seed):
//   graph-like   sizes from 6 values seen in real graph traces (64 .. 544), 3 type sets per size
//   spread       sizes uniform in [50, 5000], type sets of 3-6 of 12 types
//   narrow-many  sizes uniform in [50, 200], type sets uniform over 2^16 (a stress case: many
//                buckets of one size, each visited; real traces have few type sets)
// plus the spread profile at N/4, N/2, N and 2N to show how the time grows.
// Each line is the median of R runs. A quadratic reference (the seed's loop, in C++) runs on M
// groups per side to check that both give the same matches, and its time is printed for scale.
#include "groups/groupmatcher.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <vector>

using fusiondiff::GroupProfile;

namespace {

using Clock = std::chrono::steady_clock;
using Matches = std::vector<std::pair<uint32_t, uint32_t>>;

constexpr double kTolerance = 0.25;

std::vector<GroupProfile> graphLike(size_t n, std::mt19937_64& random)
{
    const uint32_t sizes[] = { 64, 96, 128, 250, 421, 544 };
    std::vector<GroupProfile> groups(n);
    for (GroupProfile& group : groups) {
        const size_t s = random() % 6;
        group.size = sizes[s] + static_cast<uint32_t>(random() % 3); // a little jitter
        group.typeMask = (uint64_t(0x1F) << s) | (uint64_t(1) << (8 + random() % 3));
    }
    return groups;
}

std::vector<GroupProfile> spread(size_t n, std::mt19937_64& random)
{
    std::vector<GroupProfile> groups(n);
    for (GroupProfile& group : groups) {
        group.size = 50 + static_cast<uint32_t>(random() % 4951);
        const int bits = 3 + static_cast<int>(random() % 4);
        uint64_t mask = 0;
        while (std::popcount(mask) < bits)
            mask |= uint64_t(1) << (random() % 12);
        group.typeMask = mask;
    }
    return groups;
}

std::vector<GroupProfile> narrowMany(size_t n, std::mt19937_64& random)
{
    std::vector<GroupProfile> groups(n);
    for (GroupProfile& group : groups) {
        group.size = 50 + static_cast<uint32_t>(random() % 151);
        group.typeMask = random() & 0xFFFF;
    }
    return groups;
}

// The seed's _match_correlation_groups, quadratic, with the same tie rules.
Matches naiveMatch(const std::vector<GroupProfile>& first, const std::vector<GroupProfile>& second)
{
    std::vector<uint32_t> order(first.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return first[a].size > first[b].size; });
    std::vector<bool> used(second.size(), false);
    Matches matches;
    for (const uint32_t a : order) {
        const double size = first[a].size;
        const double minSize = size / (1 + kTolerance);
        const double maxSize = size * (1 + kTolerance);
        int64_t bestScore = std::numeric_limits<int64_t>::max();
        uint32_t best = std::numeric_limits<uint32_t>::max();
        for (uint32_t b = 0; b < second.size(); ++b) {
            if (used[b] || second[b].size < minSize || second[b].size > maxSize)
                continue;
            const int64_t score = std::llabs(static_cast<int64_t>(first[a].size) - static_cast<int64_t>(second[b].size))
                - 10 * std::popcount(first[a].typeMask & second[b].typeMask);
            if (score < bestScore) {
                bestScore = score;
                best = b;
            }
        }
        if (best != std::numeric_limits<uint32_t>::max()) {
            matches.emplace_back(a, best);
            used[best] = true;
        }
    }
    return matches;
}

template<typename F>
double medianSeconds(int runs, F&& work)
{
    std::vector<double> times;
    for (int i = 0; i < runs; ++i) {
        const auto start = Clock::now();
        work();
        times.push_back(std::chrono::duration<double>(Clock::now() - start).count());
    }
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
}

using Generator = std::vector<GroupProfile> (*)(size_t, std::mt19937_64&);

void bench(const char* name, Generator generate, size_t n, int runs)
{
    std::mt19937_64 random(12345 + n);
    const std::vector<GroupProfile> first = generate(n, random);
    const std::vector<GroupProfile> second = generate(n, random);
    size_t matched = 0;
    const double seconds
        = medianSeconds(runs, [&] { matched = fusiondiff::matchGroups(first, second, kTolerance).size(); });
    std::printf("matchbench: %-12s groups %7zu x %7zu: %8.4f s (median of %d), %zu matched\n", name, n, n, seconds,
        runs, matched);
}

void check(const char* name, Generator generate, size_t n)
{
    std::mt19937_64 random(777 + n);
    const std::vector<GroupProfile> first = generate(n, random);
    const std::vector<GroupProfile> second = generate(n, random);
    Matches fast;
    const double fastSeconds = medianSeconds(1, [&] { fast = fusiondiff::matchGroups(first, second, kTolerance); });
    Matches slow;
    const double slowSeconds = medianSeconds(1, [&] { slow = naiveMatch(first, second); });
    std::printf(
        "matchbench: %-12s groups %7zu x %7zu: quadratic reference %.4f s, matchGroups %.4f s, same matches: %s\n",
        name, n, n, slowSeconds, fastSeconds, fast == slow ? "yes" : "NO");
}

} // namespace

int main(int argc, char** argv)
{
    size_t groups = 100000;
    int runs = 5;
    size_t naiveGroups = 5000;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--groups" && i + 1 < argc)
            groups = std::strtoull(argv[++i], nullptr, 10);
        else if (arg == "--runs" && i + 1 < argc)
            runs = std::max(1, std::atoi(argv[++i]));
        else if (arg == "--naive-groups" && i + 1 < argc)
            naiveGroups = std::strtoull(argv[++i], nullptr, 10);
        else {
            std::fprintf(stderr, "usage: matchbench [--groups N] [--runs R] [--naive-groups M]\n");
            return 2;
        }
    }
    bench("graph-like", graphLike, groups, runs);
    bench("spread", spread, groups, runs);
    bench("narrow-many", narrowMany, groups, runs);
    for (const size_t n : { groups / 4, groups / 2, groups, groups * 2 })
        bench("spread", spread, n, runs);
    if (naiveGroups > 0) {
        check("graph-like", graphLike, naiveGroups);
        check("spread", spread, naiveGroups);
        check("narrow-many", narrowMany, naiveGroups);
    }
    return 0;
}
