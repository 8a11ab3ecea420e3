// Scores the step-time analysis on host-stall pairs built from any traces
// (tests/support/hoststall.h): per trace and seed, the stalled function, the idle the stall caused
// (how much the steps' wall time grew, read from the traces: stepsWallUs), the step gap, and the
// first entry of "where to look first". A row is right where a stall that shows (the wall grew by
// a quarter of the stalls or more) leads: the headline is the step time, the first entry names
// the stalled code, and its stake and the step gap are within 20% of the growth; and where one the
// GPU absorbs is charged no more than it caused.
//
//   stallscore [--verbose] [--every-other-step] [--seeds N] [--share S] [--intervals N] [--sites a,b,...] trace...
//   (--verbose: each comparison's summary, both sides' steps and their N longest idle intervals too;
//   --sites: where the stalls are (StallSite): function (the default), operator, region, module,
//   tail, thread2, backward; one row per trace, site and seed; --every-other-step: only the calls
//   in every other compared step are stalled, the rows' site reads "function/2")
#include "classify/classifier.h"
#include "fusionanalysis.h"
#include "hoststall.h"
#include "load/traceloader.h"
#include "report/reportwriters.h"
#include "util/textformat.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

using namespace fusiondiff;
using namespace fusiondiff::test;

int main(int argc, char** argv)
{
    uint64_t seeds = 3;
    double share = 0.15;
    bool verbose = false;
    bool everyOtherStep = false;
    size_t intervals = 5;
    std::vector<StallSite> sites { StallSite::Function };
    int first = 1;
    if (argc > 1 && std::strcmp(argv[1], "--verbose") == 0) {
        verbose = true;
        ++first;
    }
    if (first < argc && std::strcmp(argv[first], "--every-other-step") == 0) {
        everyOtherStep = true;
        ++first;
    }
    for (; first + 1 < argc && argv[first][0] == '-'; first += 2) {
        if (std::strcmp(argv[first], "--seeds") == 0)
            seeds = std::stoull(argv[first + 1]);
        else if (std::strcmp(argv[first], "--share") == 0)
            share = std::stod(argv[first + 1]);
        else if (std::strcmp(argv[first], "--intervals") == 0)
            intervals = std::stoul(argv[first + 1]);
        else if (std::strcmp(argv[first], "--sites") == 0) {
            sites.clear();
            std::string list = argv[first + 1];
            for (size_t from = 0; from <= list.size();) {
                const size_t comma = std::min(list.find(',', from), list.size());
                StallSite site;
                if (!stallSiteOfName(std::string_view(list).substr(from, comma - from), site)) {
                    std::fprintf(stderr, "stallscore: unknown site in --sites %s\n", list.c_str());
                    return 2;
                }
                sites.push_back(site);
                from = comma + 1;
            }
        }
    }
    unsigned failures = 0;
    unsigned rows = 0;
    const Classifier classifier = Classifier::builtin("default");
    std::printf("%-44s %-8s %4s %-40s %9s %6s %10s %10s %10s %-6s %s\n", "trace", "site", "seed", "stalled", "stall",
        "calls", "wall grew", "step gap", "stake", "first", "ok");
    for (int i = first; i < argc; ++i) {
        try {
            const TraceStore a = loadTrace(argv[i]);
            for (const StallSite site : sites) {
                for (uint64_t seed = 1; seed <= seeds; ++seed) {
                    HostStall stall = chooseStall(a, seed, 0, share, site);
                    if (stall.function.empty()) {
                        std::printf("%-44s %-8s %4llu (nothing to stall)\n", a.fileName.c_str(), stallSiteName(site),
                            static_cast<unsigned long long>(seed));
                        break;
                    }
                    TraceStore b = loadTrace(argv[i]);
                    stall.everyOtherStep = everyOtherStep;
                    const uint64_t stalled = stallHost(b, stall);
                    if (everyOtherStep) {
                        stall.calls = stalled;
                        if (stalled == 0) {
                            std::printf("%-44s %-8s %4llu (no call in every other compared step)\n", a.fileName.c_str(),
                                (stallSiteName(site) + std::string("/2")).c_str(),
                                static_cast<unsigned long long>(seed));
                            continue;
                        }
                    }
                    const FusionReport report = analyzeFusion(a, b, classifier, {});
                    const StallScore score = scoreStall(report, stall);
                    if (verbose) {
                        std::printf("%s\n", reportSummary(report).c_str());
                        for (size_t side = 0; side < 2; ++side) {
                            for (const StepRecord& step : report.stepTime.sides[side].steps)
                                std::printf("  %s step %.1f..%.1f (%s, phase %d) busy %s idle %s, %llu kernels\n",
                                    side == 0 ? "A" : "B", step.begin, step.end, formatDuration(step.timeUs()).c_str(),
                                    step.phase, formatDuration(step.busyUs).c_str(),
                                    formatDuration(step.idleTotalUs()).c_str(),
                                    static_cast<unsigned long long>(step.kernels));
                        }
                        for (size_t side = 0; side < 2; ++side) {
                            std::vector<IdleInterval> idle = report.stepTime.sides[side].idle;
                            std::sort(idle.begin(), idle.end(), [](const IdleInterval& x, const IdleInterval& y) {
                                return x.end - x.begin > y.end - y.begin;
                            });
                            for (size_t n = 0; n < std::min(intervals, idle.size()); ++n)
                                std::printf("  %s idle %.1f..%.1f (%s) %s %s\n", side == 0 ? "A" : "B", idle[n].begin,
                                    idle[n].end, formatDuration(idle[n].end - idle[n].begin).c_str(),
                                    idleCauseKey(idle[n].cause),
                                    idle[n].code >= 0
                                        ? report.stepTime.sides[side].codes[size_t(idle[n].code)].name.c_str()
                                        : "");
                        }
                    }
                    // As tst_hoststall, but against the idle the stall caused as the traces say it (the
                    // steps' wall time grew by it), not as the analysis measures it: a stall that shows
                    // is found, one the GPU absorbs is not overcharged.
                    const double stalledUs = stall.stallUs * double(stall.calls);
                    const double grown = stepsWallUs(b) - stepsWallUs(a);
                    const bool absorbed = grown < 0.25 * stalledUs;
                    const double caused = std::max(0.0, grown);
                    const bool ok = absorbed
                        ? score.stallStakeUs <= caused + 0.2 * stall.stallUs
                            && std::abs(score.stepGapUs) <= caused + 0.2 * stalledUs
                        : score.onStepTime && score.firstIsStall && std::abs(score.firstStakeUs - grown) <= 0.2 * grown
                            && std::abs(score.stepGapUs - grown) <= 0.2 * grown;
                    const std::string verdict
                        = std::string(absorbed ? "absorbed, " : "") + (ok ? "yes" : "no (" + score.firstOp + ")");
                    ++rows;
                    failures += !ok;
                    std::printf("%-44s %-8s %4llu %-40.40s %9s %6llu %10s %10s %10s %-6s %s\n", a.fileName.c_str(),
                        (stallSiteName(site) + std::string(everyOtherStep ? "/2" : "")).c_str(),
                        static_cast<unsigned long long>(seed), stall.function.c_str(),
                        formatDuration(stall.stallUs).c_str(), static_cast<unsigned long long>(stall.calls),
                        formatDuration(grown).c_str(), formatDuration(score.stepGapUs).c_str(),
                        formatDuration(score.firstStakeUs).c_str(), score.firstKind.c_str(), verdict.c_str());
                }
            }
        } catch (const std::exception& error) {
            std::fprintf(stderr, "%s: %s\n", argv[i], error.what());
            return 1;
        }
    }
    std::printf("%u of %u right\n", rows - failures, rows);
    return 0;
}
