#include "pairconstructor.h"

#include "classify/classifier.h"
#include "fusionanalysis.h"
#include "load/traceloader.h"
#include "model/fusionreport.h"
#include "util/textformat.h"

#include <algorithm>
#include <map>

namespace fusiondiff::test {

PairScore scorePair(const FusionReport& report, const std::vector<InjectedChange>& changes)
{
    PairScore score;
    score.injected = changes.size();
    score.comparable = report.opAlignment.comparable;
    score.matchedShare = report.opAlignment.matchedShare;
    std::vector<bool> found(changes.size(), false);
    for (const OpFinding& finding : report.opFindings) {
        ++score.findings;
        bool expected = false;
        for (size_t c = 0; c < changes.size(); ++c) {
            const InjectedChange& change = changes[c];
            const Side fewer = change.kernelDelta > 0 ? Side::Trace1 : Side::Trace2;
            if (finding.sideOps[0] == change.trace1Op && finding.sideOps[1] == change.trace2Op
                && finding.fusedSide == fewer) {
                expected = true;
                found[c] = true;
            }
        }
        if (!expected) {
            ++score.spurious;
            score.spuriousFindings.push_back(finding.summary);
        }
    }
    for (const AlignmentLevel& level : report.opAlignment.levels) {
        if (level.matched > 0)
            score.levels += (score.levels.empty() ? "" : ", ") + level.key + " " + fixed(level.share * 100, 0) + "%";
    }
    std::map<std::string, uint64_t> ofRegion;
    for (const InjectedChange& change : changes)
        ++ofRegion[change.region];
    for (const auto& [region, count] : ofRegion)
        score.regions += (score.regions.empty() ? "" : ", ") + region + " " + std::to_string(count);
    for (size_t c = 0; c < changes.size(); ++c) {
        // A changed communication kernel is a collective difference (issue 39): found when the
        // collectives' comparison counts a different number of kernels on the two sides and no
        // finding claims the change as fusion.
        if (changes[c].collective && !found[c]) {
            const bool collectivesDiffer = std::any_of(report.collectives.begin(), report.collectives.end(),
                [](const CollectiveComparison& row) { return row.count[0] != row.count[1]; });
            found[c] = collectivesDiffer
                && std::none_of(report.opFindings.begin(), report.opFindings.end(), [&](const OpFinding& f) {
                       return f.sideOps[0] == changes[c].trace1Op && f.sideOps[1] == changes[c].trace2Op;
                   });
        }
        score.found += found[c];
        if (!found[c])
            score.missed.push_back(changes[c].region + " " + changes[c].kind + " in " + changes[c].trace1Op + " ("
                + changes[c].launchingOp + ") / " + changes[c].trace2Op);
    }
    return score;
}

bool meetsTheBar(const PairScore& score)
{
    return score.injected > 0 && score.comparable && double(score.found) >= 0.95 * double(score.injected)
        && double(score.spurious) <= 0.05 * double(score.findings);
}

PairScore scoreConstructedPair(
    const QString& path, const Classifier& classifier, const PairRecipe& recipe, OpLevel level)
{
    const ConstructedPair pair = constructPair(readTraceBytes(path), classifier, recipe);
    const TraceStore a
        = loadTraceFromMemory(std::string_view(pair.traceA.constData(), size_t(pair.traceA.size())), "A.json");
    const TraceStore b
        = loadTraceFromMemory(std::string_view(pair.traceB.constData(), size_t(pair.traceB.size())), "B.json");
    AnalysisOptions options;
    options.opLevel = level;
    const FusionReport report = analyzeFusion(a, b, classifier, options);
    return scorePair(report, pair.changes);
}

} // namespace fusiondiff::test
