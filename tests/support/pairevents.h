#pragma once

// The events of a trace a constructed pair is built from (pairconstructor.h), and how its kernels
// relate to its operators.
#include <QByteArray>
#include <QJsonObject>

#include <cstdint>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

namespace fusiondiff::test::pairdetail {

using Rng = std::mt19937_64;

double uniform(Rng& rng, double low, double high);

struct Event
{
    QJsonObject json;
    bool removed = false;
    bool named = false; // its name in B is set already (not renamed with the others)
};

int64_t argOf(const QJsonObject& event, const char* key);
void setArg(QJsonObject& event, const char* key, int64_t value);
std::string nameOf(const QJsonObject& event);
double numberOf(const QJsonObject& event, const char* key);
// The event's category, with the 2021 schema's names (`Operator`, `Runtime`, `Kernel`: the
// loader reads both) given as today's, so that such traces are read like any other.
std::string categoryOf(const QJsonObject& event);
// A process or thread id: a number, or a string (the 2021 schema writes "1890023232" and
// "stream 7"), numeric strings read as their number, others hashed.
int64_t idOf(const QJsonObject& event, const char* key);
// The operator's id on a runtime call: `External id`, or in the 2021 schema `external id`.
int64_t externalIdOf(const QJsonObject& event);

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

TraceIndex indexTrace(const std::vector<Event>& events);

// The trace's top-level object; throws if `trace` is not JSON.
QJsonObject traceRootOf(const QByteArray& trace);
// `root` with `events` that are not removed as its traceEvents, as compact JSON.
QByteArray traceWithEvents(QJsonObject root, const std::vector<Event>& events);

} // namespace fusiondiff::test::pairdetail
