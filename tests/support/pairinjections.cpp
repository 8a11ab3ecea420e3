#include "pairinjections.h"

#include "classify/classifier.h"
#include "pairnodenames.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace fusiondiff::test::pairdetail {

std::vector<Candidate> candidatesOf(const std::vector<Event>& events, const TraceIndex& index)
{
    std::map<int64_t, std::vector<size_t>> kernelsOfCall;
    std::map<int64_t, std::vector<size_t>> kernelsOfOuterCall;
    for (const size_t k : index.kernels) {
        const int64_t launcher = index.launcherOf[k];
        const int64_t correlation = argOf(events[k].json, "correlation");
        if (launcher >= 0 && index.kernelsOfCorrelation.at(correlation) == 1) { // not a graph replay
            kernelsOfCall[launcher].push_back(k);
            kernelsOfOuterCall[index.outerOf[size_t(launcher)]].push_back(k);
        }
    }
    auto inTimeOrder = [&](std::vector<size_t>& kernels) {
        std::sort(kernels.begin(), kernels.end(),
            [&](size_t a, size_t b) { return numberOf(events[a].json, "ts") < numberOf(events[b].json, "ts"); });
    };
    std::map<std::pair<std::string, std::string>, Candidate> byName;
    for (auto& [call, kernels] : kernelsOfCall) {
        inTimeOrder(kernels);
        const std::string launching = nameOf(events[size_t(call)].json);
        const std::string outer = nameOf(events[size_t(index.outerOf[size_t(call)])].json);
        Candidate& candidate = byName[{ launching, outer }];
        if (candidate.calls.empty())
            candidate.firstOuterCall = size_t(index.outerOf[size_t(call)]);
        candidate.launching = launching;
        candidate.outer = outer;
        candidate.calls.push_back(kernels);
    }
    std::map<std::string, Candidate> byOuter;
    std::map<std::string, bool> mergeable;
    for (auto& [call, kernels] : kernelsOfOuterCall) {
        inTimeOrder(kernels);
        const std::string outer = nameOf(events[size_t(call)].json);
        Candidate& candidate = byOuter[outer];
        if (candidate.calls.empty())
            candidate.firstOuterCall = size_t(call);
        candidate.outer = outer;
        candidate.forMerge = true;
        candidate.calls.push_back(kernels);
        const auto [ok, added] = mergeable.try_emplace(outer, true);
        ok->second = ok->second && kernels.size() >= 2
            && events[kernels[0]].json.value(QStringLiteral("tid"))
                == events[kernels[1]].json.value(QStringLiteral("tid"));
        if (ok->second && candidate.launching.empty()) {
            const std::string first = nameOf(events[size_t(index.launcherOf[kernels[0]])].json);
            const std::string second = nameOf(events[size_t(index.launcherOf[kernels[1]])].json);
            candidate.launching = first == second ? first : first + " + ";
            if (first != second)
                candidate.launching += second;
        }
    }
    std::vector<Candidate> result;
    result.reserve(byName.size() + byOuter.size());
    for (auto& [key, candidate] : byName)
        result.push_back(std::move(candidate));
    for (auto& [outer, candidate] : byOuter) {
        if (mergeable.at(outer))
            result.push_back(std::move(candidate));
    }
    return result;
}

std::vector<size_t> optimizerSteps(const std::vector<Event>& events, const TraceIndex& index)
{
    std::vector<size_t> steps;
    for (const std::vector<size_t>* spans : { &index.annotations, &index.cpuOps }) {
        for (const size_t span : *spans) {
            if (isOptimizerStep(nameOf(events[span].json)))
                steps.push_back(span);
        }
    }
    return steps;
}

const char* regionOf(const std::vector<Event>& events, const std::vector<size_t>& optimizerSpans,
    const Classifier& classifier, const Candidate& candidate)
{
    for (const std::vector<size_t>& kernels : candidate.calls) {
        for (const size_t k : kernels) {
            if (classifier.categoryName(classifier.classify(nameOf(events[k].json))) == "Communication")
                return kRegionCommunication;
        }
    }
    const QJsonObject& outer = events[candidate.firstOuterCall].json;
    if (nameOf(outer).starts_with(kBackwardWrapper) || !splitNodeName(nameOf(outer)).first.empty()
        || isEngineNode(nameOf(outer)))
        return kRegionBackward; // inside the engine's wrapper, or a node recorded alone (the 2021 schema)
    const double ts = numberOf(outer, "ts");
    auto contains = [&](size_t span) {
        const QJsonObject& e = events[span].json;
        return span != candidate.firstOuterCall && isOptimizerStep(nameOf(e))
            && e.value(QStringLiteral("tid")) == outer.value(QStringLiteral("tid")) && numberOf(e, "ts") <= ts
            && ts <= numberOf(e, "ts") + numberOf(e, "dur");
    };
    if (isOptimizerStep(nameOf(outer)) || std::any_of(optimizerSpans.begin(), optimizerSpans.end(), contains))
        return kRegionOptimizer;
    return kRegionForward;
}

