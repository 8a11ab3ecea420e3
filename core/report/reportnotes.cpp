#include "report/reportnotes.h"

#include "model/fusionreport.h"
#include "report/graphtables.h"
#include "report/layerphases.h"
#include "util/plural.h"
#include "util/textformat.h"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace fusiondiff {

std::vector<LookFirst> whereToLookFirst(const FusionReport& report, size_t limit)
{
    std::vector<LookFirst> items;
    for (const LookFirstEntry& entry : report.whereToLookFirst) {
        if (items.size() == limit)
            break;
        items.push_back({ entry.title, entry.details, entry.againstGap });
    }
    return items;
}

std::string againstGapHeading(const FusionReport& report)
{
    const TimeGapBreakdown& gap = report.timeGap.headline();
    const Side slower = gap.slowerSide();
    return "Working the other way (" + report.sideName(otherSide(slower)) + " is slower in these, "
        + report.sideName(slower) + " overall):";
}

std::string nothingStandsOut(const FusionReport& report)
{
    const GraphComparison& graphs = report.graphComparison;
    if (report.opAlignment.matched == 0 && graphs.pairs.empty() && graphs.coverage.empty())
        return "Nothing to rank: no operation or graph of one trace was paired with one of the other (the notes say "
               "why), and no kernel type, collective or idle cause differs in time.";
    return "Nothing stands out: no operation runs a different number of kernels on the two sides.";
}

