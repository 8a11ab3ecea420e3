// Scores the operation comparison on constructed pairs (tests/support/pairconstructor.h): for each
// trace and seed, B is built from A with renamed operators and kernels, moved Python lines,
// changed speeds and injected splits and merges; prints one row per pair and the totals.
//
//   pairscore [--seeds 1,2,3] [--classifier default] [--stacks python,modules,none] [--op-level L]
//             [--fusions N] [--renamed SHARE] [--splits N] [--merges N] [--write DIR] TRACE...
//   pairscore --different [--seeds S] [--stacks ...] [--renamed SHARE] TRACE...
//
// --stacks: which of the recorded stacks the pairs keep (python: as recorded; modules: nn.Module
// calls only; none: operators and kernels only), one row each. --fusions N also replaces N pairs
// of consecutive operators by one custom operator in B (PairRecipe::operatorFusions). --renamed,
// --splits and --merges set the share of operator names renamed and the changes injected
// (PairRecipe; 0.8, 3 and 3 by default). --own-node-names names the renamed autograd nodes
// apart from their forward operators (PairRecipe::nodesNamedAfterOperators), --bare-node-names
// without their Backward<N> suffix too (PairRecipe::nodesKeepSuffix). --write DIR
// also writes each pair (A, B and the injected changes) to DIR. Exits with 1 if a pair is below the
// bar (meetsTheBar: a pair into which nothing could be injected is below it), 2 on bad arguments.
//
// --different checks the other half of the verdict: for every ordered pair of two of the traces
// (which must be of different models), A is the one as recorded (with the stacks chosen) and B is
// built from the other with the recipe's renaming and no change injected (the first seed); each
// such pair must be called not the same work. Exits with 1 if one is called the same work.
#include "classify/classifier.h"
#include "fusionanalysis.h"
#include "load/traceloader.h"
#include "model/analysisoptions.h"
#include "model/fusionreport.h"
#include "pairconstructor.h"
#include "testdata.h"

#include <QFileInfo>

#include <cstdio>
#include <cstring>
#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

using namespace fusiondiff;
using namespace fusiondiff::test;

namespace {

// DIR/<stem>.<stacks>.seed<N>.{A,B}.json and .answers.tsv (kind, launching operator, trace1_op,
// trace2_op, calls, kernels B runs per call minus A's), for looking at a pair by hand.
void writePair(const QString& dir, const QString& trace, const Classifier& classifier, const PairRecipe& recipe)
{
    const ConstructedPair pair = constructPair(readTraceBytes(trace), classifier, recipe);
    QString stem = QFileInfo(trace).fileName();
    stem.remove(QStringLiteral(".gz")).remove(QStringLiteral(".json"));
    const QString base = dir + QLatin1Char('/') + stem + QLatin1Char('.') + QLatin1String(stacksName(recipe.stacks))
        + QStringLiteral(".seed") + QString::number(recipe.seed);
    writeFile(base + QStringLiteral(".A.json"), pair.traceA);
    writeFile(base + QStringLiteral(".B.json"), pair.traceB);
    QByteArray answers = "kind\tlaunching_op\ttrace1_op\ttrace2_op\tcalls\tkernel_delta\n";
    for (const InjectedChange& change : pair.changes) {
        answers += QByteArray::fromStdString(change.kind + "\t" + change.launchingOp + "\t" + change.trace1Op + "\t"
            + change.trace2Op + "\t" + std::to_string(change.calls) + "\t" + std::to_string(change.kernelDelta) + "\n");
    }
    writeFile(base + QStringLiteral(".answers.tsv"), answers);
}

// --different: every ordered pair of two traces, A as recorded against B built from the other.
int scoreDifferentModels(const std::vector<std::string>& traces, const Classifier& classifier,
    const std::vector<PairRecipe::Stacks>& stackChoices, uint64_t seed, double renamedShare)
{
    uint64_t pairs = 0, calledSame = 0;
    std::printf("| trace A | B built from | stacks | operations line up | same work | verdict |\n");
    std::printf("| --- | --- | --- | ---: | --- | --- |\n");
    auto nameOf = [](const std::string& trace) {
        QString name = QFileInfo(QString::fromStdString(trace)).fileName();
        name.remove(QStringLiteral(".gz")).remove(QStringLiteral(".json"));
        return name.toStdString();
    };
    for (const PairRecipe::Stacks stacks : stackChoices) {
        PairRecipe recipe;
        recipe.seed = seed;
        recipe.stacks = stacks;
        recipe.renamedOperatorShare = renamedShare;
        recipe.splits = 0;
        recipe.merges = 0;
        std::vector<ConstructedPair> built;
        built.reserve(traces.size());
        for (const std::string& trace : traces)
            built.push_back(constructPair(readTraceBytes(QString::fromStdString(trace)), classifier, recipe));
        for (size_t x = 0; x < traces.size(); ++x) {
            const QByteArray& bytesA = built[x].traceA;
            const TraceStore a
                = loadTraceFromMemory(std::string_view(bytesA.constData(), size_t(bytesA.size())), "A.json");
            for (size_t y = 0; y < traces.size(); ++y) {
                if (x == y)
                    continue;
                const QByteArray& bytesB = built[y].traceB;
                const TraceStore b
                    = loadTraceFromMemory(std::string_view(bytesB.constData(), size_t(bytesB.size())), "B.json");
                const FusionReport report = analyzeFusion(a, b, classifier, AnalysisOptions {});
                const bool same = report.opAlignment.comparable;
                ++pairs;
                calledSame += same;
                std::printf("| %s | %s | %s | %.1f%% | %s | %s |\n", nameOf(traces[x]).c_str(),
                    nameOf(traces[y]).c_str(), stacksName(stacks), 100.0 * report.opAlignment.matchedShare,
                    same ? "yes" : "no", same ? "FAIL" : "pass");
                std::fflush(stdout);
            }
        }
    }
    std::printf("\n%s of %s pairs of different traces called the same work\n", std::to_string(calledSame).c_str(),
        std::to_string(pairs).c_str());
    return calledSame > 0 ? 1 : 0;
}

} // namespace

