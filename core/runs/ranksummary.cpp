#include "runs/ranksummary.h"

#include "classify/kerneltypes.h"
#include "model/tracestore.h"
#include "ops/attribution/iterations.h"
#include "ops/attribution/opattribution.h"
#include "ops/attribution/opoccurrences.h"
#include "ops/attribution/profilersteps.h"
#include "ops/comparison/collectivecalls.h"
#include "ops/timegap/steptime.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <limits>
#include <map>

namespace fusiondiff {

namespace {

std::vector<NamedTime> largestFirst(const std::map<std::string, double>& times, size_t limit)
{
    std::vector<NamedTime> out;
    out.reserve(times.size());
    for (const auto& [name, us] : times)
        out.push_back({ name, us });
    std::stable_sort(
        out.begin(), out.end(), [](const NamedTime& a, const NamedTime& b) { return a.timeUs > b.timeUs; });
    if (out.size() > limit)
        out.resize(limit);
    return out;
}

// The step work starting at `ts` belongs to: the last step that began before it (a step's GPU
// work may run past the step's end on the host, and a collective the step launched may start
// after the step's other work ended).
int32_t stepOf(const std::vector<StepRecord>& steps, double ts)
{
    const auto after = std::upper_bound(
        steps.begin(), steps.end(), ts, [](double at, const StepRecord& step) { return at < step.begin; });
    return int32_t(after - steps.begin()) - 1;
}

// A phase's distinct operation names hashed (FNV-1a), in hex: the same on every rank and machine
// that runs the same operations, unlike the finder's own signature of per-trace symbol ids.
std::string phaseSignature(
    const std::vector<uint32_t>& phase, const std::vector<OpOccurrence>& occurrences, const SymbolTable& symbols)
{
    std::vector<std::string> names;
    names.reserve(phase.size());
    for (const uint32_t i : phase)
        names.push_back(symbols.name(occurrences[i].symbol));
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    uint64_t hash = 1469598103934665603ull;
    for (const std::string& name : names) {
        for (const char c : name + '\n')
            hash = (hash ^ uint64_t(static_cast<unsigned char>(c))) * 1099511628211ull;
    }
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash));
    return text;
}

} // namespace

std::optional<int32_t> rankFromFileName(std::string_view fileName)
{
    std::string lower(fileName);
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    for (const std::string_view word : { "rank", "worker" }) {
        for (size_t at = lower.find(word); at != std::string::npos; at = lower.find(word, at + 1)) {
            size_t digits = at + word.size();
            if (digits < lower.size() && (lower[digits] == '_' || lower[digits] == '-'))
                ++digits;
            size_t end = digits;
            while (end < lower.size() && std::isdigit(static_cast<unsigned char>(lower[end])) && end - digits < 9)
                ++end;
            if (end > digits && (end == lower.size() || !std::isdigit(static_cast<unsigned char>(lower[end]))))
                return int32_t(std::stol(lower.substr(digits, end - digits)));
        }
    }
    return std::nullopt;
}

RankSummary summarizeRank(const TraceStore& store, const Classifier& classifier)
{
    RankSummary summary;
    summary.path = store.path;
    summary.label = store.label;
    summary.kernels = store.kernels.size();
    summary.worldSize = store.distributed.worldSize;
    summary.processGroups = store.distributed.processGroups;
    if (store.distributed.rank >= 0) {
        summary.rank = store.distributed.rank;
        summary.rankSource = "distributedInfo";
    } else if (const std::optional<int32_t> rank = rankFromFileName(store.fileName)) {
        summary.rank = *rank;
        summary.rankSource = "file name";
    }

    // The steps and their phases as the single pair's analysis finds them (profiler steps, else a
    // repeated Python call), then their time against an empty trace with the same steps: every
    // step measured, in one phase, and the other side costs nothing.
    const KernelAttribution attribution = attributeKernels(store);
    SymbolTable symbols;
    std::vector<OpOccurrence> occurrences = groupByOperation(store, attribution, OpLevel::Operator, symbols);
    const TraceIterations iterations = findIterations(store, occurrences);
    std::vector<HostStep> steps;
    for (const HostStep& step : iterations.steps)
        steps.push_back({ step.begin, step.end, 0 });
    const TraceStore nothing;
    StepTimeAnalysis stepTime = analyzeStepTime(
        { StepTimeTrace { store, steps, nullptr }, StepTimeTrace { nothing, steps, nullptr } }, { 0 });
    StepTimeSide& side = stepTime.report.sides[0];
    summary.steps = side.steps;
    for (size_t s = 0; s < summary.steps.size(); ++s)
        summary.steps[s].phase = s < iterations.steps.size() ? iterations.steps[s].phase : 0;
    // The profiler's own numbers, where the steps are its (a step found from a Python call has none).
    const std::vector<StepSpan> profiled = profilerSteps(store);
    for (const StepRecord& step : summary.steps) {
        const auto same = std::find_if(
            profiled.begin(), profiled.end(), [&step](const StepSpan& span) { return span.begin == step.begin; });
        summary.stepNumbers.push_back(same == profiled.end() ? -1 : same->number);
    }
    for (const std::vector<uint32_t>& phase : iterations.phases)
        summary.phaseSignatures.push_back(phaseSignature(phase, occurrences, symbols));

    const std::vector<CollectiveCall> calls = findCollectiveCalls(store, attribution);
    std::vector<bool> communication(store.kernels.size(), false);
    for (const CollectiveCall& call : calls) {
        RankCollectiveCall out;
        out.collective = call.collective;
        out.group = call.group;
        out.messageBytes = call.messageBytes;
        out.sequence = call.sequence;
        out.beginUs = std::numeric_limits<double>::max();
        out.endUs = std::numeric_limits<double>::lowest();
        for (const uint32_t k : call.kernels) {
            communication[k] = true;
            out.beginUs = std::min(out.beginUs, store.kernels[k].ts);
            out.endUs = std::max(out.endUs, store.kernels[k].ts + store.kernels[k].dur);
        }
        if (call.kernels.empty())
            continue;
        out.step = stepOf(summary.steps, out.beginUs);
        summary.collectives.push_back(std::move(out));
    }
    std::stable_sort(summary.collectives.begin(), summary.collectives.end(),
        [](const RankCollectiveCall& a, const RankCollectiveCall& b) { return a.beginUs < b.beginUs; });

    const KernelTypes types = classifyKernels(store, classifier);
    std::vector<std::map<std::string, double>> typeTimes(summary.steps.size());
    for (size_t k = 0; k < store.kernels.size(); ++k) {
        if (communication[k])
            continue;
        const int32_t step = stepOf(summary.steps, store.kernels[k].ts);
        if (step >= 0)
            typeTimes[size_t(step)][classifier.categoryName(types.ofKernel[k])] += store.kernels[k].dur;
    }
    std::vector<std::map<std::string, double>> hostIdle(summary.steps.size());
    for (const IdleInterval& interval : side.idle) {
        if (interval.cause == IdleCause::Host && interval.step >= 0 && size_t(interval.step) < hostIdle.size()
            && interval.code >= 0)
            hostIdle[size_t(interval.step)][side.codes[size_t(interval.code)].name] += interval.end - interval.begin;
    }
    for (size_t s = 0; s < summary.steps.size(); ++s) {
        summary.stepKernelTypesUs.push_back(largestFirst(typeTimes[s], SIZE_MAX));
        summary.stepHostIdleUs.push_back(largestFirst(hostIdle[s], RankSummary::kMaxHostCodes));
    }
    return summary;
}

} // namespace fusiondiff
