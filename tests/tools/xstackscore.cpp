// Scores the operation comparison on cross-stack pairs (tests/support/crossstack.h): for each trace
// and seed, B is the trace as another software stack records it (every operator, node, module and
// kernel renamed, operators reordered) with known splits and merges in the backward pass, the
// optimizer, communication and the forward pass; prints one row per pair and the totals.
//
//   xstackscore [--seeds 1,2,3] [--stacks none|python] [--reorders N] [--write DIR] TRACE...
//
// A communication change is found only where a finding or a where-to-look-first entry names its
// operation (scoreCrossStackPair). --reorders N: pairs of independent operators swapped (4). --write DIR also writes A,
// B and the changes of each pair. Exits with 1 if a pair is below the bar (meetsTheBar), 2 on bad arguments.
#include "classify/classifier.h"
#include "crossstack.h"
#include "fusionanalysis.h"
#include "load/traceloader.h"
#include "model/fusionreport.h"
#include "pairconstructor.h"
#include "testdata.h"

#include <QFileInfo>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

using namespace fusiondiff;
using namespace fusiondiff::test;

namespace {

QString stemOf(const std::string& trace)
{
    QString stem = QFileInfo(QString::fromStdString(trace)).fileName();
    stem.remove(QStringLiteral(".gz")).remove(QStringLiteral(".json"));
    return stem;
}

void writePair(const QString& dir, const std::string& trace, const CrossStackRecipe& recipe, const CrossStackPair& pair)
{
    const QString base
        = dir + QLatin1Char('/') + stemOf(trace) + QStringLiteral(".xstack.seed") + QString::number(recipe.seed);
    writeFile(base + QStringLiteral(".A.json"), pair.traceA);
    writeFile(base + QStringLiteral(".B.json"), pair.traceB);
    QByteArray answers = "kind\tregion\tlaunching_op\ttrace1_op\ttrace2_op\tcalls\tkernel_delta\n";
    for (const InjectedChange& change : pair.changes) {
        answers += QByteArray::fromStdString(change.kind + "\t" + change.region + "\t" + change.launchingOp + "\t"
            + change.trace1Op + "\t" + change.trace2Op + "\t" + std::to_string(change.calls) + "\t"
            + std::to_string(change.kernelDelta) + "\n");
    }
    writeFile(base + QStringLiteral(".answers.tsv"), answers);
}

} // namespace

int main(int argc, char** argv)
{
    std::vector<uint64_t> seeds { 1, 2, 3 };
    bool keepStacks = false;
    int reorders = CrossStackRecipe {}.reorders;
    QString writeDir;
    std::vector<std::string> traces;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--seeds" && i + 1 < argc) {
            seeds.clear();
            for (const QString& seed : QString::fromLatin1(argv[++i]).split(QLatin1Char(',')))
                seeds.push_back(seed.toULongLong());
        } else if (arg == "--stacks" && i + 1 < argc) {
            const std::string stacks = argv[++i];
            if (stacks != "none" && stacks != "python") {
                std::fprintf(stderr, "--stacks takes none or python\n");
                return 2;
            }
            keepStacks = stacks == "python";
        } else if (arg == "--reorders" && i + 1 < argc) {
            reorders = std::atoi(argv[++i]);
        } else if (arg == "--write" && i + 1 < argc) {
            writeDir = QString::fromLocal8Bit(argv[++i]);
        } else if (arg.starts_with("--")) {
            std::fprintf(stderr, "unknown option %s\n", arg.c_str());
            return 2;
        } else {
            traces.push_back(arg);
        }
    }
    if (traces.empty()) {
        std::fprintf(stderr, "usage: xstackscore [--seeds 1,2,3] [--stacks none|python] [--write DIR] TRACE...\n");
        return 2;
    }
    const Classifier classifier = Classifier::load("default");
    uint64_t injected = 0, found = 0, findings = 0, spurious = 0, below = 0, pairs = 0, refused = 0;
    std::printf("| trace | seed | injected | found | findings | spurious | same work | lined up | reordered | bar | "
                "injected in | missed |\n");
    std::printf("| --- | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | --- | --- | --- |\n");
    for (const std::string& trace : traces) {
        for (const uint64_t seed : seeds) {
            CrossStackRecipe recipe;
            recipe.seed = seed;
            recipe.keepPythonStacks = keepStacks;
            recipe.reorders = reorders;
            try {
                const CrossStackPair pair
                    = constructCrossStackPair(readTraceBytes(QString::fromStdString(trace)), classifier, recipe);
                if (!writeDir.isEmpty())
                    writePair(writeDir, trace, recipe, pair);
                const TraceStore a = loadTraceFromMemory(
                    std::string_view(pair.traceA.constData(), size_t(pair.traceA.size())), "A.json");
                const TraceStore b = loadTraceFromMemory(
                    std::string_view(pair.traceB.constData(), size_t(pair.traceB.size())), "B.json");
                const FusionReport report = analyzeFusion(a, b, classifier, AnalysisOptions {});
                PairScore score = scoreCrossStackPair(report, pair.changes);
                std::vector<InjectedChange> changes = pair.changes;
                // The regions, as scorePair words them.
                score.regions = scorePair(report, changes).regions;
                const bool pass = meetsTheBar(score);
                ++pairs;
                below += pass ? 0 : 1;
                refused += score.comparable ? 0 : 1;
                injected += score.injected;
                found += score.found;
                findings += score.findings;
                spurious += score.spurious;
                std::string missed;
                for (const std::string& m : score.missed)
                    missed += (missed.empty() ? "" : "; ") + m;
                std::printf("| %s | %llu | %llu | %llu | %llu | %llu | %s | %.0f%% | %llu | %s | %s | %s |\n",
                    stemOf(trace).toUtf8().constData(), static_cast<unsigned long long>(seed),
                    static_cast<unsigned long long>(score.injected), static_cast<unsigned long long>(score.found),
                    static_cast<unsigned long long>(score.findings), static_cast<unsigned long long>(score.spurious),
                    score.comparable ? "yes" : "no", score.matchedShare * 100,
                    static_cast<unsigned long long>(pair.reordered), pass ? "pass" : "below", score.regions.c_str(),
                    missed.c_str());
                for (const std::string& s : score.spuriousFindings)
                    std::fprintf(stderr, "spurious (%s seed %llu): %s\n", stemOf(trace).toUtf8().constData(),
                        static_cast<unsigned long long>(seed), s.c_str());
            } catch (const std::exception& e) {
                std::fprintf(
                    stderr, "%s seed %llu: %s\n", trace.c_str(), static_cast<unsigned long long>(seed), e.what());
                ++pairs;
                ++below;
            }
        }
    }
    std::printf("\nfound %llu of %llu injected changes (%.1f%%); %llu of %llu findings spurious; %llu of %llu pairs "
                "refused as not the same work; %llu of %llu pairs below the bar\n",
        static_cast<unsigned long long>(found), static_cast<unsigned long long>(injected),
        injected ? 100.0 * double(found) / double(injected) : 0.0, static_cast<unsigned long long>(spurious),
        static_cast<unsigned long long>(findings), static_cast<unsigned long long>(refused),
        static_cast<unsigned long long>(pairs), static_cast<unsigned long long>(below),
        static_cast<unsigned long long>(pairs));
    return below > 0 ? 1 : 0;
}
