#include "crossstack.h"

#include "classify/classifier.h"
#include "crossstacknames.h"
#include "model/fusionreport.h"
#include "ops/attribution/opattribution.h"
#include "pairevents.h"
#include "pairinjections.h"

#include <QJsonArray>
#include <QRegularExpression>

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

namespace fusiondiff::test {

using namespace pairdetail;

namespace {

constexpr const char* kCommunication = "Communication";

struct Injector
{
    std::vector<Event>& events;
    const TraceIndex& index;
    int64_t nextCorrelation;
    int64_t nextExternalId;

    // The runtime call that launched kernel `k`, if the trace has it.
    const QJsonObject* launchOf(size_t k) const
    {
        const auto runtime = index.runtimeOfCorrelation.find(argOf(events[k].json, "correlation"));
        return runtime == index.runtimeOfCorrelation.end() ? nullptr : &events[runtime->second].json;
    }

    // Kernel `k` becomes `names.size() + 1` kernels of equal length back to back: itself (renamed
    // to `firstName` unless empty) and one per name, each with a launch of its own; with `newOp`
    // set, the new kernels are launched by a new operator of that name nested at the end of the
    // launching operator (an operator split in two).
    void split(size_t k, const std::string& firstName, const std::vector<std::string>& names, const std::string& newOp)
    {
        QJsonObject& kernel = events[k].json;
        const double ts = numberOf(kernel, "ts");
        const double part = numberOf(kernel, "dur") / double(names.size() + 1);
        kernel.insert(QStringLiteral("dur"), part);
        if (!firstName.empty()) {
            kernel.insert(QStringLiteral("name"), QString::fromStdString(firstName));
            events[k].named = true;
        }
        const QJsonObject first = kernel; // `kernel` dangles once events grow
        const QJsonObject* launch = launchOf(k);
        if (!launch)
            throw std::runtime_error("a kernel to split has no launch call");
        QJsonObject launchCopy = *launch;
        const bool oldSchema = argOf(launchCopy, "external id") != INT64_MIN;
        const char* externalKey = oldSchema ? "external id" : "External id";
        if (!newOp.empty()) {
            const int64_t launcher = index.launcherOf[k];
            if (launcher < 0)
                throw std::runtime_error("a kernel to split has no launching operator");
            QJsonObject op = events[size_t(launcher)].json;
            const double opTs = numberOf(op, "ts");
            const double opDur = numberOf(op, "dur");
            op.insert(QStringLiteral("name"), QString::fromStdString(newOp));
            op.insert(QStringLiteral("ts"), opTs + opDur * 0.6);
            op.insert(QStringLiteral("dur"), opDur * 0.35);
            const int64_t external = nextExternalId++;
            setArg(op, externalKey, external);
            setArg(launchCopy, externalKey, external);
            launchCopy.insert(QStringLiteral("ts"), opTs + opDur * 0.7);
            launchCopy.insert(QStringLiteral("dur"), opDur * 0.1);
            events.push_back({ op, false, true });
        } else {
            launchCopy.insert(QStringLiteral("ts"), numberOf(launchCopy, "ts") + numberOf(launchCopy, "dur") * 0.5);
            launchCopy.insert(QStringLiteral("dur"), numberOf(launchCopy, "dur") * 0.4);
        }
        for (size_t n = 0; n < names.size(); ++n) {
            const int64_t correlation = nextCorrelation++;
            QJsonObject extra = first;
            extra.insert(QStringLiteral("ts"), ts + part * double(n + 1));
            extra.insert(QStringLiteral("name"), QString::fromStdString(names[n]));
            setArg(extra, "correlation", correlation);
            QJsonObject call = launchCopy;
            setArg(call, "correlation", correlation);
            events.push_back({ extra, false, true });
            events.push_back({ call, false, false });
        }
    }

