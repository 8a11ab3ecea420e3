// Scores the job comparison (core/runs/) on held-out-like multi-rank pairs built from any traces
// (tests/support/multirankscore.h): per trace, a grid of the straggler in A or in B; its cause
// (one rank's GEMMs slower, its host stalled in a function, its host stalled before the step's
// collective, extra work); world sizes 4 and 8; a small and a large slowdown; with the job's own
// skew (another rank late in both runs). A row passes the acceptance checks: the
// slower job by the time the straggler added, its entry first in "where to look first" with its
// cause, the other entries that explain the gap adding up to no more than the job lost, each
// rank's added wait within 30%, the transfer unchanged.
//
// With --windows, the rank traces of one real job (one recorded step each): the job repeated as
// steps, then ranks whose profiler windows start a step earlier or later, or end a step later
// (rankwindows.h), with ProfilerStep numbers and without: a row passes when the job's steps are
// the steps every rank holds (each rank's own record of each), every call's waits and every step's
// straggler are those of the same job with aligned windows, and the other steps are named.
//
//   rankscore [--verbose] trace...
//   rankscore --windows [--verbose] rank-trace...   (in rank order)
#include "classify/classifier.h"
#include "multirankscore.h"
#include "rankwindows.h"

#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

using namespace fusiondiff;
using namespace fusiondiff::test;

namespace {

int scoreWindows(const std::vector<std::string>& paths, bool verbose, const Classifier& classifier)
{
    using Windows = std::vector<std::pair<size_t, size_t>>;
    struct Layout
    {
        const char* name;
        Windows windows; // per rank; the default window (copies 1 to 5) where not listed
    };
    const std::pair<size_t, size_t> normal { 1, 5 };
    const std::vector<Layout> layouts {
        { "1,4 start a step later", { normal, { 2, 5 }, normal, normal, { 2, 5 } } },
        { "2,6 start a step earlier", { normal, normal, { 0, 5 }, normal, normal, normal, { 0, 5 } } },
        { "5 ends a step later", { normal, normal, normal, normal, normal, { 1, 6 } } },
        { "mixed (0 later, 2 earlier, 5, 7 longer)",
            { { 2, 5 }, normal, { 0, 5 }, normal, normal, { 1, 6 }, normal, { 1, 6 } } },
    };
    size_t passed = 0;
    size_t total = 0;
    std::printf("%-42s %-9s %5s  steps waits stragglers named\n", "layout", "steps by", "calls");
    for (const bool numbered : { true, false }) {
        for (const Layout& layout : layouts) {
            RankWindowSpec spec;
            spec.numbered = numbered;
            spec.windows = layout.windows;
            for (size_t r = 0; r < paths.size(); ++r)
                spec.clockOffsetsUs.push_back(double((r * 7919) % 13) * 1.7e5 - 3e5);
            ++total;
            try {
                const RankWindowScore score = scoreRankWindows(paths, spec, classifier);
                passed += score.pass() ? 1 : 0;
                std::printf("%-42s %-9s %5zu  %-5s %-5s %-10s %-5s\n", layout.name, numbered ? "number" : "python",
                    score.calls, score.steps ? "ok" : "NO", score.waits ? "ok" : "NO", score.stragglers ? "ok" : "NO",
                    score.named ? "ok" : "NO");
                if (!score.pass() || verbose)
                    std::printf("    %s\n", score.failure.c_str());
            } catch (const std::exception& error) {
                std::printf("%-42s %-9s error: %s\n", layout.name, numbered ? "number" : "python", error.what());
            }
            std::fflush(stdout);
        }
    }
    std::printf("%zu of %zu pass\n", passed, total);
    return passed == total ? 0 : 1;
}

} // namespace

int main(int argc, char** argv)
{
    bool verbose = false;
    bool windows = false;
    int first = 1;
    if (argc > 1 && std::strcmp(argv[1], "--windows") == 0) {
        windows = true;
        ++first;
    }
    if (argc > first && std::strcmp(argv[first], "--verbose") == 0) {
        verbose = true;
        ++first;
    }
    if (first >= argc) {
        std::fprintf(
            stderr, "usage: rankscore [--verbose] trace...\n       rankscore --windows [--verbose] rank-trace...\n");
        return 2;
    }
    const Classifier classifier = Classifier::builtin("default");
    if (windows)
        return scoreWindows(std::vector<std::string>(argv + first, argv + argc), verbose, classifier);
    struct Size
    {
        const char* name;
        double factor;
        double stall;
    };
    const Size sizes[] = { { "small", 1.1, 0.03 }, { "large", 2.0, 0.3 } };
    const StragglerCause causes[] = { StragglerCause::SlowerKernels, StragglerCause::HostStall,
        StragglerCause::LateLaunch, StragglerCause::ExtraWork };
    size_t passed = 0;
    size_t total = 0;
    std::printf("%-40s %5s %-11s %-5s %-4s %10s %10s %10s  job entry waits transfer\n", "trace", "ranks", "cause",
        "size", "side", "added_us", "measured", "entries");
    for (int i = first; i < argc; ++i) {
        for (const size_t ranks : { size_t(4), size_t(8) }) {
            for (const StragglerCause cause : causes) {
                for (const Size& size : sizes) {
                    for (const bool inA : { false, true }) {
                        RankScoreCase scoreCase;
                        scoreCase.trace = argv[i];
                        scoreCase.ranks = ranks;
                        scoreCase.straggler = int32_t(ranks / 2 - 1);
                        scoreCase.cause = cause;
                        scoreCase.factor = size.factor;
                        scoreCase.stallShareOfStep = size.stall;
                        scoreCase.inA = inA;
                        std::string name = argv[i];
                        name = name.substr(name.find_last_of('/') + 1);
                        try {
                            const RankScore score = scoreRankCase(scoreCase, classifier);
                            ++total;
                            passed += score.pass() ? 1 : 0;
                            std::printf("%-40s %5zu %-11s %-5s %-4s %10.0f %10.0f %10.0f  %-3s %-5s %-5s %-8s%s\n",
                                name.substr(0, 40).c_str(), ranks, causeName(cause).c_str(), size.name, inA ? "A" : "B",
                                score.addedUs, score.measuredUs, score.entriesSumUs, score.slowerJob ? "ok" : "NO",
                                score.entry ? "ok" : "NO", score.waits ? "ok" : "NO", score.transfer ? "ok" : "NO",
                                score.hidden ? "  (hidden by the skew: nothing to find)" : "");
                            if (!score.pass() || verbose)
                                std::printf(
                                    "    %s\n    first: %s\n", score.failure.c_str(), score.firstEntries.c_str());
                        } catch (const std::exception& error) {
                            ++total;
                            std::printf("%-40s %5zu %-11s %-5s %-4s  error: %s\n", name.substr(0, 40).c_str(), ranks,
                                causeName(cause).c_str(), size.name, inA ? "A" : "B", error.what());
                        }
                        std::fflush(stdout);
                    }
                }
            }
        }
    }
    std::printf("%zu of %zu pass\n", passed, total);
    return passed == total ? 0 : 1;
}
