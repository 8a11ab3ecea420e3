#include "pairconstructor.h"

#include "classify/classifier.h"
#include "fusionanalysis.h"
#include "load/traceloader.h"
#include "model/fusionreport.h"
#include "ops/alignment/alignmentkeys.h"
#include "ops/attribution/opattribution.h"
#include "util/textformat.h"
#include "util/textmatch.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <zlib.h>

#include <algorithm>
#include <random>
#include <set>
#include <stdexcept>
#include <tuple>
#include <unordered_map>

namespace fusiondiff::test {

namespace {

using Rng = std::mt19937_64;

constexpr const char* kRegionForward = "forward";
constexpr const char* kRegionBackward = "backward";
constexpr const char* kRegionOptimizer = "optimizer";
constexpr const char* kRegionCommunication = "communication";

double uniform(Rng& rng, double low, double high)
{
    return std::uniform_real_distribution<double>(low, high)(rng);
}

const char* roleWord(KernelNameRole role)
{
    switch (role) {
    case KernelNameRole::SplitKReduce:
        return "_splitKreduce";
    case KernelNameRole::LayoutConversion:
        return "_transpose";
    case KernelNameRole::Fill:
        return "_fill";
    case KernelNameRole::Copy:
        return "_copy";
    case KernelNameRole::None:
        break;
    }
    return "";
}

// Gives kernel names new ones of another style: built from the classifier's own rules for the
// category (a prefix or substring that rule matches), checked to classify the same, with the
// same role; preferring a rule whose words the original name does not contain.
class KernelRenamer
{
public:
    KernelRenamer(const Classifier& classifier, Rng& rng)
        : m_classifier(classifier)
        , m_rng(rng)
    { }

