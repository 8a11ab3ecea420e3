// Scores the job comparison (core/runs/) on held-out-like multi-rank pairs built from any traces
// (tests/support/multirankscore.h): per trace, a grid of the straggler in A or in B; its cause
// (one rank's GEMMs slower, its host stalled in a function, its host stalled before the step's
// collective, extra work); world sizes 4 and 8; a small and a large slowdown; with the job's own
// skew (another rank late in both runs). A row passes the acceptance checks: the
// slower job by the time the straggler added, its entry first in "where to look first" with its
// cause, the other entries that explain the gap adding up to no more than the job lost, each
// rank's added wait within 30%, the transfer unchanged.
//
//   rankscore [--verbose] trace...
#include "classify/classifier.h"
#include "multirankscore.h"

#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

using namespace fusiondiff;
using namespace fusiondiff::test;

int main(int argc, char** argv)
{
    bool verbose = false;
    int first = 1;
    if (argc > 1 && std::strcmp(argv[1], "--verbose") == 0) {
        verbose = true;
        ++first;
    }
    if (first >= argc) {
        std::fprintf(stderr, "usage: rankscore [--verbose] trace...\n");
        return 2;
    }
    const Classifier classifier = Classifier::builtin("default");
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