void split(std::vector<Event>& events, const TraceIndex& index, const std::vector<size_t>& kernels, int64_t correlation)
{
    Event& kernel = events[kernels.front()];
    const double ts = numberOf(kernel.json, "ts");
    const double dur = numberOf(kernel.json, "dur");
    kernel.json.insert(QStringLiteral("dur"), dur / 2);
    QJsonObject second = kernel.json;
    second.insert(QStringLiteral("ts"), ts + dur / 2);
    second.insert(QStringLiteral("name"), QString::fromStdString(nameOf(kernel.json) + "_part2"));
    setArg(second, "correlation", correlation);
    const size_t runtime = index.runtimeOfCorrelation.at(argOf(kernel.json, "correlation"));
    QJsonObject launch = events[runtime].json;
    launch.insert(QStringLiteral("ts"), numberOf(launch, "ts") + numberOf(launch, "dur") / 2);
    launch.insert(QStringLiteral("dur"), numberOf(launch, "dur") / 2);
    setArg(launch, "correlation", correlation);
    events.push_back({ second, false });
    events.push_back({ launch, false });
}

void merge(std::vector<Event>& events, const std::vector<size_t>& kernels)
{
    Event& first = events[kernels[0]];
    Event& second = events[kernels[1]];
    const double begin = numberOf(first.json, "ts");
    const double end
        = std::max(begin + numberOf(first.json, "dur"), numberOf(second.json, "ts") + numberOf(second.json, "dur"));
    first.json.insert(QStringLiteral("dur"), end - begin);
    second.removed = true;
}

std::vector<OperatorFusion> operatorFusionsOf(const std::vector<Event>& events, const TraceIndex& index)
{
    std::map<int64_t, std::vector<size_t>> kernelsOfOp;
    for (const size_t k : index.kernels) {
        const int64_t launcher = index.launcherOf[k];
        if (launcher >= 0 && index.kernelsOfCorrelation.at(argOf(events[k].json, "correlation")) == 1)
            kernelsOfOp[launcher].push_back(k);
    }
    std::vector<size_t> outermost;
    for (const size_t i : index.cpuOps) {
        if (index.outerOf[i] == int64_t(i))
            outermost.push_back(i);
    }
    auto key = [&](size_t i) {
        const QJsonObject& e = events[i].json;
        return std::make_tuple(idOf(e, "pid"), idOf(e, "tid"), numberOf(e, "ts"));
    };
    std::sort(outermost.begin(), outermost.end(), [&](size_t a, size_t b) { return key(a) < key(b); });
    auto oneKernel = [&](size_t op) {
        const auto it = kernelsOfOp.find(int64_t(op));
        return it != kernelsOfOp.end() && it->second.size() == 1;
    };
    std::map<std::pair<std::string, std::string>, OperatorFusion> byNames;
    for (size_t p = 0; p + 1 < outermost.size(); ++p) {
        const size_t first = outermost[p];
        const size_t second = outermost[p + 1];
        if (std::get<0>(key(first)) != std::get<0>(key(second)) || std::get<1>(key(first)) != std::get<1>(key(second))
            || index.moduleOf[first] < 0 || index.moduleOf[first] != index.moduleOf[second] || !oneKernel(first)
            || !oneKernel(second))
            continue;
        OperatorFusion& fusion = byNames[{ nameOf(events[first].json), nameOf(events[second].json) }];
        fusion.first = nameOf(events[first].json);
        fusion.second = nameOf(events[second].json);
        if (fusion.calls.empty() || fusion.calls.back().second != first) // not overlapping the previous one
            fusion.calls.emplace_back(first, second);
    }
    std::vector<OperatorFusion> result;
    result.reserve(byNames.size());
    for (auto& [names, fusion] : byNames)
        result.push_back(std::move(fusion));
    return result;
}

void fuseOperators(std::vector<Event>& events, const TraceIndex& index, size_t first, size_t second,
    const std::vector<size_t>& kernels, const std::string& name)
{
    // The first operator keeps its place and its span (what the second called from Python stays,
    // now without an operator in it, as a fused operator's stack would look).
    events[first].json.insert(QStringLiteral("name"), QString::fromStdString(name));
    events[first].named = true;
    events[second].removed = true;
    merge(events, kernels);
    const auto runtime = index.runtimeOfCorrelation.find(argOf(events[kernels[1]].json, "correlation"));
    if (runtime != index.runtimeOfCorrelation.end())
        events[runtime->second].removed = true;
}

} // namespace fusiondiff::test::pairdetail
