#include "pairevents.h"

#include "ops/attribution/opattribution.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonValue>

#include <algorithm>
#include <stdexcept>
#include <tuple>

namespace fusiondiff::test::pairdetail {

double uniform(Rng& rng, double low, double high)
{
    return std::uniform_real_distribution<double>(low, high)(rng);
}

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

int64_t idOf(const QJsonObject& event, const char* key)
{
    const QJsonValue value = event.value(QLatin1String(key));
    if (!value.isString())
        return value.toInteger();
    bool numeric = false;
    const qint64 number = value.toString().toLongLong(&numeric);
    return numeric ? number : int64_t(qHash(value.toString()));
}

int64_t externalIdOf(const QJsonObject& event)
{
    const int64_t id = argOf(event, "External id");
    return id != INT64_MIN ? id : argOf(event, "external id");
}

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

QJsonObject traceRootOf(const QByteArray& trace)
{
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(trace, &error);
    if (error.error != QJsonParseError::NoError)
        throw std::runtime_error("trace A is not JSON: " + error.errorString().toStdString());
    return document.object();
}

QByteArray traceWithEvents(QJsonObject root, const std::vector<Event>& events)
{
    QJsonArray out;
    for (const Event& event : events) {
        if (!event.removed)
            out.append(event.json);
    }
    root.insert(QStringLiteral("traceEvents"), out);
    return QJsonDocument(root).toJson(QJsonDocument::Compact);
}

} // namespace fusiondiff::test::pairdetail
