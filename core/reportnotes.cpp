#include "reportnotes.h"

#include "fusionreport.h"
#include "textformat.h"

#include <algorithm>
#include <cmath>

namespace fusiondiff {

std::string formatDuration(double microseconds)
{
    const double magnitude = std::fabs(microseconds);
    if (magnitude >= 1e6)
        return fixed(microseconds / 1e6, 2) + " s";
    if (magnitude >= 1e3)
        return fixed(microseconds / 1e3, magnitude >= 1e5 ? 0 : 1) + " ms";
    return fixed(microseconds, magnitude >= 100 ? 0 : 1) + " us";
}

std::vector<std::string> reportNotes(const FusionReport& report)
{
    std::vector<std::string> notes;
    const TraceSummary& a = report.traces[0];
    const TraceSummary& b = report.traces[1];
    const std::string minimum = std::to_string(report.options.minGroupSize);

    for (const Side side : {Side::Trace1, Side::Trace2}) {
        const TraceSummary& trace = report.traces[sideIndex(side)];
        if (trace.kernels == 0)
            notes.push_back(std::string(side == Side::Trace1 ? "A" : "B") + " (" + trace.label
                + ") holds no GPU kernels: it was recorded without CUDA/HIP activity, so there is nothing to compare on "
                  "that side.");
    }
    if (a.kernels == 0 || b.kernels == 0)
        return notes;

    if (a.largeGroups == 0 && b.largeGroups == 0) {
        notes.push_back("No correlation group has " + minimum
            + " or more kernels on either side: the traces were recorded in eager mode (one kernel per launch), "
              "not with CUDA/HIP graphs. Group matching, per-group opportunities and partial-fusion mappings need "
              "graph launches; the findings below come from whole-trace counts and kernel sequences.");
    } else if (report.groupPairs.empty()) {
        notes.push_back("A has " + std::to_string(a.largeGroups) + " and B " + std::to_string(b.largeGroups)
            + " correlation groups of " + minimum + "+ kernels, but none match within the size tolerance of "
            + fixed(report.options.sizeTolerance * 100, 0)
            + "%: the graphs differ in size (see the correlation groups), so only whole-trace counts are compared.");
    } else {
        notes.push_back(std::to_string(report.groupPairs.size()) + " correlation group pairs matched (of "
            + std::to_string(a.largeGroups) + " in A and " + std::to_string(b.largeGroups) + " in B).");
    }

    const double timeA = a.kernelTimeUs;
    const double timeB = b.kernelTimeUs;
    if (timeA > 0 && timeB > 0) {
        const bool aSlower = timeA > timeB;
        notes.push_back(std::string("GPU kernel time: A ") + formatDuration(timeA) + ", B " + formatDuration(timeB)
            + " (" + (aSlower ? "A" : "B") + " spends " + fixed(std::max(timeA, timeB) / std::min(timeA, timeB), 2)
            + "x as long); kernel launches: A " + withThousands(static_cast<int64_t>(a.kernels)) + ", B "
            + withThousands(static_cast<int64_t>(b.kernels)) + ".");
    }

    // The kernel types whose time differs most.
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

    const auto fallback = std::find_if(report.globalCounts.begin(), report.globalCounts.end(),
        [&](const TypeCount& counts) { return counts.type == report.classifier.fallback; });
    if (fallback != report.globalCounts.end()) {
        for (const Side side : {Side::Trace1, Side::Trace2}) {
            const double total = report.traces[sideIndex(side)].kernelTimeUs;
            const double share = total > 0 ? fallback->timeUs[sideIndex(side)] / total : 0;
            if (share >= 0.05)
                notes.push_back(fixed(share * 100, 0) + "% of " + (side == Side::Trace1 ? "A" : "B")
                    + "'s kernel time is in kernels the classifier \"" + report.classifier.name + "\" calls "
                    + report.typeName(report.classifier.fallback)
                    + ": see the kernels table, or give a rule file with --classifier.");
        }
    }
    if (report.opportunities.empty() && report.mappings.empty())
        notes.push_back("No fusion opportunity or mapping passed the thresholds: the two traces launch their "
                        "kernel types in similar numbers.");
    return notes;
}

} // namespace fusiondiff