int main(int argc, char** argv)
{
    std::vector<uint64_t> seeds { 1, 2, 3 };
    std::string classifierName = "default";
    OpLevel level = OpLevel::Auto;
    std::vector<PairRecipe::Stacks> stackChoices { PairRecipe::Stacks::Keep };
    std::vector<std::string> traces;
    QString writeDir;
    int operatorFusions = 0;
    const PairRecipe defaults;
    double renamedShare = defaults.renamedOperatorShare;
    int splits = defaults.splits;
    int merges = defaults.merges;
    bool different = false;
    bool nodesNamedAfterOperators = true;
    bool nodesKeepSuffix = true;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--seeds") == 0 && i + 1 < argc) {
            seeds.clear();
            for (const QString& seed : QString::fromLocal8Bit(argv[++i]).split(QLatin1Char(',')))
                seeds.push_back(seed.toULongLong());
        } else if (std::strcmp(argv[i], "--stacks") == 0 && i + 1 < argc) {
            stackChoices.clear();
            for (const QString& choice : QString::fromLocal8Bit(argv[++i]).split(QLatin1Char(','))) {
                for (const auto stacks :
                    { PairRecipe::Stacks::Keep, PairRecipe::Stacks::ModulesOnly, PairRecipe::Stacks::None }) {
                    if (choice == QLatin1String(stacksName(stacks)))
                        stackChoices.push_back(stacks);
                }
            }
        } else if (std::strcmp(argv[i], "--op-level") == 0 && i + 1 < argc) {
            if (!parseOpLevel(argv[++i], level)) {
                std::fprintf(stderr, "pairscore: unknown --op-level %s\n", argv[i]);
                return 2;
            }
        } else if (std::strcmp(argv[i], "--classifier") == 0 && i + 1 < argc) {
            classifierName = argv[++i];
        } else if (std::strcmp(argv[i], "--fusions") == 0 && i + 1 < argc) {
            operatorFusions = std::atoi(argv[++i]);
        } else if (std::strcmp(argv[i], "--renamed") == 0 && i + 1 < argc) {
            renamedShare = std::atof(argv[++i]);
        } else if (std::strcmp(argv[i], "--splits") == 0 && i + 1 < argc) {
            splits = std::atoi(argv[++i]);
        } else if (std::strcmp(argv[i], "--merges") == 0 && i + 1 < argc) {
            merges = std::atoi(argv[++i]);
        } else if (std::strcmp(argv[i], "--own-node-names") == 0) {
            nodesNamedAfterOperators = false;
        } else if (std::strcmp(argv[i], "--bare-node-names") == 0) {
            nodesNamedAfterOperators = false;
            nodesKeepSuffix = false;
        } else if (std::strcmp(argv[i], "--different") == 0) {
            different = true;
        } else if (std::strcmp(argv[i], "--write") == 0 && i + 1 < argc) {
            writeDir = QString::fromLocal8Bit(argv[++i]);
        } else {
            traces.emplace_back(argv[i]);
        }
    }
    if (traces.empty()) {
        std::fprintf(stderr,
            "usage: pairscore [--seeds 1,2,3] [--classifier default] [--stacks python,modules,none] [--op-level L] "
            "[--fusions N] [--renamed SHARE] [--splits N] [--merges N] [--own-node-names] [--bare-node-names] [--write "
            "DIR] TRACE...\n"
            "       pairscore --different [--seeds S] [--stacks ...] [--renamed SHARE] TRACE...\n");
        return 2;
    }
    try {
        const Classifier classifier = Classifier::load(classifierName);
        if (different)
            return scoreDifferentModels(traces, classifier, stackChoices, seeds.front(), renamedShare);
        uint64_t injected = 0, found = 0, findings = 0, spurious = 0, failed = 0, pairs = 0;
        std::printf("| trace | stacks | seed | injected | found | findings | spurious | same work | bar | injected in "
                    "| aligned on |\n");
        std::printf("| --- | --- | ---: | ---: | ---: | ---: | ---: | --- | --- | --- | --- |\n");
        for (const std::string& trace : traces) {
            const QByteArray traceName = QFileInfo(QString::fromStdString(trace)).fileName().toLocal8Bit();
            for (const PairRecipe::Stacks stacks : stackChoices) {
                for (const uint64_t seed : seeds) {
                    PairRecipe recipe;
                    recipe.seed = seed;
                    recipe.stacks = stacks;
                    recipe.operatorFusions = operatorFusions;
                    recipe.renamedOperatorShare = renamedShare;
                    recipe.splits = splits;
                    recipe.merges = merges;
                    recipe.nodesNamedAfterOperators = nodesNamedAfterOperators;
                    recipe.nodesKeepSuffix = nodesKeepSuffix;
                    ++pairs;
                    PairScore score;
                    try {
                        score = scoreConstructedPair(QString::fromStdString(trace), classifier, recipe, level);
                    } catch (const std::runtime_error& error) { // a trace B cannot be built from
                        std::printf("| %s | %s | %s | cannot construct: %s | | | | | FAIL | | |\n",
                            traceName.constData(), stacksName(stacks), std::to_string(seed).c_str(), error.what());
                        ++failed;
                        continue;
                    }
                    if (!writeDir.isEmpty())
                        writePair(writeDir, QString::fromStdString(trace), classifier, recipe);
                    const bool pass = meetsTheBar(score);
                    failed += !pass;
                    std::printf("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", traceName.constData(),
                        stacksName(stacks), std::to_string(seed).c_str(), std::to_string(score.injected).c_str(),
                        std::to_string(score.found).c_str(), std::to_string(score.findings).c_str(),
                        std::to_string(score.spurious).c_str(), score.comparable ? "yes" : "no", pass ? "pass" : "FAIL",
                        score.regions.c_str(), score.levels.c_str());
                    for (const std::string& missed : score.missed)
                        std::fprintf(stderr, "%s %s seed %s: missed %s\n", trace.c_str(), stacksName(stacks),
                            std::to_string(seed).c_str(), missed.c_str());
                    for (const std::string& finding : score.spuriousFindings)
                        std::fprintf(stderr, "%s %s seed %s: spurious %s\n", trace.c_str(), stacksName(stacks),
                            std::to_string(seed).c_str(), finding.c_str());
                    std::fflush(stdout);
                    injected += score.injected;
                    found += score.found;
                    findings += score.findings;
                    spurious += score.spurious;
                }
            }
        }
        std::printf("\nfound %s of %s injected changes (%.1f%%); %s of %s findings spurious (%.1f%%)\n",
            std::to_string(found).c_str(), std::to_string(injected).c_str(),
            injected ? 100.0 * double(found) / double(injected) : 0.0, std::to_string(spurious).c_str(),
            std::to_string(findings).c_str(), findings ? 100.0 * double(spurious) / double(findings) : 0.0);
        std::printf("%s of %s pairs below the bar (>= 95%% found, <= 5%% spurious, same work; a pair without "
                    "an injected change fails)\n",
            std::to_string(failed).c_str(), std::to_string(pairs).c_str());
        if (failed > 0)
            return 1;
    } catch (const std::exception& error) {
        std::fprintf(stderr, "pairscore: %s\n", error.what());
        return 2;
    }
    return 0;
}
