#include "ops/attribution/iterations.h"

#include "model/tracestore.h"
#include "ops/attribution/profilersteps.h"

#include <algorithm>
#include <map>
#include <string>
#include <unordered_map>

namespace fusiondiff {

namespace {

constexpr size_t kWarmupFrom = 3; // steps at which the first one is left out
constexpr double kCycleAgreement = 0.8;

// Without ProfilerStep annotations: the calls of one Python function that repeat and hold the
// operations (vLLM's execute_model, a benchmark's step function). Of the functions whose calls
// (those not inside another call of the same function) hold at least kPythonStepCoverage of the
// operations, in two calls or more, with at least kPythonStepOperations operations a call on
// average (not a wrapper around each operator, such as torch/_ops.py's __call__), the one with the
// fewest calls: the outermost repetition. Module dispatch (module.py's _call_impl) is the module
// structure, not a step: the layers of one forward pass would pass for steps. Operations outside
// the steps are not compared, hence the high coverage. `name` is set to the function's name.
constexpr double kPythonStepCoverage = 0.95;
constexpr double kPythonStepOperations = 10;

std::vector<StepSpan> pythonSteps(
    const TraceStore& store, const std::vector<OpOccurrence>& occurrences, std::string& name)
{
    std::vector<double> starts;
    starts.reserve(occurrences.size());
    for (const OpOccurrence& occurrence : occurrences)
        starts.push_back(occurrence.ts);
    std::sort(starts.begin(), starts.end());
    std::unordered_map<StringId, std::vector<StepSpan>> callsOf;
    for (const PythonFrameEvent& frame : store.pythonFrames)
        callsOf[frame.name].push_back({ frame.ts, frame.ts + frame.dur, -1 });
    std::vector<StepSpan> best;
    size_t bestCovered = 0;
    for (auto& [function, calls] : callsOf) {
        if (calls.size() < 2 || (!best.empty() && calls.size() > best.size()) || isModuleDispatch(store.name(function)))
            continue;
        std::sort(calls.begin(), calls.end(), [](const StepSpan& a, const StepSpan& b) { return a.begin < b.begin; });
        std::vector<StepSpan> outermost;
        size_t covered = 0;
        for (const StepSpan& call : calls) {
            if (!outermost.empty() && call.begin <= outermost.back().end)
                continue; // a recursive or nested call of the same function
            const auto first = std::lower_bound(starts.begin(), starts.end(), call.begin);
            const auto last = std::upper_bound(starts.begin(), starts.end(), call.end);
            if (last > first) {
                outermost.push_back(call);
                covered += size_t(last - first);
            }
        }
        if (outermost.size() < 2 || double(covered) < kPythonStepCoverage * double(starts.size())
            || double(covered) < kPythonStepOperations * double(outermost.size()))
            continue;
        if (best.empty() || outermost.size() < best.size()
            || (outermost.size() == best.size() && covered > bestCovered)) {
            best = std::move(outermost);
            bestCovered = covered;
            name = std::string(store.name(function));
        }
    }
    return best;
}

uint64_t signatureOf(const std::vector<uint32_t>& symbols)
{
    std::vector<uint32_t> distinct = symbols;
    std::sort(distinct.begin(), distinct.end());
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    uint64_t hash = 1469598103934665603ull;
    for (const uint32_t symbol : distinct)
        hash = (hash ^ symbol) * 1099511628211ull;
    return hash;
}

} // namespace

uint64_t repeatingCycle(std::span<const uint32_t> symbols, uint64_t& repeats)
{
    repeats = 0;
    std::unordered_map<uint32_t, std::vector<size_t>> positions;
    for (size_t i = 0; i < symbols.size(); ++i)
        positions[symbols[i]].push_back(i);
    // The rarest symbol that repeats at least three times, and the spacing it repeats with.
    const std::vector<size_t>* rarest = nullptr;
    for (const auto& [symbol, where] : positions) {
        if (where.size() >= 3
            && (!rarest || where.size() < rarest->size()
                || (where.size() == rarest->size() && where.front() < rarest->front())))
            rarest = &where;
    }
    if (!rarest)
        return 0;
    std::map<size_t, size_t> spacings;
    for (size_t i = 1; i < rarest->size(); ++i)
        ++spacings[(*rarest)[i] - (*rarest)[i - 1]];
    const auto common = std::max_element(
        spacings.begin(), spacings.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
    const size_t period = common->first;
    if (period == 0 || period * 2 > symbols.size())
        return 0;
    // Does the sequence repeat with that period between the first and last occurrence?
    size_t agree = 0;
    size_t compared = 0;
    for (size_t i = rarest->front(); i + period <= rarest->back(); ++i) {
        ++compared;
        agree += symbols[i] == symbols[i + period];
    }
    if (compared == 0 || double(agree) < kCycleAgreement * double(compared))
        return 0;
    repeats = rarest->size();
    return period;
}

TraceIterations findIterations(const TraceStore& store, std::vector<OpOccurrence>& occurrences)
{
    TraceIterations result;
    std::vector<StepSpan> steps = profilerSteps(store);
    std::string pythonFunction;
    const bool fromProfiler = !steps.empty();
    if (!fromProfiler)
        steps = pythonSteps(store, occurrences, pythonFunction);
    if (steps.empty()) {
        std::vector<uint32_t> symbols;
        symbols.reserve(occurrences.size());
        for (const OpOccurrence& occurrence : occurrences)
            symbols.push_back(occurrence.symbol);
        uint64_t repeats = 0;
        const uint64_t cycle = repeatingCycle(symbols, repeats);
        result.info.method = cycle > 0 ? "repeating operation cycle" : "none found";
        result.info.count = cycle > 0 ? repeats : 0;
        result.info.cycleLength = cycle;
        result.info.compared = result.info.count;
        result.phases.emplace_back();
        for (uint32_t i = 0; i < occurrences.size(); ++i)
            result.phases.back().push_back(i);
        result.phaseSignatures.push_back(signatureOf(symbols));
        return result;
    }

    result.info.method = fromProfiler ? "ProfilerStep annotations" : "repeated Python call " + pythonFunction;
    result.info.count = steps.size();
    for (const StepSpan& step : steps)
        result.steps.push_back({ step.begin, step.end, -1 });
    for (OpOccurrence& occurrence : occurrences)
        occurrence.step = stepAt(steps, occurrence.ts);
    // A profiler's first step is a warm-up; a repeated Python call's first call is real work (the
    // prefill before the decode steps).
    const size_t firstCompared = fromProfiler && steps.size() >= kWarmupFrom ? 1 : 0;
    result.info.warmupSkipped = firstCompared > 0;
    result.info.compared = steps.size() - firstCompared;

    // Steps sorted into phases by the operations they run.
    std::vector<std::vector<uint32_t>> stepOccurrences(steps.size());
    std::vector<std::vector<uint32_t>> stepSymbols(steps.size());
    for (uint32_t i = 0; i < occurrences.size(); ++i) {
        const int32_t step = occurrences[i].step;
        if (step >= int32_t(firstCompared)) {
            stepOccurrences[size_t(step)].push_back(i);
            stepSymbols[size_t(step)].push_back(occurrences[i].symbol);
        }
    }
    std::vector<size_t> stepsOfPhase;
    for (size_t step = firstCompared; step < steps.size(); ++step) {
        if (stepOccurrences[step].empty())
            continue;
        const uint64_t signature = signatureOf(stepSymbols[step]);
        const auto known = std::find(result.phaseSignatures.begin(), result.phaseSignatures.end(), signature);
        const size_t phase = size_t(known - result.phaseSignatures.begin());
        if (known == result.phaseSignatures.end()) {
            result.phaseSignatures.push_back(signature);
            result.phases.emplace_back();
            stepsOfPhase.push_back(0);
        }
        result.steps[step].phase = int32_t(phase);
        result.phases[phase].insert(
            result.phases[phase].end(), stepOccurrences[step].begin(), stepOccurrences[step].end());
        ++stepsOfPhase[phase];
    }
    for (size_t phase = 0; phase < result.phases.size(); ++phase) {
        result.info.phases.push_back("phase " + std::to_string(phase + 1) + ": " + std::to_string(stepsOfPhase[phase])
            + (stepsOfPhase[phase] == 1 ? " step, " : " steps, ") + std::to_string(result.phases[phase].size())
            + " operations");
    }
    if (result.phases.empty()) {
        // Steps, but no operation inside one: compare everything.
        result.phases.emplace_back();
        for (uint32_t i = 0; i < occurrences.size(); ++i)
            result.phases.back().push_back(i);
        result.phaseSignatures.push_back(0);
    }
    return result;
}

std::vector<int64_t> pairPhases(const TraceIterations& a, const TraceIterations& b)
{
    return pairPhaseSignatures(a.phaseSignatures, b.phaseSignatures);
}

} // namespace fusiondiff