    // Empty if no other name was found.
    std::string rename(const std::string& original)
    {
        const CategoryId category = m_classifier.classify(original);
        const KernelNameRole role = kernelNameRole(original);
        const std::string id = "_v" + std::to_string(m_next++);
        const std::string lowered = asciiLower(original);
        std::vector<std::string> foreign, familiar;
        for (const Classifier::Rule& rule : m_classifier.rules()) {
            if (rule.category != category)
                continue;
            const auto& c = rule.conditions;
            std::vector<std::string> starts = c.prefix.empty() ? std::vector<std::string> { "" } : c.prefix;
            std::vector<std::string> words = c.any.empty() ? std::vector<std::string> { "" } : c.any;
            for (const std::string& start : starts) {
                for (const std::string& word : words) {
                    std::string name = start.empty() ? "k" : start;
                    if (!word.empty())
                        name += "_" + word;
                    for (const std::string& required : c.all)
                        name += "_" + required;
                    name += roleWord(role) + id;
                    if (m_classifier.classify(name) != category || kernelNameRole(name) != role)
                        continue;
                    const bool seen = (!start.empty() && lowered.starts_with(start))
                        || (!word.empty() && lowered.find(word) != std::string::npos);
                    (seen ? familiar : foreign).push_back(name);
                }
            }
        }
        if (foreign.empty() && familiar.empty()) {
            std::string plain = std::string("kernel") + roleWord(role) + id;
            if (m_classifier.classify(plain) == category && kernelNameRole(plain) == role)
                return plain;
            return {};
        }
        const std::vector<std::string>& pool = foreign.empty() ? familiar : foreign;
        return pool[std::uniform_int_distribution<size_t>(0, pool.size() - 1)(m_rng)];
    }

private:
    const Classifier& m_classifier;
    Rng& m_rng;
    uint64_t m_next = 1;
};

struct Event
{
    QJsonObject json;
    bool removed = false;
    bool named = false; // its name in B is set already (not renamed with the others)
};

int64_t argOf(const QJsonObject& event, const char* key)
{
    const QJsonValue value = event.value(QStringLiteral("args")).toObject().value(QLatin1String(key));
    return value.isDouble() ? value.toInteger(INT64_MIN) : INT64_MIN;
}

void setArg(QJsonObject& event, const char* key, int64_t value)
{
    QJsonObject args = event.value(QStringLiteral("args")).toObject();
    args.insert(QLatin1String(key), qint64(value));
    event.insert(QStringLiteral("args"), args);
}

std::string nameOf(const QJsonObject& event)
{
    return event.value(QStringLiteral("name")).toString().toStdString();
}

double numberOf(const QJsonObject& event, const char* key)
{
    return event.value(QLatin1String(key)).toDouble();
}

// The event's category, with the 2021 schema's names (`Operator`, `Runtime`, `Kernel`: the
// loader reads both) given as today's, so that such traces are read like any other.
std::string categoryOf(const QJsonObject& event)
{
    std::string category = event.value(QStringLiteral("cat")).toString().toStdString();
    if (category == "Operator")
        return "cpu_op";
    if (category == "Runtime")
        return "cuda_runtime";
    if (category == "Kernel")
        return "kernel";
    return category;
}

// A process or thread id: a number, or a string (the 2021 schema writes "1890023232" and
// "stream 7"), numeric strings read as their number, others hashed.
int64_t idOf(const QJsonObject& event, const char* key)
{
    const QJsonValue value = event.value(QLatin1String(key));
    if (!value.isString())
        return value.toInteger();
    bool numeric = false;
    const qint64 number = value.toString().toLongLong(&numeric);
    return numeric ? number : int64_t(qHash(value.toString()));
}

// The operator's id on a runtime call: `External id`, or in the 2021 schema `external id`.
int64_t externalIdOf(const QJsonObject& event)
{
    const int64_t id = argOf(event, "External id");
    return id != INT64_MIN ? id : argOf(event, "external id");
}

// The trace's events and how kernels relate to operators.
struct TraceIndex
{
    std::vector<size_t> cpuOps, kernels, runtimes, pythons;
    std::vector<int64_t> outerOf; // per event: the outermost operator around an operator (itself at the top)
    std::vector<int64_t> launcherOf; // per kernel event: the operator event that launched it, -1 if none
    std::vector<int64_t> moduleOf; // per operator event: the innermost module call around it, -1 if none
    std::vector<int64_t> operatorAround; // per runtime event: the innermost operator around it, -1 if none
    std::vector<size_t> annotations; // user annotations (ProfilerStep#N, Optimizer.step#...)
    std::unordered_map<int64_t, size_t> runtimeOfCorrelation;
    std::unordered_map<int64_t, uint32_t> kernelsOfCorrelation;
    int64_t maxCorrelation = 0;
};

TraceIndex indexTrace(const std::vector<Event>& events)
{
    TraceIndex index;
    index.outerOf.assign(events.size(), -1);
    index.launcherOf.assign(events.size(), -1);
    index.moduleOf.assign(events.size(), -1);
    index.operatorAround.assign(events.size(), -1);
    std::vector<size_t> modules;
    for (size_t i = 0; i < events.size(); ++i) {
        const std::string category = categoryOf(events[i].json);
        if (category == "cpu_op")
            index.cpuOps.push_back(i);
        else if (category == "kernel")
            index.kernels.push_back(i);
        else if (category == "cuda_runtime" || category == "cuda_driver")
            index.runtimes.push_back(i);
        else if (category == "user_annotation")
            index.annotations.push_back(i);
        else if (category == "python_function") {
            index.pythons.push_back(i);
            if (nameOf(events[i].json).starts_with("nn.Module: "))
                modules.push_back(i);
        }
    }
    // Outermost operator inside the innermost module, by nesting on each thread.
    // Runtime calls take part to find the operator around each (traces whose runtime calls carry no
    // operator's External id: the launcher is then the innermost operator around the call).
    std::vector<size_t> frames = index.cpuOps;
    frames.insert(frames.end(), modules.begin(), modules.end());
    frames.insert(frames.end(), index.runtimes.begin(), index.runtimes.end());
    auto key = [&](size_t i) {
        const QJsonObject& e = events[i].json;
        return std::make_tuple(idOf(e, "pid"), idOf(e, "tid"), numberOf(e, "ts"), -numberOf(e, "dur"));
    };
    std::sort(frames.begin(), frames.end(), [&](size_t a, size_t b) { return key(a) < key(b); });
    std::vector<size_t> open;
    for (size_t position = 0; position < frames.size(); ++position) {
        const size_t i = frames[position];
        const QJsonObject& e = events[i].json;
        if (position > 0) {
            const auto [pid, tid, ts, negDur] = key(frames[position - 1]);
            if (pid != std::get<0>(key(i)) || tid != std::get<1>(key(i)))
                open.clear();
        }
        const double ts = numberOf(e, "ts");
        const double end = ts + numberOf(e, "dur");
        while (!open.empty()) {
            const QJsonObject& top = events[open.back()].json;
            const double topEnd = numberOf(top, "ts") + numberOf(top, "dur");
            if (topEnd < ts || topEnd < end)
                open.pop_back();
            else
                break;
        }
        const std::string category = categoryOf(e);
        if (category == "cuda_runtime" || category == "cuda_driver") {
            const auto innermost = std::find_if(
                open.rbegin(), open.rend(), [&](size_t f) { return categoryOf(events[f].json) == "cpu_op"; });
            if (innermost != open.rend())
                index.operatorAround[i] = int64_t(*innermost);
            continue; // nests nothing
        }
        if (category == "cpu_op") {
            int64_t outer = int64_t(i);
            for (auto it = open.rbegin(); it != open.rend() && categoryOf(events[*it].json) == "cpu_op"; ++it)
                outer = int64_t(*it);
            index.outerOf[i] = outer;
            for (size_t k = open.size(); k-- > 0;) {
                const size_t enclosing = open[k];
                if (categoryOf(events[enclosing].json) == "python_function"
                    && nameOf(events[enclosing].json).starts_with("nn.Module: ")) {
                    index.moduleOf[i] = int64_t(enclosing);
                    break;
                }
            }
            if (isProfilerSpan(nameOf(e)))
                continue; // a step's or an optimizer's span, recorded as an operator: it nests nothing
        }
        open.push_back(i);
    }
    std::unordered_map<int64_t, size_t> opOfExternalId;
    for (const size_t i : index.cpuOps) {
        const int64_t external = argOf(events[i].json, "External id");
        if (external != INT64_MIN && !isProfilerSpan(nameOf(events[i].json)))
            opOfExternalId.emplace(external, i);
    }
    for (const size_t i : index.runtimes) {
        const int64_t correlation = argOf(events[i].json, "correlation");
        if (correlation != INT64_MIN) {
            index.runtimeOfCorrelation.emplace(correlation, i);
            index.maxCorrelation = std::max(index.maxCorrelation, correlation);
        }
    }
    for (const size_t k : index.kernels) {
        const int64_t correlation = argOf(events[k].json, "correlation");
        if (correlation == INT64_MIN)
            continue;
        ++index.kernelsOfCorrelation[correlation];
        index.maxCorrelation = std::max(index.maxCorrelation, correlation);
        const auto runtime = index.runtimeOfCorrelation.find(correlation);
        if (runtime == index.runtimeOfCorrelation.end())
            continue;
        const auto op = opOfExternalId.find(externalIdOf(events[runtime->second].json));
        if (op != opOfExternalId.end())
            index.launcherOf[k] = int64_t(op->second);
        else
            index.launcherOf[k] = index.operatorAround[runtime->second];
    }
    return index;
}

// Calls of one launching operator under one outermost operator (splits), or calls of one
// outermost operator (merges: two consecutive kernels of the operation become one), with the
// kernels of each call in time order.
struct Candidate
{
    std::string launching; // "aten::addmm", or for merges "aten::fill_ + aten::_flash_attention_forward"
    std::string outer;
    std::vector<std::vector<size_t>> calls;
    bool forMerge = false;
    size_t firstOuterCall = 0; // the outermost operator event of the first call
};

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

constexpr std::string_view kBackwardWrapper = "autograd::engine::evaluate_function: ";
// The autograd engine's own nodes (`torch::autograd::AccumulateGrad`), recorded without the
// wrapper in the 2021 schema: PyTorch's, so another build records them in this namespace too.
constexpr std::string_view kEngineNodes = "torch::autograd::";

bool isEngineNode(const std::string& name)
{
    return name.starts_with(kEngineNodes);
}

bool isOptimizerStep(const std::string& name)
{
    return name.starts_with("Optimizer.step");
}

// "AddmmBackward0" -> { "Addmm", "Backward0" }; empty if the name is not an autograd node's.
std::pair<std::string, std::string> splitNodeName(const std::string& name)
{
    const size_t at = name.rfind("Backward");
    if (at == std::string::npos || at == 0 || name.find("::") != std::string::npos)
        return {};
    for (size_t i = at + 8; i < name.size(); ++i) {
        if (name[i] < '0' || name[i] > '9')
            return {};
    }
    return { name.substr(0, at), name.substr(at) };
}

// Where in a training step a candidate's operation runs: its outermost operator is an autograd
// node (backward), inside an `Optimizer.step#...` span on its thread (optimizer), or launches
// communication kernels (data-parallel communication); else the forward pass.
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

// The operator name without namespace and underscores, lower case: "aten::native_layer_norm" ->
// "nativelayernorm", as PyTorch derives an autograd node's name (NativeLayerNormBackward0).
std::string nodeStem(const std::string& name)
{
    const size_t colons = name.rfind("::");
    std::string stem;
    for (const char c : colons == std::string::npos ? name : name.substr(colons + 2)) {
        if (c != '_')
            stem += char(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    }
    return stem;
}

// "op_25" -> "Op25", as PyTorch names an autograd node after its operator (addmm -> AddmmBackward0).
std::string camelCase(const std::string& name)
{
    std::string result;
    bool upper = true;
    for (const char c : name) {
        const bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
        if (!alnum) {
            upper = true;
            continue;
        }
        result += upper && c >= 'a' && c <= 'z' ? char(c - 'a' + 'A') : c;
        upper = false;
    }
    return result;
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

// Two consecutive outermost operators on one thread, one kernel each, in the same module call:
// where they follow each other, B runs one custom operator with one kernel instead.
struct OperatorFusion
{
    std::string first, second;
    std::vector<std::pair<size_t, size_t>> calls; // operator events
};

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

// The two operators of a call become one named `name`, their two kernels one.
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

} // namespace

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
    QJsonParseError error;
    QJsonDocument document = QJsonDocument::fromJson(traceA, &error);
    if (error.error != QJsonParseError::NoError)
        throw std::runtime_error("trace A is not JSON: " + error.errorString().toStdString());
    QJsonObject root = document.object();
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
    if (recipe.stacks == PairRecipe::Stacks::Keep) {
        pair.traceA = traceA;
    } else {
        QJsonArray stripped;
        for (const Event& event : events)
            stripped.append(event.json);
        QJsonObject strippedRoot = root;
        strippedRoot.insert(QStringLiteral("traceEvents"), stripped);
        pair.traceA = QJsonDocument(strippedRoot).toJson(QJsonDocument::Compact);
    }
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
        const size_t r = size_t(std::find(regions.begin(), regions.end(), region) - regions.begin());
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

    QJsonArray out;
    for (const Event& event : events) {
        if (!event.removed)
            out.append(event.json);
    }
    root.insert(QStringLiteral("traceEvents"), out);
    pair.traceB = QJsonDocument(root).toJson(QJsonDocument::Compact);
    return pair;
}

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
            if (!finding.isGraph && finding.sideOps[0] == change.trace1Op && finding.sideOps[1] == change.trace2Op
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
