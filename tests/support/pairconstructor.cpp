#include "pairconstructor.h"

#include "classify/classifier.h"
#include "ops/attribution/opattribution.h"
#include "pairevents.h"
#include "pairinjections.h"
#include "pairkernelrenamer.h"
#include "pairnodenames.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>
#include <zlib.h>

#include <algorithm>
#include <set>
#include <stdexcept>
#include <unordered_map>

namespace fusiondiff::test {

using namespace pairdetail;

const char* stacksName(PairRecipe::Stacks stacks)
{
    switch (stacks) {
    case PairRecipe::Stacks::Keep:
        return "python";
    case PairRecipe::Stacks::ModulesOnly:
        return "modules";
    case PairRecipe::Stacks::None:
        return "none";
    }
    return "";
}

QByteArray readTraceBytes(const QString& path)
{
    gzFile file = gzopen(path.toLocal8Bit().constData(), "rb"); // reads plain files as they are
    if (!file)
        throw std::runtime_error("cannot open " + path.toStdString());
    QByteArray bytes;
    char buffer[1 << 16];
    int read = 0;
    while ((read = gzread(file, buffer, sizeof(buffer))) > 0)
        bytes.append(buffer, read);
    gzclose(file);
    if (read < 0)
        throw std::runtime_error("cannot read " + path.toStdString());
    return bytes;
}

ConstructedPair constructPair(const QByteArray& traceA, const Classifier& classifier, const PairRecipe& recipe)
{
    QJsonObject root = traceRootOf(traceA);
    std::vector<Event> events;
    for (const auto& value : root.value(QStringLiteral("traceEvents")).toArray()) {
        const QJsonObject event = value.toObject();
        if (recipe.stacks != PairRecipe::Stacks::Keep && categoryOf(event) == "python_function"
            && (recipe.stacks == PairRecipe::Stacks::None || !nameOf(event).starts_with("nn.Module: ")))
            continue;
        events.push_back({ event, false });
    }
    Rng rng(recipe.seed);
    ConstructedPair pair;
    pair.traceA = recipe.stacks == PairRecipe::Stacks::Keep ? traceA : traceWithEvents(root, events);
    const TraceIndex index = indexTrace(events);
    // Such traces yield no pair: the operation comparison needs operators that launch kernels.
    if (index.kernels.empty())
        throw std::runtime_error("trace A has no kernels: nothing runs on the GPU to split or merge");
    if (index.cpuOps.empty())
        throw std::runtime_error("trace A has no CPU operators (a GPU-only trace): no operation to inject into, and "
                                 "the operation comparison has none to compare");

    // Operator names: a share renamed, consistently. Autograd nodes follow their forward operator
    // (AddmmBackward0 -> Op7Backward0 where aten::addmm -> vendor_ops::op_7), as another
    // build names the nodes of its own operators; nodes without a forward operator of that name
    // (AccumulateGrad, CompiledFunctionBackward's own) are renamed like operators; the
    // `autograd::engine::evaluate_function: ` wrapper keeps its prefix around the node's new name.
    std::set<std::string> opNames;
    for (const size_t i : index.cpuOps)
        opNames.insert(nameOf(events[i].json));
    uint64_t next = 1;
    std::set<std::string> nodeNames;
    for (const std::string& name : opNames) {
        if (name.starts_with(kBackwardWrapper)) {
            nodeNames.insert(name.substr(kBackwardWrapper.size()));
            continue;
        }
        if (!splitNodeName(name).first.empty() || isEngineNode(name)) {
            nodeNames.insert(name);
            continue;
        }
        const bool rename = !isProfilerSpan(name) && uniform(rng, 0, 1) < recipe.renamedOperatorShare;
        pair.renamedOperators[name] = rename ? "vendor_ops::op_" + std::to_string(next++) : name;
    }
    std::unordered_map<std::string, std::string> forwardOfStem;
    for (const auto& [name, renamed] : pair.renamedOperators)
        forwardOfStem.try_emplace(nodeStem(name), name);
    std::map<std::string, std::string> renamedNodes;
    uint64_t nextNode = 1;
    for (const std::string& node : nodeNames) {
        const auto [base, suffix] = splitNodeName(node);
        const auto forward = base.empty() ? forwardOfStem.end() : forwardOfStem.find(nodeStem(base));
        std::string renamed = node;
        if (!recipe.nodesNamedAfterOperators && uniform(rng, 0, 1) < recipe.renamedOperatorShare) {
            // Still a node (its suffix kept: Backward0), but named after nothing of its forward operator.
            renamed = isEngineNode(node) ? std::string(kEngineNodes) + "VendorGrad" + std::to_string(nextNode++)
                                         : "VendorGrad" + std::to_string(nextNode++)
                    + (recipe.nodesKeepSuffix ? std::string(suffix) : std::string());
        } else if (forward != forwardOfStem.end()) {
            const std::string& forwardRenamed = pair.renamedOperators.at(forward->second);
            if (forwardRenamed != forward->second) {
                const size_t colons = forwardRenamed.rfind("::");
                renamed = camelCase(colons == std::string::npos ? forwardRenamed : forwardRenamed.substr(colons + 2))
                    + suffix;
            }
        } else if (uniform(rng, 0, 1) < recipe.renamedOperatorShare) {
            // A node of the engine's own recorded alone keeps the engine's namespace, as the
            // wrapper keeps its prefix: another build's trace records it there too.
            if (isEngineNode(node))
                renamed = std::string(kEngineNodes) + "VendorNode" + std::to_string(nextNode++);
            else
                renamed = base.empty() ? "vendor_ops::node_" + std::to_string(nextNode++)
                                       : "VendorNode" + std::to_string(nextNode++) + suffix;
        }
        renamedNodes[node] = renamed;
    }
    for (const std::string& name : opNames) {
        if (name.starts_with(kBackwardWrapper))
            pair.renamedOperators[name]
                = std::string(kBackwardWrapper) + renamedNodes.at(name.substr(kBackwardWrapper.size()));
        else if (renamedNodes.contains(name))
            pair.renamedOperators[name] = renamedNodes.at(name);
    }

    // Injections: launching operators whose every call launches kernels, each under another
    // outermost operator, so that every change shows in an operation of its own.
    // In a training trace the changes are spread over the regions of the step, in turn: backward,
    // optimizer, data-parallel communication, forward (those the trace has).
    std::vector<Candidate> candidates = candidatesOf(events, index);
    std::shuffle(candidates.begin(), candidates.end(), rng);
    const std::vector<const char*> regions { kRegionBackward, kRegionOptimizer, kRegionCommunication, kRegionForward };
    std::vector<std::vector<const Candidate*>> byRegion(regions.size());
    const std::vector<size_t> optimizerSpans = optimizerSteps(events, index);
    for (const Candidate& candidate : candidates) {
        const char* region = regionOf(events, optimizerSpans, classifier, candidate);
        // By text: the region names are one literal per translation unit, not one address.
        const size_t r = size_t(std::find_if(regions.begin(), regions.end(), [&](const char* name) {
            return std::string_view(name) == region;
        }) - regions.begin());
        byRegion[r].push_back(&candidate);
    }
    std::set<std::string> usedOuter;
    int splits = 0;
    int merges = 0;
    int64_t correlation = index.maxCorrelation + 1000;
    std::vector<size_t> nextOfRegion(regions.size(), 0);
    auto inject = [&](const Candidate& candidate, const char* region) {
        if (usedOuter.contains(candidate.outer))
            return false;
        const bool doMerge = candidate.forMerge && merges < recipe.merges;
        const bool doSplit = !candidate.forMerge && splits < recipe.splits;
        if (!doMerge && !doSplit)
            return false;
        const std::vector<size_t>& firstCall = candidate.calls.front();
        const size_t changed = doMerge ? firstCall[1] : firstCall.front();
        const bool collective
            = classifier.categoryName(classifier.classify(nameOf(events[changed].json))) == "Communication";
        for (const std::vector<size_t>& kernels : candidate.calls) {
            if (doMerge)
                merge(events, kernels);
            else
                split(events, index, kernels, correlation++);
        }
        usedOuter.insert(candidate.outer);
        (doMerge ? merges : splits) += 1;
        pair.changes.push_back({ doMerge ? "merge" : "split", candidate.launching, candidate.outer,
            pair.renamedOperators.at(candidate.outer), candidate.calls.size(), doMerge ? -1 : 1, region, collective });
        return true;
    };
    for (bool progress = true; progress && (splits < recipe.splits || merges < recipe.merges);) {
        progress = false;
        for (size_t r = 0; r < regions.size(); ++r) {
            while (nextOfRegion[r] < byRegion[r].size() && (splits < recipe.splits || merges < recipe.merges)) {
                progress = true;
                if (inject(*byRegion[r][nextOfRegion[r]++], regions[r]))
                    break;
            }
        }
    }

    // Operator fusions, away from the operations changed above.
    std::vector<OperatorFusion> fusions = operatorFusionsOf(events, index);
    std::shuffle(fusions.begin(), fusions.end(), rng);
    int fused = 0;
    std::set<std::string> usedOperators;
    for (const OperatorFusion& fusion : fusions) {
        if (fused >= recipe.operatorFusions)
            break;
        if (usedOuter.contains(fusion.first) || usedOuter.contains(fusion.second)
            || usedOperators.contains(fusion.first) || usedOperators.contains(fusion.second))
            continue;
        const std::string name = "vendor_ops::fused_" + std::to_string(++fused);
        std::map<int64_t, std::vector<size_t>> kernelsOfOp;
        for (const size_t k : index.kernels) {
            if (index.launcherOf[k] >= 0)
                kernelsOfOp[index.launcherOf[k]].push_back(k);
        }
        for (const auto& [first, second] : fusion.calls) {
            const std::vector<size_t> kernels { kernelsOfOp.at(int64_t(first)).front(),
                kernelsOfOp.at(int64_t(second)).front() };
            fuseOperators(events, index, first, second, kernels, name);
        }
        usedOperators.insert(fusion.first);
        usedOperators.insert(fusion.second);
        pair.changes.push_back({ "fuse_operators", fusion.first + " + " + fusion.second,
            fusion.first + " + " + fusion.second, name, fusion.calls.size(), -1, kRegionForward });
    }

    // Kernel names of another style, speeds per category; operators renamed; Python lines moved.
    KernelRenamer renamer(classifier, rng);
    std::unordered_map<std::string, std::string> kernelNames;
    std::unordered_map<CategoryId, double> speed;
    const QRegularExpression pythonLine(QStringLiteral("^(.*)\\((\\d+)\\): (.*)$"));
    std::unordered_map<std::string, int> lineShift;
    for (Event& event : events) {
        const std::string category = categoryOf(event.json);
        const std::string name = nameOf(event.json);
        if (category == "kernel") {
            auto [it, inserted] = kernelNames.try_emplace(name);
            if (inserted) {
                it->second = renamer.rename(name);
                (it->second.empty() ? pair.keptKernelNames : pair.renamedKernelNames) += 1;
                if (it->second.empty())
                    it->second = name;
            }
            event.json.insert(QStringLiteral("name"), QString::fromStdString(it->second));
            const CategoryId type = classifier.classify(name);
            const auto [factor, added] = speed.try_emplace(type, 0);
            if (added)
                factor->second = uniform(rng, 0.5, 2.0);
            event.json.insert(
                QStringLiteral("dur"), numberOf(event.json, "dur") * factor->second * uniform(rng, 0.9, 1.1));
        } else if (category == "cpu_op" && !event.named) {
            event.json.insert(QStringLiteral("name"), QString::fromStdString(pair.renamedOperators.at(name)));
        } else if (category == "python_function") {
            const QRegularExpressionMatch match = pythonLine.match(QString::fromStdString(name));
            if (!match.hasMatch())
                continue;
            const std::string file = match.captured(1).toStdString();
            const auto [shift, added] = lineShift.try_emplace(file, 0);
            if (added)
                shift->second = std::uniform_int_distribution<int>(1, 60)(rng);
            event.json.insert(QStringLiteral("name"),
                match.captured(1) + QLatin1Char('(') + QString::number(match.captured(2).toInt() + shift->second)
                    + QStringLiteral("): ") + match.captured(3));
        }
    }

    pair.traceB = traceWithEvents(root, events);
    return pair;
}

} // namespace fusiondiff::test