namespace {

using Notes = std::vector<std::string>;

// A side without kernels has nothing to compare.
void addEmptySideNotes(const FusionReport& report, Notes& notes)
{
    for (const Side side : { Side::Trace1, Side::Trace2 }) {
        const TraceSummary& trace = report.traces[sideIndex(side)];
        if (trace.kernels == 0)
            notes.push_back(std::string(side == Side::Trace1 ? "A" : "B") + " (" + trace.label
                + ") holds no GPU kernels: it was recorded without CUDA/HIP activity, so there is nothing to compare "
                  "on "
                  "that side.");
    }
}

// How the operations line up: the alignment's verdict and its notes.
void addAlignmentNotes(const FusionReport& report, Notes& notes)
{
    const OpAlignment& alignment = report.opAlignment;
    notes.push_back("Operations (" + std::string(opLevelKey(alignment.level)) + " level): " + alignment.verdict);
    for (const std::string& note : alignment.notes)
        notes.push_back(note + ".");
}

// " Phase 2 has no graph pieces.": where the traces' other compared phases have no layer rows (a
// decode step that runs in graph launches), the note says so, so that a verdict over one phase does
// not read as the whole step's.
std::string layerlessPhasesText(const FusionReport& report, const std::vector<LayerPhaseSummary>& phases)
{
    std::vector<std::string> without;
    for (const std::string& name : report.stepTime.phases) {
        if (std::none_of(phases.begin(), phases.end(), [&name](const LayerPhaseSummary& p) { return p.phase == name; }))
            without.push_back(name);
    }
    if (without.empty())
        return "";
    std::string list;
    for (size_t i = 0; i < without.size(); ++i)
        list += (i == 0 ? "" : i + 1 == without.size() ? " and " : ", ") + without[i];
    list[0] = char(std::toupper(static_cast<unsigned char>(list[0])));
    return " " + list + (without.size() == 1 ? " has no " : " have no ") + layerNoun(report.opAlignment.layers) + ".";
}

// Where the traces were aligned layer by layer: which side's layers take longer, and the layer that
// differs most, so that a gap spread evenly over the layers reads apart from one in a few layers.
void addLayerTimesNote(const FusionReport& report, Notes& notes)
{
    const std::vector<LayerTimes>& layers = report.layerTimes;
    const std::vector<LayerPhaseSummary> phases = layerPhaseSummaries(layers);
    auto signedTime = [](double us) { return (us < 0 ? "A +" : "B +") + formatDuration(std::fabs(us)); };
    const LayerAlignment& alignment = report.opAlignment.layers;
    const std::string one = layerNoun(alignment, false);
    for (const LayerPhaseSummary& phase : phases) {
        // A note per phase, named when there are several: a verdict over prefill and decode at once misleads.
        const LayerTimes& largest = layers[phase.largestRow];
        std::string text = "By " + one;
        if (phases.size() > 1 || report.stepTime.phases.size() > 1)
            text += " in " + phase.phase;
        text += " (" + std::to_string(phase.rows) + " a step, " + alignment.unit[0];
        if (alignment.graphPieces)
            text += ", torch.compile graph pieces rather than the model's layers";
        text += "): B takes longer in " + std::to_string(phase.longer[1]) + ", A in " + std::to_string(phase.longer[0]);
        text += "; over all " + layerNoun(alignment) + " " + signedTime(phase.differenceUs);
        text += "; the largest difference is " + one + " " + std::to_string(largest.index);
        text += " (" + signedTime(largest.differenceUs()) + ": " + formatDuration(largest.timeUs[0]) + " vs ";
        text += formatDuration(largest.timeUs[1]) + ").";
        if (&phase == &phases.back())
            text += layerlessPhasesText(report, phases);
        notes.push_back(std::move(text));
    }
}

// Why the views count unattributed kernels differently: the step-time waterfall counts those inside
// the compared steps, where to look first lists them by kernel type with the kernels outside what
// was compared. Empty when the step time has no unattributed part.
std::string unattributedInStepsText(const FusionReport& report, size_t side)
{
    if (!report.timeGap.stepTime)
        return "";
    for (const TimeGapPart& part : report.timeGap.stepTime->parts) {
        if (part.cause != GapCause::Unattributed || part.kernels[side] == report.opAlignment.unattributedKernels[side])
            continue;
        return "; " + withThousands(int64_t(part.kernels[side])) + " of them (" + formatDuration(part.timeUs[side])
            + ") run inside the compared steps, which the step-time waterfall counts; where to look first lists "
              "them by kernel type, together with the kernels outside what was compared";
    }
    return "";
}

// Kernels of `side` that no launch in the trace attributes to an operation.
void addUnattributedNote(const FusionReport& report, Side side, Notes& notes)
{
    const size_t i = sideIndex(side);
    const OpAlignment& alignment = report.opAlignment;
    const TraceSummary& trace = report.traces[i];
    if (alignment.unattributedKernels[i] == 0 || trace.kernels == 0)
        return;
    const uint64_t launched = alignment.unattributedLaunchedKernels[i];
    const uint64_t unlaunched = alignment.unattributedKernels[i] - launched;
    const std::string noLaunch = "no launch in the trace (launched before the profiler's CPU window, or no CPU events)";
    const std::string noOperation = "a launch in the trace outside every operation (such as a graph launch "
                                    "issued with no operator around it)";
    std::string why;
    if (launched == 0)
        why = "they have " + noLaunch;
    else if (unlaunched == 0)
        why = "they have " + noOperation;
    else
        why = withThousands(int64_t(unlaunched)) + " ("
            + formatDuration(alignment.unattributedTimeUs[i] - alignment.unattributedLaunchedTimeUs[i]) + ") have "
            + noLaunch + ", " + withThousands(int64_t(launched)) + " ("
            + formatDuration(alignment.unattributedLaunchedTimeUs[i]) + ") " + noOperation;
    notes.push_back(withThousands(int64_t(alignment.unattributedKernels[i])) + " of "
        + withThousands(int64_t(trace.kernels)) + " kernels of " + sideLetter(side) + " ("
        + formatDuration(alignment.unattributedTimeUs[i]) + ") are unattributed: " + why
        + ": they count in the kernel types but not in the operation comparison"
        + (report.graphComparison.kernels[i] > 0 ? " (graph launches are compared as graphs)" : "")
        + unattributedInStepsText(report, i) + ".");
}

// ", which fall into 2 phases ...": `lead` before the count of phases, when there are several.
std::string phasesText(const Iterations& iterations, const char* lead)
{
    if (iterations.phases.size() <= 1)
        return "";
    return lead + std::to_string(iterations.phases.size())
        + " phases that run different operations (such as prefill and decode), compared phase by phase";
}

// What `side`'s steps are: profiler steps, the calls of a repeated Python function, or a cycle.
void addIterationsNote(const FusionReport& report, Side side, Notes& notes)
{
    const Iterations& iterations = report.iterations[sideIndex(side)];
    if (iterations.method == "ProfilerStep annotations" && iterations.count > 0) {
        notes.push_back(std::string(sideLetter(side)) + " has " + std::to_string(iterations.count)
            + (iterations.count == 1 ? " profiler step" : " profiler steps") + "; "
            + std::to_string(iterations.compared) + " compared"
            + (iterations.warmupSkipped ? " (the first left out as warm-up)" : "")
            + phasesText(iterations, "; the steps fall into ") + ".");
    } else if (iterations.method.starts_with("repeated Python call ") && iterations.count > 0) {
        notes.push_back(std::string(sideLetter(side)) + " has no profiler steps; its steps are the "
            + countedNoun(iterations.count, "call", "calls") + " of the Python function "
            + iterations.method.substr(std::string_view("repeated Python call ").size())
            + phasesText(iterations, ", which fall into ") + ".");
    } else if (iterations.cycleLength > 0) {
        notes.push_back(std::string(sideLetter(side)) + " repeats a cycle of " + std::to_string(iterations.cycleLength)
            + " operations " + std::to_string(iterations.count) + " times (its layers, for a model).");
    }
}

uint64_t largestGraphKernels(const std::vector<GraphKind>& kinds)
{
    uint32_t largest = 0;
    for (const GraphKind& kind : kinds)
        largest = std::max(largest, kind.kernels);
    return largest;
}

// What the reference analysis's correlation-group matching had to work with.
std::string correlationGroupsNote(const FusionReport& report)
{
    const TraceSummary& a = report.traces[0];
    const TraceSummary& b = report.traces[1];
    const std::string minimum = std::to_string(report.options.minGroupSize);
    if (a.largeGroups == 0 && b.largeGroups == 0 && (a.graphLaunches > 0 || b.graphLaunches > 0)) {
        const GraphComparison& graphs = report.graphComparison;
        std::string launches;
        for (const Side side : { Side::Trace1, Side::Trace2 }) {
            const size_t i = sideIndex(side);
            launches += std::string(i == 0 ? "" : ", ") + sideLetter(side) + " "
                + withThousands(int64_t(report.traces[i].graphLaunches)) + " (largest "
                + withThousands(int64_t(largestGraphKernels(graphs.kinds[i]))) + " kernels)";
        }
        return "No correlation group has " + minimum
            + " or more kernels on either side, although the traces launch "
              "CUDA/HIP graphs ("
            + launches
            + "): the graphs are smaller than the reference analysis's group size "
              "(--min-group-size), so its group matching has nothing to compare; FusionDiff's graph comparison and "
              "the operation comparison do.";
    }
    if (a.largeGroups == 0 && b.largeGroups == 0) {
        return "No correlation group has " + minimum
            + " or more kernels on either side: the traces were recorded in eager mode (one kernel per launch), "
              "not with CUDA/HIP graphs, so the reference analysis's group matching has nothing to compare; "
              "the operation comparison and the whole-trace counts do.";
    }
    if (report.groupPairs.empty()) {
        return "A has " + std::to_string(a.largeGroups) + " and B " + std::to_string(b.largeGroups)
            + " correlation groups of " + minimum + "+ kernels, but none match within the size tolerance of "
            + fixed(report.options.sizeTolerance * 100, 0)
            + "%: the graphs differ in size (see the correlation groups), so the reference analysis compares only "
              "whole-trace counts (FusionDiff's graph comparison does not depend on it).";
    }
    return std::to_string(report.groupPairs.size())
        + (report.groupPairs.size() == 1 ? " correlation group pair matched (of "
                                         : " correlation group pairs matched (of ")
        + std::to_string(a.largeGroups) + " in A and " + std::to_string(b.largeGroups) + " in B).";
}

// Both sides' GPU kernel time and launches, when both have time.
void addKernelTimeNote(const FusionReport& report, Notes& notes)
{
    const TraceSummary& a = report.traces[0];
    const TraceSummary& b = report.traces[1];
    // With the time a graph launch ran on after its last recorded kernel, as the time gap counts it.
    const std::array<double, 2> notRecorded = report.graphComparison.unrecordedUs;
    const double timeA = a.kernelTimeUs + notRecorded[0];
    const double timeB = b.kernelTimeUs + notRecorded[1];
    if (a.kernelTimeUs <= 0 || b.kernelTimeUs <= 0)
        return;
    const auto ofIt = [&notRecorded](size_t side) {
        return notRecorded[side] > 0 ? " (" + formatDuration(notRecorded[side]) + " of it not recorded)"
                                     : std::string();
    };
    const bool aSlower = timeA > timeB;
    notes.push_back(std::string("GPU kernel time: A ") + formatDuration(timeA) + ofIt(0) + ", B "
        + formatDuration(timeB) + ofIt(1) + " (" + (aSlower ? "A" : "B") + " spends "
        + fixed(std::max(timeA, timeB) / std::min(timeA, timeB), 2) + "x as long); kernel launches: A "
        + withThousands(static_cast<int64_t>(a.kernels)) + ", B " + withThousands(static_cast<int64_t>(b.kernels))
        + ".");
}

// The (at most three) kernel types whose time differs most.
void addLargestTypeDifferencesNote(const FusionReport& report, Notes& notes)
{
    std::vector<const TypeCount*> types;
    for (const TypeCount& counts : report.globalCounts)
        types.push_back(&counts);
    std::sort(types.begin(), types.end(), [](const TypeCount* x, const TypeCount* y) {
        return std::fabs(x->timeUs[0] - x->timeUs[1]) > std::fabs(y->timeUs[0] - y->timeUs[1]);
    });
    std::string largest;
    for (size_t i = 0; i < std::min<size_t>(3, types.size()); ++i) {
        const TypeCount& counts = *types[i];
        const double difference = counts.timeUs[0] - counts.timeUs[1];
        if (difference == 0)
            break;
        largest += (largest.empty() ? "" : "; ") + report.typeName(counts.type) + " ("
            + (difference > 0 ? "A +" : "B +") + formatDuration(std::fabs(difference)) + ", "
            + withThousands(static_cast<int64_t>(counts.count[0])) + " vs "
            + withThousands(static_cast<int64_t>(counts.count[1])) + " kernels)";
    }
    if (!largest.empty())
        notes.push_back("Largest time differences by kernel type: " + largest + ".");
}

// A side with 5% or more of its kernel time in the classifier's fallback type.
void addUnclassifiedTimeNotes(const FusionReport& report, Notes& notes)
{
    const auto fallback = std::find_if(report.globalCounts.begin(), report.globalCounts.end(),
        [&](const TypeCount& counts) { return counts.type == report.classifier.fallback; });
    if (fallback == report.globalCounts.end())
        return;
    for (const Side side : { Side::Trace1, Side::Trace2 }) {
        const double total = report.traces[sideIndex(side)].kernelTimeUs;
        const double share = total > 0 ? fallback->timeUs[sideIndex(side)] / total : 0;
        if (share >= 0.05)
            notes.push_back(fixed(share * 100, 0) + "% of " + (side == Side::Trace1 ? "A" : "B")
                + "'s kernel time is in kernels the classifier \"" + report.classifier.name + "\" calls "
                + report.typeName(report.classifier.fallback)
                + ": see the kernels table, or give a rule file with --classifier.");
    }
}

// Each collective's launches, time and implementation on both sides.
void addCollectiveNotes(const FusionReport& report, Notes& notes)
{
    for (const CollectiveComparison& c : report.collectives) {
        notes.push_back("Collective " + c.collective + ": A " + countedNoun(c.count[0], "launch", "launches") + ", "
            + formatDuration(c.timeUs[0]) + (c.implementation[0].empty() ? "" : " (" + c.implementation[0] + ")")
            + "; B " + countedNoun(c.count[1], "launch", "launches") + ", " + formatDuration(c.timeUs[1])
            + (c.implementation[1].empty() ? "" : " (" + c.implementation[1] + ")") + ".");
    }
}

} // namespace

std::vector<std::string> reportNotes(const FusionReport& report)
{
    Notes notes;
    addEmptySideNotes(report, notes);
    if (report.traces[0].kernels == 0 || report.traces[1].kernels == 0)
        return notes;
    addAlignmentNotes(report, notes);
    addLayerTimesNote(report, notes);
    for (const Side side : { Side::Trace1, Side::Trace2 }) {
        addUnattributedNote(report, side, notes);
        addIterationsNote(report, side, notes);
    }
    notes.push_back(correlationGroupsNote(report));
    for (std::string& note : graphComparisonNotes(report))
        notes.push_back(std::move(note));
    addKernelTimeNote(report, notes);
    addLargestTypeDifferencesNote(report, notes);
    addUnclassifiedTimeNotes(report, notes);
    addCollectiveNotes(report, notes);
    for (const std::string& note : report.stepTime.notes)
        notes.push_back("Step time: " + note);
    if (report.opportunities.empty() && report.mappings.empty() && report.opFindings.empty())
        notes.emplace_back("No fusion difference passed the thresholds: the two traces launch the same kernels for the "
                           "same operations.");
    return notes;
}

} // namespace fusiondiff