    // The kernels become one: the first spans them all, the others and their launches go.
    void merge(const std::vector<size_t>& kernels)
    {
        QJsonObject& first = events[kernels.front()].json;
        const double begin = numberOf(first, "ts");
        double end = begin + numberOf(first, "dur");
        for (size_t n = 1; n < kernels.size(); ++n) {
            const QJsonObject& other = events[kernels[n]].json;
            end = std::max(end, numberOf(other, "ts") + numberOf(other, "dur"));
            events[kernels[n]].removed = true;
            const auto runtime = index.runtimeOfCorrelation.find(argOf(other, "correlation"));
            if (runtime != index.runtimeOfCorrelation.end())
                events[runtime->second].removed = true;
        }
        first.insert(QStringLiteral("dur"), end - begin);
    }
};

bool isCommunication(const Classifier& classifier, const std::string& kernel)
{
    return classifier.categoryName(classifier.classify(kernel)) == kCommunication;
}

// Swaps consecutive outermost operators of one thread whose kernels run back to back on one
// stream, with nothing else between them on the host or on that stream: independent work that
// the other stack issues in the other order. The operators, everything nested in them and their
// kernels move; no Python frame may be around (the recipe keeps none when it reorders).
uint64_t reorder(
    std::vector<Event>& events, const TraceIndex& index, const std::set<std::string>& untouchable, int wanted, Rng& rng)
{
    std::map<int64_t, std::vector<size_t>> kernelsOfOuter;
    for (const size_t k : index.kernels) {
        if (index.launcherOf[k] >= 0)
            kernelsOfOuter[index.outerOf[size_t(index.launcherOf[k])]].push_back(k);
    }
    std::vector<size_t> outermost;
    for (const size_t i : index.cpuOps) {
        if (index.outerOf[i] == int64_t(i) && !isProfilerSpan(nameOf(events[i].json)))
            outermost.push_back(i);
    }
    auto key = [&](size_t i) {
        return std::make_tuple(
            idOf(events[i].json, "pid"), idOf(events[i].json, "tid"), numberOf(events[i].json, "ts"));
    };
    std::sort(outermost.begin(), outermost.end(), [&](size_t a, size_t b) { return key(a) < key(b); });
    std::vector<size_t> sortedKernels = index.kernels;
    std::sort(sortedKernels.begin(), sortedKernels.end(),
        [&](size_t a, size_t b) { return numberOf(events[a].json, "ts") < numberOf(events[b].json, "ts"); });
    auto stream = [&](size_t k) { return std::make_pair(idOf(events[k].json, "pid"), idOf(events[k].json, "tid")); };
    std::vector<std::pair<size_t, size_t>> swappable;
    for (size_t p = 0; p + 1 < outermost.size(); ++p) {
        const size_t x = outermost[p];
        const size_t y = outermost[p + 1];
        const std::string xName = nameOf(events[x].json);
        const std::string yName = nameOf(events[y].json);
        if (std::get<0>(key(x)) != std::get<0>(key(y)) || std::get<1>(key(x)) != std::get<1>(key(y)) || xName == yName
            || untouchable.contains(xName) || untouchable.contains(yName) || xName.starts_with("autograd::")
            || yName.starts_with("autograd::"))
            continue;
        const auto kx = kernelsOfOuter.find(int64_t(x));
        const auto ky = kernelsOfOuter.find(int64_t(y));
        if (kx == kernelsOfOuter.end() || ky == kernelsOfOuter.end() || kx->second.size() != 1
            || ky->second.size() != 1)
            continue;
        const size_t a = kx->second.front();
        const size_t b = ky->second.front();
        if (stream(a) != stream(b) || numberOf(events[a].json, "ts") >= numberOf(events[b].json, "ts"))
            continue;
        // Nothing else on that stream between them.
        const auto at = std::find(sortedKernels.begin(), sortedKernels.end(), a);
        bool adjacent = true;
        for (auto it = at + 1; it != sortedKernels.end() && *it != b; ++it)
            adjacent = adjacent && stream(*it) != stream(a);
        // Within one step: the other stack runs the same work in each step, in its own order.
        const auto stepOf = [&](size_t op) {
            const double ts = numberOf(events[op].json, "ts");
            for (const std::vector<size_t>* spans : { &index.annotations, &index.cpuOps }) { // 2021: operators
                for (const size_t span : *spans) {
                    const QJsonObject& step = events[span].json;
                    if (nameOf(step).starts_with("ProfilerStep#") && numberOf(step, "ts") <= ts
                        && ts <= numberOf(step, "ts") + numberOf(step, "dur"))
                        return int64_t(span);
                }
            }
            return int64_t(-1);
        };
        if (adjacent && stepOf(x) == stepOf(y))
            swappable.push_back({ x, y });
    }
    std::shuffle(swappable.begin(), swappable.end(), rng);
    std::set<size_t> moved;
    uint64_t done = 0;
    // The host events nested in an operator (itself included), by thread and time.
    auto nestedIn = [&](size_t op) {
        const QJsonObject& e = events[op].json;
        const double begin = numberOf(e, "ts");
        const double end = begin + numberOf(e, "dur");
        std::vector<size_t> nested;
        for (const std::vector<size_t>* kind : { &index.cpuOps, &index.runtimes }) {
            for (const size_t i : *kind) {
                const QJsonObject& inner = events[i].json;
                if (idOf(inner, "tid") == idOf(e, "tid") && idOf(inner, "pid") == idOf(e, "pid")
                    && numberOf(inner, "ts") >= begin && numberOf(inner, "ts") + numberOf(inner, "dur") <= end)
                    nested.push_back(i);
            }
        }
        return nested;
    };
    auto shift = [&](const std::vector<size_t>& nested, double delta) {
        for (const size_t i : nested)
            events[i].json.insert(QStringLiteral("ts"), numberOf(events[i].json, "ts") + delta);
    };
    for (const auto& [x, y] : swappable) {
        if (int(done) >= wanted)
            break;
        if (moved.contains(x) || moved.contains(y))
            continue;
        const size_t a = kernelsOfOuter.at(int64_t(x)).front();
        const size_t b = kernelsOfOuter.at(int64_t(y)).front();
        const double x0 = numberOf(events[x].json, "ts");
        const double x1 = x0 + numberOf(events[x].json, "dur");
        const double y0 = numberOf(events[y].json, "ts");
        const double y1 = y0 + numberOf(events[y].json, "dur");
        const double a0 = numberOf(events[a].json, "ts");
        const double a1 = a0 + numberOf(events[a].json, "dur");
        const double b0 = numberOf(events[b].json, "ts");
        const double b1 = b0 + numberOf(events[b].json, "dur");
        const std::vector<size_t> inX = nestedIn(x);
        const std::vector<size_t> inY = nestedIn(y);
        shift(inY, x0 - y0);
        shift(inX, y1 - x1);
        events[b].json.insert(QStringLiteral("ts"), a0);
        events[a].json.insert(QStringLiteral("ts"), a0 + (b1 - b0) + (b0 - a1));
        moved.insert(x);
        moved.insert(y);
        ++done;
    }
    return done;
}

QString typeSpelling(const QString& type)
{
    static const std::map<QString, QString> other { { QStringLiteral("float"), QStringLiteral("Float") },
        { QStringLiteral("c10::Half"), QStringLiteral("Half") },
        { QStringLiteral("c10::BFloat16"), QStringLiteral("BFloat16") },
        { QStringLiteral("long int"), QStringLiteral("int64_t") }, { QStringLiteral("int"), QStringLiteral("int32_t") },
        { QStringLiteral("bool"), QStringLiteral("Bool") } };
    const auto it = other.find(type);
    return it == other.end() ? type : it->second;
}

} // namespace

CrossStackPair constructCrossStackPair(
    const QByteArray& traceA, const Classifier& classifier, const CrossStackRecipe& recipe)
{
    QJsonObject root = traceRootOf(traceA);
    std::vector<Event> events;
    for (const auto& value : root.value(QStringLiteral("traceEvents")).toArray()) {
        const QJsonObject event = value.toObject();
        if (!recipe.keepPythonStacks && categoryOf(event) == "python_function")
            continue;
        events.push_back({ event, false });
    }
    CrossStackPair pair;
    pair.traceA = traceWithEvents(root, events);
    const TraceIndex index = indexTrace(events);
    if (index.kernels.empty() || index.cpuOps.empty())
        throw std::runtime_error("trace A has no kernels or no CPU operators: nothing to rename or change");

    Rng rng(recipe.seed * 7919 + 17);
    bool rocm = false;
    for (const size_t k : index.kernels)
        rocm = rocm || crossstack::looksLikeRocm(nameOf(events[k].json));
    crossstack::OperatorRenamer operators(rng);
    crossstack::KernelRenamer kernels(rng, !rocm);

    // The changes, one operation (outermost operator) each.
    std::vector<Candidate> candidates = candidatesOf(events, index);
    std::shuffle(candidates.begin(), candidates.end(), rng);
    const std::vector<size_t> optimizerSpans = optimizerSteps(events, index);
    std::map<std::string, std::vector<const Candidate*>> byRegion;
    for (const Candidate& candidate : candidates)
        byRegion[regionOf(events, optimizerSpans, classifier, candidate)].push_back(&candidate);
    int64_t maxExternal = 0;
    for (const size_t i : index.cpuOps)
        maxExternal
            = std::max({ maxExternal, argOf(events[i].json, "External id"), argOf(events[i].json, "external id") });
    Injector injector { events, index, index.maxCorrelation + 100000, maxExternal + 100000 };
    std::set<std::string> usedOuter;
    auto record = [&](const Candidate& candidate, const char* kind, int delta, const char* region, bool collective) {
        usedOuter.insert(candidate.outer);
        pair.changes.push_back({ kind, candidate.launching, candidate.outer, operators.rename(candidate.outer),
            candidate.calls.size(), delta, region, collective });
    };
    // The first unused candidate of a region that `accept` takes.
    auto take = [&](const char* region, auto accept) -> const Candidate* {
        for (const Candidate* candidate : byRegion[region]) {
            if (!usedOuter.contains(candidate->outer) && accept(*candidate))
                return candidate;
        }
        return nullptr;
    };
    auto isSplit = [](const Candidate& c) { return !c.forMerge; };
    auto isMerge = [](const Candidate& c) { return c.forMerge; };
    // Backward: a node's kernel split; a node's launching operator split in two; two kernels merged.
    if (const Candidate* c = take(kRegionBackward, isSplit)) {
        for (const auto& call : c->calls)
            injector.split(
                call.front(), {}, { kernels.secondPartOf(kernels.rename(nameOf(events[call.front()].json))) }, {});
        record(*c, "split", 1, kRegionBackward, false);
    }
    if (const Candidate* c = take(kRegionBackward, isSplit)) {
        const std::string helper = operators.rename(c->launching) + "_scale";
        for (const auto& call : c->calls)
            injector.split(
                call.front(), {}, { kernels.secondPartOf(kernels.rename(nameOf(events[call.front()].json))) }, helper);
        record(*c, "split", 1, kRegionBackward, false);
    }
    if (const Candidate* c = take(kRegionBackward, isMerge)) {
        for (const auto& call : c->calls)
            injector.merge({ call[0], call[1] });
        record(*c, "merge", -1, kRegionBackward, false);
    }
    // Optimizer: per parameter group (one multi-tensor kernel as three), or fused (every kernel of
    // the update as one).
    if (const Candidate* c = take(kRegionOptimizer, isSplit)) {
        for (const auto& call : c->calls) {
            const std::string renamed = kernels.rename(nameOf(events[call.front()].json));
            injector.split(call.front(), {}, { renamed, renamed }, {});
        }
        record(*c, "split", 2, kRegionOptimizer, false);
    } else if (const Candidate* m = take(kRegionOptimizer, isMerge)) {
        size_t fewest = SIZE_MAX;
        for (const auto& call : m->calls)
            fewest = std::min(fewest, call.size());
        for (const auto& call : m->calls)
            injector.merge(std::vector<size_t>(call.begin(), call.begin() + ptrdiff_t(fewest)));
        record(*m, "merge", -int(fewest - 1), kRegionOptimizer, false);
    }
    // Communication: an all-reduce as reduce-scatter and all-gather, and bucketed all-reduces.
    auto firstCollective = [&](const std::vector<size_t>& call) -> size_t {
        for (const size_t k : call) {
            if (isCommunication(classifier, nameOf(events[k].json)))
                return k;
        }
        return SIZE_MAX;
    };
    auto allCallsCommunicate = [&](const Candidate& c) {
        return !c.forMerge && std::all_of(c.calls.begin(), c.calls.end(), [&](const auto& call) {
            return firstCollective(call) != SIZE_MAX;
        });
    };
    for (int bucketed = 0; bucketed < 2; ++bucketed) {
        const Candidate* c = take(kRegionCommunication, allCallsCommunicate);
        if (!c)
            break;
        for (const auto& call : c->calls) {
            const size_t k = firstCollective(call);
            const bool allReduce = nameOf(events[k].json).find("AllReduce") != std::string::npos;
            if (bucketed == 0 && allReduce)
                injector.split(
                    k, kernels.collectiveKernel("ReduceScatter"), { kernels.collectiveKernel("AllGather") }, {});
            else
                injector.split(k, {}, { kernels.rename(nameOf(events[k].json)) }, {});
        }
        record(*c, "split", 1, kRegionCommunication, true);
    }
    // Forward: a kernel split.
    if (const Candidate* c = take(kRegionForward, isSplit)) {
        for (const auto& call : c->calls)
            injector.split(
                call.front(), {}, { kernels.secondPartOf(kernels.rename(nameOf(events[call.front()].json))) }, {});
        record(*c, "split", 1, kRegionForward, false);
    }
    if (!recipe.keepPythonStacks)
        pair.reordered = reorder(events, index, usedOuter, recipe.reorders, rng);

    // Every name as the other stack writes it; speeds per kernel name; shapes' types spelled otherwise.
    std::map<std::string, double> speed;
    const QRegularExpression pythonLine(QStringLiteral("^(.*)\\((\\d+)\\): (.*)$"));
    std::map<QString, int> lineShift;
    std::set<std::string> renamedOps, renamedKernels;
    for (Event& event : events) {
        const std::string category = categoryOf(event.json);
        const std::string name = nameOf(event.json);
        if (category == "kernel") {
            if (!event.named) {
                event.json.insert(QStringLiteral("name"), QString::fromStdString(kernels.rename(name)));
                renamedKernels.insert(name);
            }
            auto [factor, added] = speed.try_emplace(nameOf(event.json), 0);
            if (added)
                factor->second = std::uniform_real_distribution<double>(0.6, 1.6)(rng);
            event.json.insert(QStringLiteral("dur"),
                numberOf(event.json, "dur") * factor->second * std::uniform_real_distribution<double>(0.95, 1.05)(rng));
        } else if (category == "cpu_op") {
            if (!event.named && !isProfilerSpan(name) && !name.starts_with("Optimizer.")) {
                event.json.insert(QStringLiteral("name"), QString::fromStdString(operators.rename(name)));
                renamedOps.insert(name);
            }
            QJsonObject args = event.json.value(QStringLiteral("args")).toObject();
            const QJsonValue types = args.value(QStringLiteral("Input type"));
            if (types.isArray()) {
                QJsonArray spelled;
                for (const auto& type : types.toArray())
                    spelled.append(typeSpelling(type.toString()));
                args.insert(QStringLiteral("Input type"), spelled);
                event.json.insert(QStringLiteral("args"), args);
            }
        } else if (category == "python_function") {
            if (name.starts_with("nn.Module: ")) {
                event.json.insert(QStringLiteral("name"), QString::fromStdString(operators.renameModule(name)));
                continue;
            }
            const QRegularExpressionMatch match = pythonLine.match(QString::fromStdString(name));
            if (!match.hasMatch())
                continue;
            auto [shift, added] = lineShift.try_emplace(match.captured(1), 0);
            if (added)
                shift->second = std::uniform_int_distribution<int>(-20, 80)(rng);
            const int line = std::max(1, match.captured(2).toInt() + shift->second);
            event.json.insert(QStringLiteral("name"),
                match.captured(1) + QLatin1Char('(') + QString::number(line) + QStringLiteral("): ")
                    + match.captured(3));
        }
    }
    pair.renamedOperators = renamedOps.size();
    pair.renamedKernels = renamedKernels.size();
    pair.traceB = traceWithEvents(root, events);
    return pair;
}

PairScore scoreCrossStackPair(const FusionReport& report, const std::vector<InjectedChange>& changes)
{
    std::vector<InjectedChange> asOperations = changes;
    for (InjectedChange& change : asOperations)
        change.collective = false; // scorePair would take the collectives' counts alone for them
    PairScore score = scorePair(report, asOperations);
    score.missed.clear();
    score.found = 0;
    for (const InjectedChange& change : changes) {
        const Side fewer = change.kernelDelta > 0 ? Side::Trace1 : Side::Trace2;
        bool found = std::any_of(report.opFindings.begin(), report.opFindings.end(), [&](const OpFinding& f) {
            return f.sideOps[0] == change.trace1Op && f.sideOps[1] == change.trace2Op && f.fusedSide == fewer;
        });
        if (!found && change.collective) {
            // Named by an entry with its time: the operation on either side, in its title or as its subject.
            found = std::any_of(
                report.whereToLookFirst.begin(), report.whereToLookFirst.end(), [&](const LookFirstEntry& entry) {
                    auto names = [&](const std::string& op) {
                        return entry.op == op || entry.title.find(op) != std::string::npos;
                    };
                    return entry.stakeUs > 0 && (names(change.trace1Op) || names(change.trace2Op));
                });
        }
        score.found += found ? 1 : 0;
        if (!found)
            score.missed.push_back(change.region + " " + change.kind + " in " + change.trace1Op + " ("
                + change.launchingOp + ") / " + change.trace2Op);
    }
    return score;
}

} // namespace fusiondiff::test
